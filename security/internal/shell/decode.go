package shell

import (
	"encoding/base32"
	"encoding/hex"
	"strings"
)

// Decoders whose output is known when their input is: base32 -d, xxd -r -p,
// rev and tr. A shell fed `echo <text> | <decoder>` is then judged on the
// decoded command, not refused for hiding it.

// decodedText is what decoder c prints when fed in; false when c is not a
// decoder this package evaluates, or in does not decode.
func decodedText(c Command, in string) (string, bool) {
	o := ParseOpts(c.Args[1:], "w")
	switch {
	case c.Name == "base32" && o.Has("dD", "decode"):
		s := strings.Join(strings.Fields(in), "")
		if b, err := base32.StdEncoding.DecodeString(s); err == nil {
			return string(b), true
		}
	case c.Name == "xxd" && o.Has("r", "revert") && o.Has("p", "plain"):
		if b, err := hex.DecodeString(strings.Join(strings.Fields(in), "")); err == nil {
			return string(b), true
		}
	case c.Name == "rev" && len(o.Operands) == 0:
		return reverseLines(in), true
	case c.Name == "tr" && o.Short == "" && len(o.Operands) == 2:
		return translate(in, o.Operands[0].S, o.Operands[1].S)
	}
	return "", false
}

func reverseLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		r := []rune(l)
		for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
			r[a], r[b] = r[b], r[a]
		}
		lines[i] = string(r)
	}
	return strings.Join(lines, "\n")
}

// translate is tr SET1 SET2 for literal sets of characters and ranges
// (a-z n-za-m); false for classes, escapes or sets it cannot expand.
func translate(in, from, to string) (string, bool) {
	f, ok1 := expandSet(from)
	t, ok2 := expandSet(to)
	if !ok1 || !ok2 || len(f) == 0 || len(t) == 0 {
		return "", false
	}
	m := map[rune]rune{}
	for i, r := range f {
		m[r] = t[min(i, len(t)-1)]
	}
	return strings.Map(func(r rune) rune {
		if x, ok := m[r]; ok {
			return x
		}
		return r
	}, in), true
}

func expandSet(s string) ([]rune, bool) {
	if strings.ContainsAny(s, `[\`+DynMark) {
		return nil, false
	}
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] {
			for c := r[i]; c <= r[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out, true
}
