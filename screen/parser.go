package screen

import "unicode/utf8"

// The tokenizer follows the shape of the DEC/xterm parser (vt100.net/emu/dec_ansi_parser),
// reduced to what we need: it works byte by byte so that a sequence or a UTF-8 rune split
// across two Write calls is reassembled, and it hands on only complete tokens.

type parseState uint8

const (
	stGround    parseState = iota
	stEsc                  // after ESC
	stEscInter             // after ESC and an intermediate byte (ESC ( B, ESC # 8)
	stCSI                  // after ESC [
	stString               // OSC, DCS, SOS, PM, APC body
	stStringEsc            // ESC inside a string: ST if a backslash follows
)

const (
	maxCSIBytes = 64   // longer parameter strings are consumed and ignored
	maxStrBytes = 4096 // longer OSC/DCS bodies are consumed and truncated
)

type parser struct {
	state  parseState
	u8     [utf8.UTFMax]byte // partial UTF-8 rune in the ground state
	u8n    int
	u8need int
	inter  byte   // first intermediate of an ESC sequence
	csi    []byte // bytes between ESC [ and the final byte
	csiBad bool   // too long: ignore when the final byte arrives
	strTyp byte   // ']' OSC, 'P' DCS, anything else is swallowed
	str    []byte
}

func (s *Screen) feed(b byte) {
	switch s.p.state {
	case stGround:
		s.ground(b)
	case stEsc:
		s.escByte(b)
	case stEscInter:
		s.escInterByte(b)
	case stCSI:
		s.csiByte(b)
	case stString:
		s.strByte(b)
	case stStringEsc:
		s.strEscByte(b)
	}
}

func (s *Screen) ground(b byte) {
	p := &s.p
	if p.u8need > 0 {
		if b&0xC0 == 0x80 {
			p.u8[p.u8n] = b
			p.u8n++
			if p.u8n == p.u8need {
				r, _ := utf8.DecodeRune(p.u8[:p.u8n])
				p.u8need, p.u8n = 0, 0
				s.printRune(r)
			}
			return
		}
		// A truncated rune: show it was there, then handle b on its own.
		p.u8need, p.u8n = 0, 0
		s.printRune(utf8.RuneError)
	}
	switch {
	case b >= 0x20 && b < 0x7f:
		s.printRune(rune(b))
	case b == 0x1b:
		s.flushPrint()
		p.state = stEsc
	case b < 0x20 || b == 0x7f:
		s.control(b)
	case b >= 0xC2 && b <= 0xF4:
		p.u8[0], p.u8n = b, 1
		p.u8need = 2
		if b >= 0xE0 {
			p.u8need = 3
		}
		if b >= 0xF0 {
			p.u8need = 4
		}
	default:
		s.printRune(utf8.RuneError)
	}
}

// control executes a C0 control. It is also called from inside escape sequences, where
// xterm executes controls as they arrive.
func (s *Screen) control(b byte) {
	s.flushPrint()
	s.print.last.valid = false
	switch b {
	case '\n', '\v', '\f':
		s.lineFeed(b)
	case '\r', '\b', '\t':
		s.send(c0[b : b+1])
	case 0x18, 0x1a: // CAN, SUB abort any sequence
		s.p.state = stGround
	}
	// BEL, NUL, SO, SI, ENQ, DEL and the rest do nothing visible; vt10x would print some
	// of them in line-drawing mode, so they are not passed on.
}

// lineFeed handles LF/VT/FF and, with b == 0, IND; the line at the top leaves the screen
// when the cursor is on the bottom margin.
func (s *Screen) lineFeed(b byte) {
	s.captureIfBottom(-1)
	if b == 0 {
		s.send(escIND)
		return
	}
	s.send(c0[b : b+1])
}

// Sequences sent as they are, kept here so that sending one does not allocate.
var (
	c0     = [0x20]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}
	escIND = []byte("\x1bD")
	escNEL = []byte("\x1bE")
)

