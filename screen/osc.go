package screen

import (
	"bytes"
	"strings"
	"unicode"
)

// OSC and DCS strings never reach vt10x: it cuts titles at ';', keeps only 256 runes, and
// answers colour queries by writing to its writer under its own lock.

const maxTitleRunes = 256

// oscDispatch handles a complete OSC; term is the terminator the program used, which its
// answer repeats.
func (s *Screen) oscDispatch(term string) {
	s.print.last.valid = false
	cmd, arg, _ := bytes.Cut(s.p.str, []byte(";"))
	switch string(cmd) {
	case "0", "2":
		s.title = cleanTitle(string(arg))
	case "10", "11", "12":
		if string(arg) == "?" {
			s.reply("\x1b]%s;%s%s", cmd, defaultColour(cmd), term)
		}
	case "133":
		s.oscMark(arg)
	}
	// OSC 1 (icon name), 4 (palette), 7 (cwd), 8 (hyperlinks), 52 (clipboard) and the rest
	// change nothing we show.
}

// defaultColour answers OSC 10 (foreground), 11 (background) and 12 (cursor): light on
// dark, which is what most programs assume when they cannot ask.
func defaultColour(cmd []byte) string {
	if string(cmd) == "11" {
		return "rgb:0000/0000/0000"
	}
	return "rgb:ffff/ffff/ffff"
}

// oscMark records OSC 133;X[;arg]. Options iTerm2 and others append after the kind
// (133;A;k=s) are kept in Arg as they arrived.
func (s *Screen) oscMark(arg []byte) {
	if len(arg) == 0 {
		return
	}
	kind, rest := arg[0], arg[1:]
	if len(rest) > 0 && rest[0] != ';' {
		return // not a one-letter kind
	}
	if len(rest) > 0 {
		rest = rest[1:]
	}
	s.addMark(kind, strings.ToValidUTF8(string(rest), "\uFFFD"))
}

func cleanTitle(t string) string {
	t = strings.ToValidUTF8(t, "\uFFFD")
	t = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, t)
	if r := []rune(t); len(r) > maxTitleRunes {
		t = string(r[:maxTitleRunes])
	}
	return t
}

// dcsDispatch answers the DCS queries programs wait on with "not supported": DECRQSS
// (DCS $ q) and XTGETTCAP (DCS + q). Everything else (sixel, tmux passthrough) is dropped.
func (s *Screen) dcsDispatch() {
	s.print.last.valid = false
	body := s.p.str
	switch {
	case bytes.HasPrefix(body, []byte("$q")):
		s.reply("\x1bP0$r\x1b\\")
	case bytes.HasPrefix(body, []byte("+q")):
		s.reply("\x1bP0+r%s\x1b\\", sanitizeHex(body[2:]))
	}
}

// sanitizeHex keeps only the hex digits and ';' of an XTGETTCAP request before echoing it.
func sanitizeHex(b []byte) string {
	return strings.Map(func(r rune) rune {
		if r == ';' || unicode.Is(unicode.ASCII_Hex_Digit, r) {
			return r
		}
		return -1
	}, string(b))
}
