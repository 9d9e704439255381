package session

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrUnknownKey is returned by Keys for a name it does not know.
var ErrUnknownKey = errors.New("unknown key")

// namedKeys are the xterm encodings of keys that are not characters. Cursor keys
// depend on DECCKM and are handled in Keys.
var namedKeys = map[string]string{
	"enter": "\r", "return": "\r",
	"tab": "\t", "shift+tab": "\x1b[Z", "backtab": "\x1b[Z",
	"escape": "\x1b", "esc": "\x1b",
	"backspace": "\x7f", "bs": "\x7f",
	"delete": "\x1b[3~", "del": "\x1b[3~",
	"insert": "\x1b[2~", "ins": "\x1b[2~",
	"pageup": "\x1b[5~", "pgup": "\x1b[5~",
	"pagedown": "\x1b[6~", "pgdn": "\x1b[6~",
	"space": " ",
	"f1":    "\x1bOP", "f2": "\x1bOQ", "f3": "\x1bOR", "f4": "\x1bOS",
	"f5": "\x1b[15~", "f6": "\x1b[17~", "f7": "\x1b[18~", "f8": "\x1b[19~",
	"f9": "\x1b[20~", "f10": "\x1b[21~", "f11": "\x1b[23~", "f12": "\x1b[24~",
}

// cursorKeys map to the final byte of their CSI (normal) or SS3 (application) form.
var cursorKeys = map[string]byte{
	"up": 'A', "down": 'B', "right": 'C', "left": 'D', "home": 'H', "end": 'F',
}

// ctrlPunct are the control characters typed with ctrl and a punctuation key.
var ctrlPunct = map[string]byte{
	"@": 0x00, "space": 0x00, "[": 0x1b, `\`: 0x1c, "]": 0x1d, "^": 0x1e, "_": 0x1f, "?": 0x7f,
}

// Keys turns a send_control spec into the bytes the keys send: one key name or
// single character, or several separated by spaces ("down down enter",
// "escape : w q enter"). appCursor selects the application form of the cursor keys,
// which full-screen programs ask for.
func Keys(spec string, appCursor bool) ([]byte, error) {
	// Names are separated by spaces (or line breaks); a tab or a no-break space is a
	// key of its own, as a pasted one is (the live view sends each character).
	fields := strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == '\n' || r == '\r' })
	if len(fields) == 0 {
		if spec != "" {
			return []byte(" "), nil // a lone space means the space bar
		}
		return nil, fmt.Errorf("%w: no key given; %s", ErrUnknownKey, keyHelp())
	}
	var out []byte
	for _, f := range fields {
		b, err := key(f, appCursor)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

func key(name string, appCursor bool) ([]byte, error) {
	if utf8.RuneCountInString(name) == 1 {
		return []byte(name), nil
	}
	lower := strings.ToLower(name)
	if s, ok := namedKeys[lower]; ok {
		return []byte(s), nil
	}
	if c, ok := cursorKeys[lower]; ok {
		if appCursor {
			return []byte{0x1b, 'O', c}, nil
		}
		return []byte{0x1b, '[', c}, nil
	}
	if b, ok := ctrlKey(lower); ok {
		return []byte{b}, nil
	}
	if b, ok := modifiedKey(name, lower); ok {
		return b, nil
	}
	return nil, fmt.Errorf("%w %q; %s", ErrUnknownKey, name, keyHelp())
}

// modifiedKey is a key held with shift, alt (meta) or ctrl, as xterm sends it: a
// cursor, editing or function key carries the modifiers as a parameter (ctrl+left
// is ESC [1;5D, shift+delete ESC [3;2~), and alt before any other key is ESC
// before it (alt+x is ESC x, alt+enter ESC CR, ctrl+alt+d ESC ^D). Shift with a
// character has no encoding of its own: type the character.
func modifiedKey(name, lower string) ([]byte, bool) {
	mods, rest := 0, lower
	for {
		var n int
		switch {
		case strings.HasPrefix(rest, "shift+"):
			mods, n = mods|1, len("shift+")
		case strings.HasPrefix(rest, "alt+"):
			mods, n = mods|2, len("alt+")
		case strings.HasPrefix(rest, "meta+"):
			mods, n = mods|2, len("meta+")
		case strings.HasPrefix(rest, "ctrl+") && len(rest) > len("ctrl+"):
			mods, n = mods|4, len("ctrl+")
		}
		if n == 0 {
			break
		}
		rest = rest[n:]
	}
	if mods == 0 || rest == "" {
		return nil, false
	}
	param := strconv.Itoa(mods + 1)
	if c, ok := cursorKeys[rest]; ok {
		return []byte("\x1b[1;" + param + string(c)), true
	}
	// An editing or function key takes the parameter in its own form:
	// ESC [ n ~ becomes ESC [ n ; m ~, and ESC O P (f1) becomes ESC [ 1 ; m P.
	switch s := namedKeys[rest]; {
	case len(s) > 3 && strings.HasPrefix(s, "\x1b[") && strings.HasSuffix(s, "~"):
		return []byte(s[:len(s)-1] + ";" + param + "~"), true
	case len(s) == 3 && strings.HasPrefix(s, "\x1bO"):
		return []byte("\x1b[1;" + param + s[2:]), true
	}
	if mods&1 != 0 {
		return nil, false
	}
	var base []byte
	switch original := name[len(name)-len(rest):]; {
	case mods&4 != 0:
		b, ok := ctrlKey("ctrl+" + rest)
		if !ok {
			return nil, false
		}
		base = []byte{b}
	case utf8.RuneCountInString(original) == 1:
		base = []byte(original)
	default:
		s, ok := namedKeys[rest]
		if !ok {
			return nil, false
		}
		base = []byte(s)
	}
	return append([]byte{0x1b}, base...), true // alt
}

// ctrlKey accepts ctrl+x, ctrl-x, c-x and ^x.
func ctrlKey(name string) (byte, bool) {
	var rest string
	switch {
	case strings.HasPrefix(name, "ctrl+"), strings.HasPrefix(name, "ctrl-"):
		rest = name[5:]
	case strings.HasPrefix(name, "c-"):
		rest = name[2:]
	case strings.HasPrefix(name, "^") && len(name) == 2:
		rest = name[1:]
	default:
		return 0, false
	}
	if len(rest) == 1 && rest[0] >= 'a' && rest[0] <= 'z' {
		return rest[0] - 'a' + 1, true
	}
	b, ok := ctrlPunct[rest]
	return b, ok
}

func keyHelp() string {
	names := make([]string, 0, len(namedKeys)+len(cursorKeys))
	for n := range namedKeys {
		names = append(names, n)
	}
	for n := range cursorKeys {
		names = append(names, n)
	}
	sort.Strings(names)
	return "valid keys: ctrl+a … ctrl+z, ctrl+\\ ctrl+] ctrl+[ ctrl+^ ctrl+_ ctrl+@ (ctrl+space), alt+ any key (alt+x, alt+enter, ctrl+alt+d), " +
		"shift+, alt+ and ctrl+ with the cursor, editing and function keys (ctrl+left, shift+up, alt+f4), " +
		strings.Join(names, ", ") +
		", or any single character as itself; separate several keys with spaces (\"escape : w q enter\")"
}