func (s *Screen) escByte(b byte) {
	switch {
	case b == 0x1b:
	case b == 0x18 || b == 0x1a:
		s.p.state = stGround
	case b < 0x20:
		s.control(b)
	case b <= 0x2f:
		s.p.inter = b
		s.p.state = stEscInter
	case b < 0x7f:
		s.p.state = stGround
		s.escDispatch(0, b)
	case b == 0x7f:
	default:
		s.p.state = stGround
		s.ground(b)
	}
}

func (s *Screen) escInterByte(b byte) {
	switch {
	case b == 0x1b:
		s.p.state = stEsc
	case b == 0x18 || b == 0x1a:
		s.p.state = stGround
	case b < 0x20:
		s.control(b)
	case b <= 0x2f:
		s.p.inter = 0xff // more than one intermediate: nothing we pass on
	case b < 0x7f:
		s.p.state = stGround
		s.escDispatch(s.p.inter, b)
	case b == 0x7f:
	default:
		s.p.state = stGround
		s.ground(b)
	}
}

func (s *Screen) escDispatch(inter, b byte) {
	if inter == 0 && b == '[' {
		// The last printable stays valid until the sequence is known: REP needs it.
		s.p.csi, s.p.csiBad = s.p.csi[:0], false
		s.p.state = stCSI
		return
	}
	s.print.last.valid = false
	if inter != 0 {
		switch {
		case inter == '(': // G0 charset: vt10x supports line drawing ('0') and ASCII
			s.send([]byte{0x1b, '(', b})
		case inter == '#' && b == '8': // DECALN
			s.send([]byte("\x1b#8"))
		}
		// ESC ) * + would make vt10x print the next byte; everything else is unsupported.
		return
	}
	switch b {
	case ']', 'P', 'X', '^', '_', 'k':
		s.p.strTyp, s.p.str = b, s.p.str[:0]
		s.p.state = stString
	case '7', '8', '=', '>', 'M', 'H':
		s.tabsCustom = s.tabsCustom || b == 'H' // HTS
		s.send([]byte{0x1b, b})
	case 'D': // IND
		s.lineFeed(0)
	case 'E': // NEL
		s.captureIfBottom(-1)
		s.send(escNEL)
	case 'c':
		s.resetTerminal()
	case 'Z': // DECID, an old form of DA1
		s.reply(da1Reply)
	}
}

func (s *Screen) csiByte(b byte) {
	p := &s.p
	switch {
	case b >= 0x40 && b <= 0x7e:
		p.state = stGround
		if !p.csiBad {
			s.csiDispatch(b)
		}
	case b >= 0x20 && b <= 0x3f:
		if len(p.csi) >= maxCSIBytes {
			p.csiBad = true
			return
		}
		p.csi = append(p.csi, b)
	case b == 0x1b:
		p.state = stEsc
	case b == 0x18 || b == 0x1a:
		p.state = stGround
	case b < 0x20:
		s.control(b)
	case b == 0x7f:
	default: // not part of any sequence: abandon it and treat the byte as text
		p.state = stGround
		s.ground(b)
	}
}

func (s *Screen) strByte(b byte) {
	p := &s.p
	switch {
	case b == 0x07 && p.strTyp == ']': // xterm accepts BEL as the end of an OSC
		p.state = stGround
		s.oscDispatch("\a")
	case b == 0x1b:
		p.state = stStringEsc
	case b == 0x18 || b == 0x1a:
		p.state = stGround
	case b < 0x20:
	default:
		if len(p.str) < maxStrBytes {
			p.str = append(p.str, b)
		}
	}
}

func (s *Screen) strEscByte(b byte) {
	if b != '\\' {
		// Not ST: the string is abandoned and the ESC starts a new sequence.
		s.p.state = stEsc
		s.escByte(b)
		return
	}
	s.p.state = stGround
	switch s.p.strTyp {
	case ']':
		s.oscDispatch("\x1b\\")
	case 'P':
		s.dcsDispatch()
	}
}
