package tools

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"
)

// args reads one call's arguments with errors an agent can act on ("timeout_ms must
// be an integer from 1 to 600000, got -5"), instead of a generic binding failure.
type args map[string]any

func (a args) str(key string, required bool) (string, error) {
	v, ok := a[key]
	if !ok || v == nil {
		if required {
			return "", fmt.Errorf("missing required argument %q", key)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s must be a string, got %s", key, typeName(v))
	}
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%s is not valid UTF-8", key)
	}
	return s, nil
}

func (a args) integer(key string, def, lo, hi int) (int, error) {
	v, ok := a[key]
	if !ok || v == nil {
		return def, nil
	}
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("%s must be an integer from %d to %d, got %s", key, lo, hi, show(v))
	}
	return int(f), nil
}

func (a args) boolean(key string, def bool) (bool, error) {
	v, ok := a[key]
	if !ok || v == nil {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%s must be true or false, got %s", key, show(v))
	}
	return b, nil
}

func (a args) strings(key string) ([]string, error) {
	v, ok := a[key]
	if !ok || v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s must be an array of strings, got %s", key, typeName(v))
	}
	out := make([]string, len(list))
	for i, item := range list {
		s, ok := item.(string)
		if !ok || strings.ContainsRune(s, 0) {
			return nil, fmt.Errorf("%s[%d] must be a string without NUL bytes, got %s", key, i, show(item))
		}
		out[i] = s
	}
	return out, nil
}

func (a args) stringMap(key string) (map[string]string, error) {
	v, ok := a[key]
	if !ok || v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s must be an object of string values, got %s", key, typeName(v))
	}
	out := make(map[string]string, len(m))
	for k, item := range m {
		s, ok := item.(string)
		if !ok || k == "" || strings.ContainsAny(k, "=\x00") || strings.ContainsRune(s, 0) {
			return nil, fmt.Errorf("%s[%q] must be a string (names without '=' or NUL), got %s", key, k, show(item))
		}
		out[k] = s
	}
	return out, nil
}

// pattern compiles an optional wait_for regular expression.
func (a args) pattern(key string) (*regexp.Regexp, error) {
	s, err := a.str(key, false)
	if err != nil || s == "" {
		return nil, err
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("%s is not a valid regular expression (Go RE2 syntax): %v", key, err)
	}
	return re, nil
}

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func show(v any) string {
	s := fmt.Sprintf("%v", v)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return fmt.Sprintf("%s (%s)", s, typeName(v))
}
