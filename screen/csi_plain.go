package screen

// countFinals are the sequences whose one parameter is a count or a 1-based position,
// where a missing or zero parameter means 1.
var countFinals = [128]bool{
	'@': true, 'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true,
	'G': true, 'I': true, 'L': true, 'M': true, 'P': true, 'T': true, 'X': true,
	'Z': true, 'a': true, 'd': true, 'e': true, '`': true,
}

// csiPlain handles sequences without a private marker or intermediate.
func (s *Screen) csiPlain(c *csiSeq) {
	f := c.final
	switch {
	case countFinals[f]:
		s.sendf("\x1b[%d%c", min(c.param(0, 1), max(s.cols, s.rows)), f)
	case f == 'H' || f == 'f':
		s.sendf("\x1b[%d;%dH", min(c.param(0, 1), s.rows), min(c.param(1, 1), s.cols))
	case f == 'S':
		s.scrollUp(c.param(0, 1))
	case f == 'J':
		s.eraseDisplay(max(c.param(0, 0), 0))
	case f == 'K' || f == 'g':
		if v := max(c.param(0, 0), 0); v <= 2 || (f == 'g' && v == 3) {
			s.tabsCustom = s.tabsCustom || f == 'g'
			s.sendf("\x1b[%d%c", v, f)
		}
	case f == 'm':
		s.sendSGR(c)
	case f == 'h' || f == 'l':
		s.setModes(c, false)
	case f == 'r':
		s.setRegion(c.param(0, 1), c.param(1, s.rows))
	case f == 's' || f == 'u':
		if c.n == 0 { // SCOSC/SCORC; with parameters these are other things
			s.sendf("\x1b[%c", f)
		}
	default:
		s.csiQuery(c)
	}
}

// csiQuery answers the status queries; vt10x would write its answers to its writer while
// holding its lock, or not answer at all.
func (s *Screen) csiQuery(c *csiSeq) {
	switch c.final {
	case 'n':
		switch c.param(0, 0) {
		case 5:
			s.reply("\x1b[0n")
		case 6:
			cur := s.vt.Cursor()
			s.reply("\x1b[%d;%dR", cur.Y+1, cur.X+1)
		}
	case 'c':
		if c.param(0, 0) == 0 {
			s.reply(da1Reply)
		}
	case 't':
		if c.param(0, 0) == 18 { // text area size in characters
			s.reply("\x1b[8;%d;%dt", s.rows, s.cols)
		}
	}
}

// scrollUp handles SU: the top n rows of the region leave the screen.
func (s *Screen) scrollUp(n int) {
	n = min(n, s.rows)
	s.flushPrint()
	s.scrollOff(n, -1)
	s.sendf("\x1b[%dS", n)
}

// eraseDisplay handles ED. ED 3 (erase scrollback) is counted but not obeyed: vt10x does not
// know it, and the agent may still want the history.
func (s *Screen) eraseDisplay(mode int) {
	switch mode {
	case 0, 1:
		s.sendf("\x1b[%dJ", mode)
	case 2:
		s.send([]byte("\x1b[2J"))
		s.clears++
		s.erased()
	case 3:
		s.clears++
	}
}

// setRegion handles DECSTBM, mirroring vt10x's clamping (it swaps an inverted region).
func (s *Screen) setRegion(top, bottom int) {
	top = clampInt(top, 1, s.rows)
	bottom = clampInt(bottom, 1, s.rows)
	s.sendf("\x1b[%d;%dr", top, bottom)
	s.top, s.bottom = min(top, bottom)-1, max(top, bottom)-1
}

// Modes vt10x implements and that matter to someone: the others are dropped so that a
// mode it does not know can never reach one of its code paths by accident.
var (
	privateModes = map[int]bool{1: true, 5: true, 6: true, 7: true, 9: true, 25: true,
		1000: true, 1002: true, 1003: true, 1004: true, 1006: true, 1048: true}
	ansiModes = map[int]bool{4: true, 20: true}
)

// setModes handles SM/RM and DECSET/DECRST, one mode at a time.
func (s *Screen) setModes(c *csiSeq, private bool) {
	set := c.final == 'h'
	for i := range c.n {
		mode := c.sub[i][0]
		switch {
		case private && (mode == 47 || mode == 1047 || mode == 1049):
			s.setAltScreen(mode, set)
		case private && mode == 2004:
			s.bracketed = set
		case private && privateModes[mode]:
			s.sendf("\x1b[?%d%c", mode, c.final)
		case !private && ansiModes[mode]:
			s.sendf("\x1b[%d%c", mode, c.final)
		}
	}
}

// setAltScreen passes on only real switches: vt10x swaps buffers on a reset even when the
// main screen is already showing, and clears the alternate screen on a repeated set.
func (s *Screen) setAltScreen(mode int, set bool) {
	if set == s.altScreen() {
		return
	}
	if set && mode == 1049 {
		cur := s.vt.Cursor()
		s.mainCursor = &cursorAt{x: cur.X, y: cur.Y}
	}
	s.sendf("\x1b[?%d%c", mode, "lh"[boolInt(set)])
	s.clears++
	if !set {
		if mode == 1049 && s.mainCursor != nil {
			s.sendf("\x1b[%d;%dH", s.mainCursor.y+1, s.mainCursor.x+1)
		}
		s.mainCursor = nil
		cur := s.vt.Cursor()
		s.altExit = Pos{Line: s.lineBase + int64(cur.Y), Col: cur.X}
		row, _ := s.renderRow(cur.Y)
		s.altExitLeft = leftOf(row, cur.X)
	}
}

// cursorAt is a cursor position on the screen, 0-based.
type cursorAt struct{ x, y int }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// csiPrivate handles the '?' forms.
func (s *Screen) csiPrivate(c *csiSeq) {
	switch c.final {
	case 'h', 'l':
		s.setModes(c, true)
	case 'J', 'K': // selective erase: we have no protected cells, so it is a plain erase
		if v := max(c.param(0, 0), 0); v <= 2 {
			s.sendf("\x1b[%d%c", v, c.final)
		}
	case 'n':
		if c.param(0, 0) == 6 { // DECXCPR
			cur := s.vt.Cursor()
			s.reply("\x1b[?%d;%dR", cur.Y+1, cur.X+1)
		}
	}
	// CSI ? u (kitty keyboard query) is deliberately not answered: a program that gets no
	// answer falls back to legacy keys, which is what we send.
}

// sendSGR hands vt10x the attributes an SGR leaves, written out in full (sgr.go says why).
func (s *Screen) sendSGR(c *csiSeq) {
	pen := penOf(s.vt.Cursor().Attr)
	next := pen.withSGR(c)
	if next == pen {
		return
	}
	s.seq = next.appendSGR(s.seq[:0])
	s.send(s.seq)
}
