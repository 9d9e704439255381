package screen

// vt10x has no scrollback. We capture a row just before vt10x scrolls it off the top of the
// main screen: we know every token that can scroll (LF/VT/FF, IND, NEL, a wrapping
// printable, CSI S, a shrinking resize) and vt10x's rule for each, so we check the cursor
// against the mirrored scroll region before handing the token over.

// histLine is one row that left the screen: its text and then its attributes (runs.go),
// in one string. Soft-wrapped rows keep their trailing blanks so that joining them with
// the next row reproduces the logical line exactly. Every row that scrolls off is written
// into the ring, which holds up to 10000, so a line is kept to 24 bytes.
type histLine struct {
	b       string
	n       int32 // the length of the text
	wrapped bool
}

func (h histLine) text() string { return h.b[:h.n] }
func (h histLine) runs() string { return h.b[h.n:] }

// history is a ring of the newest max rows that left the main screen.
type history struct {
	max   int
	lines []histLine
	start int // index of the oldest line once the ring is full
}

func (h *history) len() int { return len(h.lines) }

func (h *history) push(l histLine) {
	switch {
	case h.max <= 0:
	case len(h.lines) < h.max:
		h.lines = append(h.lines, l)
	default:
		h.lines[h.start] = l
		if h.start++; h.start == h.max {
			h.start = 0
		}
	}
}

// at returns the i-th retained line, oldest first.
func (h *history) at(i int) histLine {
	return h.lines[(h.start+i)%len(h.lines)]
}

// captureIfBottom records the top row if the token about to be sent scrolls the region by
// one line, i.e. the cursor is on the bottom margin. wrapRow is the row that the token
// marks as soft-wrapped (vt10x sets that bit only while scrolling), or -1.
func (s *Screen) captureIfBottom(wrapRow int) {
	s.flushPrint()
	if s.vt.Cursor().Y == s.bottom {
		s.scrollOff(1, wrapRow)
	}
}

// scrollOff records the top n rows of the scroll region as leaving the screen. Only a
// region that starts at the top of the main screen feeds the scrollback (as in xterm): a
// region lower down, or the alternate screen, scrolls lines into nothing.
func (s *Screen) scrollOff(n, wrapRow int) {
	if s.top != 0 || s.altScreen() {
		return
	}
	n = min(n, s.bottom+1)
	for y := range n {
		s.hist.push(s.captureRow(y, y == wrapRow))
	}
	s.lineBase += int64(n)
}

// captureRow is row y as the scrollback keeps it; wrapped marks it soft-wrapped whatever
// vt10x says. Only a soft-wrapped row keeps its trailing blanks.
func (s *Screen) captureRow(y int, wrapped bool) histLine {
	text, w := s.renderRow(y)
	h := histLine{b: text, wrapped: wrapped || w}
	if !h.wrapped {
		h.b = trimRight(text)
	}
	h.n = int32(len(h.b))
	if runs := s.rowRuns(); len(runs) > 0 {
		h.b += string(runs)
	}
	return h
}

// Resize changes the screen size, clamped to 1..1000 columns and 1..500 rows. Content is
// truncated, not reflowed. When the cursor would fall below the new bottom, the rows above
// it scroll into the scrollback first, as in xterm.
func (s *Screen) Resize(cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	cols, rows = clampSize(cols, rows)
	if cols == s.cols && rows == s.rows {
		return
	}
	s.flushPrint()
	s.print.last.valid = false
	if s.altScreen() && rows < s.rows {
		s.slideMain(rows)
	}
	cur := s.vt.Cursor()
	if n := cur.Y - rows + 1; n > 0 {
		// vt10x would slide both buffers itself, losing the rows on the inactive one and
		// bypassing our capture; scrolling first leaves it nothing to slide.
		s.send([]byte("\x1b[r"))
		s.top, s.bottom = 0, s.rows-1
		s.scrollOff(n, -1)
		s.sendf("\x1b[%dS\x1b[%d;%dH", n, cur.Y-n+1, cur.X+1)
	}
	grew := cols > s.cols
	s.vt.Resize(cols, rows)
	s.cols, s.rows = cols, rows
	s.top, s.bottom = 0, rows-1
	if grew {
		s.resetTabs()
	}
}

// slideMain does for the main screen, behind the alternate one, what a shrinking
// resize does for the screen in front: the rows above the last one in use (or the
// cursor saved on entering (mainCursor), where the program returns to) scroll into the
// scrollback, so the prompt the program was started from is still there when it
// leaves. vt10x would keep the top rows of both screens and drop the bottom ones.
// The main screen is reached by leaving the alternate one, which vt10x clears:
// the program in front redraws for the resize anyway (SIGWINCH).
func (s *Screen) slideMain(rows int) {
	front := s.vt.Cursor()
	saved := cursorAt{x: front.X, y: front.Y} // 47 and 1047 leave the cursor where it is
	if s.mainCursor != nil {
		saved = *s.mainCursor // saved on entering (1049)
	}
	s.send([]byte("\x1b[?47l"))
	last := saved.y
	for y := s.rows - 1; y > last; y-- {
		if text, _ := s.renderRow(y); trimRight(text) != "" {
			last = y
		}
	}
	n := last - rows + 1
	if n > 0 {
		s.send([]byte("\x1b[r"))
		s.top, s.bottom = 0, s.rows-1
		s.scrollOff(n, -1)
		s.sendf("\x1b[%dS", n)
	}
	if s.mainCursor != nil {
		s.mainCursor.y = max(saved.y-max(n, 0), 0)
	}
	// The alternate screen's own saved cursor (vt10x's one slot) is left alone.
	s.sendf("\x1b[?47h\x1b[%d;%dH", front.Y+1, front.X+1)
}

// resetTabs puts a tab stop every 8 columns. vt10x's resize sets the stops of a widened
// screen on its old slice, so the new columns would have none.
func (s *Screen) resetTabs() {
	cur := s.vt.Cursor()
	s.send([]byte("\x1b[3g"))
	s.tabsCustom = false
	for x := 8; x < s.cols; x += 8 {
		s.sendf("\x1b[%dG\x1bH", x+1)
	}
	// The scroll region was just reset, so CUP is not offset by origin mode.
	s.sendf("\x1b[%d;%dH", cur.Y+1, cur.X+1)
}

// resetTerminal handles RIS. vt10x's reset clears the alt-screen flag without swapping the
// buffers back, so we leave the alternate screen first; and it erases with its arguments
// swapped (columns up to the row count, rows up to the column count), leaving old text to
// the right, so the whole screen is erased again after it.
func (s *Screen) resetTerminal() {
	if s.altScreen() {
		s.send([]byte("\x1b[?1047l"))
	}
	s.send([]byte("\x1bc"))
	s.send([]byte("\x1b[2J"))
	s.mainCursor = nil
	s.top, s.bottom = 0, s.rows-1
	s.bracketed = false
	s.tabsCustom = false
	s.clears++
	s.erased()
}

// erased records that the visible main screen was blanked: what was on it is gone, and
// the output after the erase starts at the screen's top row, whatever older positions
// say. The alternate screen's erases are not recorded: its content is never cut by
// position.
func (s *Screen) erased() {
	if s.altScreen() {
		return
	}
	s.erases++
	s.eraseTop = s.lineBase
}
