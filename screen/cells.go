package screen

import (
	"strings"
	"unicode/utf8"
)

// Cell is one cell of the screen.
type Cell struct {
	Text  string // a character and the combining marks on it; " " when blank, "" in the second cell of a wide character
	Width int    // 1, or 2 for a wide character, whose second cell follows with Width 0
	Attr  Attr
}

// Row is a row of cells.
type Row struct {
	Cells   []Cell // up to the last cell that shows a character or has attributes: the rest is blank
	Wrapped bool   // the row soft-wraps onto the next
}

// Grid is a copy of the screen's cells, for drawing it; safe to keep.
type Grid struct {
	Rows          []Row // the Scrollback rows from the scrollback, oldest first, then the visible rows
	Scrollback    int
	First         int64 // Pos.Line of Rows[0]
	Cursor        Point // on the visible screen: in Rows[Scrollback+Cursor.Row]
	CursorVisible bool
	Cols          int // of the screen now; a scrollback row may be wider, from before a resize
}

// Grid returns the visible rows as cells, after the newest n rows of the retained
// scrollback (all of them if n is larger). On the alternate screen, the scrollback is
// still the main screen's.
func (s *Screen) Grid(n int) Grid {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	n = clampInt(n, 0, s.hist.len())
	cur := s.vt.Cursor()
	g := Grid{
		Rows:          make([]Row, 0, n+s.rows),
		Scrollback:    n,
		First:         s.lineBase - int64(n),
		Cursor:        Point{Row: cur.Y, Col: cur.X},
		CursorVisible: s.vt.CursorVisible(),
		Cols:          s.cols,
	}
	for i := s.hist.len() - n; i < s.hist.len(); i++ {
		g.Rows = append(g.Rows, s.histRow(s.hist.at(i)))
	}
	for y := range s.rows {
		g.Rows = append(g.Rows, s.screenRow(y))
	}
	return g
}

// screenRow reads row y from vt10x as scrolling would keep it, so that a row's cells
// are the same on the screen and in the scrollback (appendCells' rules: a wide rune
// without its second half, a second half without its rune and the filler a wide rune
// leaves before wrapping are blanks).
func (s *Screen) screenRow(y int) Row { return s.histRow(s.captureRow(y, false)) }

// histRow turns a scrollback line back into cells: its text has one cell's text after
// another, each a rune that takes room followed by the zero-width ones folded into it.
func (s *Screen) histRow(h histLine) Row {
	var cells []Cell
	for text := h.text(); text != ""; {
		r, n := utf8.DecodeRuneInString(text)
		for n < len(text) {
			m, k := utf8.DecodeRuneInString(text[n:])
			if runeWidth(m) != 0 {
				break
			}
			n += k
		}
		c := Cell{Text: text[:n], Width: max(runeWidth(r), 1)}
		if n == 1 {
			c.Text = s.cellString(r) // shares the one-byte strings instead of the line
		}
		cells = append(cells, c)
		if c.Width == 2 {
			cells = append(cells, Cell{})
		}
		text = text[n:]
	}
	x := 0
	for runs := h.runs(); runs != ""; {
		var end int
		var a Attr
		end, a, runs = nextRun(runs)
		for ; x < end; x++ {
			if x == len(cells) {
				cells = append(cells, Cell{Text: " ", Width: 1})
			}
			cells[x].Attr = a
		}
	}
	return Row{Cells: trimCells(cells), Wrapped: h.wrapped}
}

// trimCells drops the blank cells at the end of a row; nil if that is all of them.
func trimCells(cells []Cell) []Cell {
	n := len(cells)
	for n > 0 && cells[n-1] == (Cell{Text: " ", Width: 1}) {
		n--
	}
	if n == 0 {
		return nil
	}
	return cells[:n:n]
}

// ascii holds the printable ASCII characters, so that a cell's one-byte text is a slice of
// it rather than a string of its own.
const ascii = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// cellString is what a cell holding r shows.
func (s *Screen) cellString(r rune) string {
	if r >= 0x20 && r < 0x7f {
		return ascii[r-0x20 : r-0x20+1]
	}
	text, _ := s.cellText(r)
	return text
}

// Highlighted returns the text of the visible screen's reverse-video runs, top to
// bottom, at most n, blanks around each trimmed and empty runs left out: the item
// a menu (curses, whiptail, dialog) or a list has selected, which its text alone
// does not show.
func (s *Screen) Highlighted(n int) []string {
	g := s.Grid(0)
	var out []string
	for _, row := range g.Rows {
		var run []string
		flush := func() {
			if text := strings.TrimSpace(strings.Join(run, "")); text != "" && len(out) < n {
				out = append(out, text)
			}
			run = run[:0]
		}
		for _, c := range row.Cells {
			if c.Attr.Style&Reverse == 0 {
				flush()
				continue
			}
			run = append(run, c.Text)
		}
		flush()
	}
	return out
}
