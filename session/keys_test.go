package session

import (
	"errors"
	"regexp"
	"testing"
)

func TestKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec      string
		appCursor bool
		want      string
	}{
		{"ctrl+c", false, "\x03"},
		{"Ctrl-D", false, "\x04"},
		{"^z", false, "\x1a"},
		{"ctrl+\\", false, "\x1c"},
		{"ctrl+space", false, "\x00"},
		{"enter", false, "\r"},
		{"up", false, "\x1b[A"},
		{"up", true, "\x1bOA"},
		{"down down enter", false, "\x1b[B\x1b[B\r"},
		{"escape : w q enter", false, "\x1b:wq\r"},
		{"f5", false, "\x1b[15~"},
		{"shift+tab", false, "\x1b[Z"},
		{"q", false, "q"},
		{"é", false, "é"},
		{" ", false, " "},
		{"a \t b \u00a0 c", false, "a\tb\u00a0c"}, // pasted in the live view: a tab and a no-break space are keys
		{"alt+x", false, "\x1bx"},
		{"Alt+X", false, "\x1bX"},
		{"meta+.", false, "\x1b."},
		{"alt+enter", false, "\x1b\r"},
		{"alt+backspace", false, "\x1b\x7f"},
		{"ctrl+alt+d", false, "\x1b\x04"},
		{"ctrl+left", false, "\x1b[1;5D"},
		{"ctrl+right", true, "\x1b[1;5C"},
		{"shift+up", false, "\x1b[1;2A"},
		{"ctrl+shift+end", false, "\x1b[1;6F"},
		{"shift+delete", false, "\x1b[3;2~"},
		{"ctrl+pagedown", false, "\x1b[6;5~"},
		{"alt+f4", false, "\x1b[1;3S"},
		{"shift+f5", false, "\x1b[15;2~"},
	}
	for _, tt := range tests {
		got, err := Keys(tt.spec, tt.appCursor)
		if err != nil || string(got) != tt.want {
			t.Errorf("Keys(%q, %v) = %q, %v; want %q", tt.spec, tt.appCursor, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "ctrl+shift+x", "hyper", "f13", "alt+", "shift+a", "alt+hyper", "ctrl+alt+é"} {
		if _, err := Keys(bad, false); !errors.Is(err, ErrUnknownKey) {
			t.Errorf("Keys(%q): %v, want ErrUnknownKey", bad, err)
		}
	}
}

func FuzzKeys(f *testing.F) {
	for _, seed := range []string{"ctrl+c", "escape : w q enter", "up down", "^", "c-", "ctrl+", " "} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		b, err := Keys(spec, false)
		if err == nil && len(b) == 0 {
			t.Fatalf("Keys(%q) returned nothing and no error", spec)
		}
	})
}

func re(t *testing.T, s string) *regexp.Regexp {
	t.Helper()
	return regexp.MustCompile(s)
}
