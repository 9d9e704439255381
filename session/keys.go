package session

import (
	"errors"
	"fmt"
	"sort"
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
	fields := strings.Fields(spec)
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
	return nil, fmt.Errorf("%w %q; %s", ErrUnknownKey, name, keyHelp())
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
	return "valid keys: ctrl+a … ctrl+z, ctrl+\\ ctrl+] ctrl+[ ctrl+^ ctrl+_ ctrl+@ (ctrl+space), " +
		strings.Join(names, ", ") +
		", or any single character as itself; separate several keys with spaces (\"escape : w q enter\")"
}
