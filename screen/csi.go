package screen

// CSI sequences are parsed here, answered here when they are queries, and otherwise passed
// to vt10x in a canonical form it handles correctly: explicit, clamped parameters, one mode
// per set/reset, no private forms it would misread (vt10x ignores the '>' '=' '<' markers
// and runs, for example, CSI > 4;1 m as "underline, bold").

const (
	maxParams = 32
	maxSubs   = 8
	maxParam  = 99999 // bigger numbers only stall loops in vt10x

	da1Reply = "\x1b[?62;22c" // VT220 with ANSI colour
	da2Reply = "\x1b[>1;10;0c"
)

// csiSeq is a parsed control sequence. A missing parameter is -1.
type csiSeq struct {
	prefix byte // '?', '>', '=', '<' or 0
	inter  byte // intermediate byte or 0
	final  byte
	n      int // number of parameters
	sub    [maxParams][maxSubs]int
	nsub   [maxParams]int
}

// param returns parameter i, or def when it is missing or zero (for most sequences a zero
// count means one).
func (c *csiSeq) param(i, def int) int {
	if i >= c.n || c.sub[i][0] <= 0 {
		return def
	}
	return c.sub[i][0]
}

// parseCSI parses the bytes between ESC [ and the final byte; false if malformed. Only the
// header is reset: a parameter's slots are set when it starts, and the 2 KiB of them would
// cost more to clear than the rest of the parse.
func parseCSI(raw []byte, final byte, c *csiSeq) bool {
	c.prefix, c.inter, c.final, c.n = 0, 0, final, 0
	if len(raw) > 0 && raw[0] >= '<' && raw[0] <= '?' {
		c.prefix, raw = raw[0], raw[1:]
	}
	for _, b := range raw {
		switch {
		case c.inter != 0 && b >= 0x30:
			return false // parameters after an intermediate
		case b >= 0x20 && b <= 0x2f:
			if c.inter != 0 {
				return false
			}
			c.inter = b
		case b >= '0' && b <= '9':
			if c.n == 0 {
				c.n, c.nsub[0], c.sub[0][0] = 1, 1, -1
			}
			addDigit(c, b)
		case b == ';' || b == ':':
			if !nextParam(c, b) {
				return false
			}
		default:
			return false // a marker byte in the middle
		}
	}
	return true
}

// addDigit extends the current (sub-)parameter, saturating at maxParam.
func addDigit(c *csiSeq, b byte) {
	i, j := c.n-1, c.nsub[c.n-1]-1
	v := max(c.sub[i][j], 0)*10 + int(b-'0')
	c.sub[i][j] = min(v, maxParam)
}

// nextParam starts a new parameter (';') or sub-parameter (':'); beyond the limits the
// extra ones are dropped.
func nextParam(c *csiSeq, sep byte) bool {
	if c.n == 0 {
		c.n, c.nsub[0], c.sub[0][0] = 1, 1, -1
	}
	if sep == ':' {
		i := c.n - 1
		if c.nsub[i] < maxSubs {
			c.sub[i][c.nsub[i]] = -1
			c.nsub[i]++
		}
		return true
	}
	if c.n < maxParams {
		c.sub[c.n][0], c.nsub[c.n] = -1, 1
		c.n++
	}
	return true
}

func (s *Screen) csiDispatch(final byte) {
	last := s.print.last
	s.print.last.valid = false
	c := &s.csi
	if !parseCSI(s.p.csi, final, c) {
		return
	}
	switch {
	case c.inter != 0:
		s.csiIntermediate(c)
	case c.prefix == '?':
		s.csiPrivate(c)
	case c.prefix == '>':
		if final == 'c' && c.param(0, 0) == 0 {
			s.reply(da2Reply)
		}
		// CSI > u (kitty keyboard push), CSI > 4;1 m (modifyOtherKeys) and friends: dropped.
	case c.prefix != 0:
		// CSI = and CSI < forms (kitty keyboard, DA3): nothing we support.
	case final == 'b':
		s.repeat(last.valid, last.r, c.param(0, 1))
	default:
		s.csiPlain(c)
	}
}

// csiIntermediate handles sequences with an intermediate byte. DECRQM gets "not
// recognised" so that programs which wait for an answer stop waiting.
func (s *Screen) csiIntermediate(c *csiSeq) {
	if c.inter == '$' && c.final == 'p' && (c.prefix == 0 || c.prefix == '?') {
		mode := max(c.param(0, 0), 0)
		if c.prefix == '?' {
			s.reply("\x1b[?%d;0$y", mode)
		} else {
			s.reply("\x1b[%d;0$y", mode)
		}
	}
	// DECSCUSR (CSI SP q), DECSTR (CSI ! p) and the rest change nothing we show.
}

// repeat handles REP, which vt10x does not know: the last printed rune n more times.
func (s *Screen) repeat(valid bool, r rune, n int) {
	if !valid {
		return
	}
	n = min(n, s.cols*s.rows)
	for range n {
		s.printRune(r)
	}
}
