package screen

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
	"github.com/mattn/go-runewidth"
)

// vt10x gives every rune one cell. We make a double-width rune take two by following it
// with placeholder, and we fold combining marks into the previous cell by replacing its
// rune with a private-use rune that stands for the whole cluster. The private runes come
// from plane 16, which programs practically never print; if one does, it shows as U+FFFD.
const (
	clusterFirst = rune(0x100000)
	clusterLast  = rune(0x10FFFB)
	filler       = rune(0x10FFFC) // blank left in the last column when a wide rune wraps early
	placeholder  = rune(0x10FFFD) // second cell of a wide rune

	maxClusterBytes = 32 // a zalgo pile-up stops growing here
	maxClusters     = 16384
)

// widths is our own Condition so that no one else's setting of the package globals changes
// our cell layout. EastAsianWidth is off: ambiguous runes are one cell, as in xterm's
// default. StrictEmojiNeutral only selects the lookup table; with EastAsianWidth off the
// widths are the same.
var widths = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// RuneWidth is how many cells the screen gives r: the same table whatever the
// locale, so a reader measuring a row agrees with the layout.
func RuneWidth(r rune) int { return runeWidth(r) }

func runeWidth(r rune) int {
	if r < 0x7f {
		if r < 0x20 {
			return 0
		}
		return 1
	}
	return widths.RuneWidth(r)
}

// printer batches printable runes for vt10x. room is how many narrow runes can still be
// appended to pend before one of them would wrap (and maybe scroll a line off the screen).
type printer struct {
	pend []byte
	room int
	last lastPrint
}

type lastPrint struct {
	valid bool // the previous token was a printable, so marks may attach to it
	wide  bool
	r     rune // for REP
}

func (s *Screen) flushPrint() {
	if len(s.print.pend) > 0 {
		_, _ = s.vt.Write(s.print.pend)
		s.print.pend = s.print.pend[:0]
	}
	s.print.room = 0
}

func (s *Screen) printRune(r rune) {
	switch {
	case r >= clusterFirst:
		r = utf8.RuneError
	case r >= 0x80 && r < 0xa0: // C1 controls: not supported in UTF-8 mode
		return
	}
	switch runeWidth(r) {
	case 0:
		s.attachMark(r)
		return
	case 2:
		s.printWide(r)
		return
	}
	if s.print.room == 0 {
		s.flushPrint()
		s.print.room = s.prepareNarrow()
	}
	s.print.pend = utf8.AppendRune(s.print.pend, r)
	s.print.room--
	s.print.last.valid, s.print.last.wide, s.print.last.r = true, false, r
}

// prepareNarrow captures the top line if the next printable wraps at the bottom margin and
// returns how many narrow runes fit before the next wrap.
func (s *Screen) prepareNarrow() int {
	cur := s.vt.Cursor()
	if s.vt.Mode()&vt10x.ModeWrap == 0 {
		return math.MaxInt
	}
	if cur.State&vtCursorWrapNext == 0 {
		return s.cols - cur.X
	}
	if cur.Y == s.bottom {
		s.scrollOff(1, cur.Y)
	}
	return s.cols
}

// printWide prints a double-width rune over two cells. Like xterm, a wide rune that does
// not fit in the last column wraps first, leaving that column blank.
func (s *Screen) printWide(r rune) {
	s.flushPrint()
	if s.cols < 2 {
		s.printRune(utf8.RuneError)
		return
	}
	cur := s.vt.Cursor()
	if cur.X == s.cols-1 {
		if s.vt.Mode()&vt10x.ModeWrap == 0 {
			return // nowhere to put it; xterm drops it too
		}
		if cur.State&vtCursorWrapNext == 0 {
			s.seq = utf8.AppendRune(s.seq[:0], filler)
			_, _ = s.vt.Write(s.seq)
		}
		if cur.Y == s.bottom {
			s.scrollOff(1, cur.Y)
		}
	}
	s.seq = utf8.AppendRune(utf8.AppendRune(s.seq[:0], r), placeholder)
	_, _ = s.vt.Write(s.seq)
	s.print.last.valid, s.print.last.wide, s.print.last.r = true, true, r
}

// attachMark folds a zero-width rune (combining mark, ZWJ, variation selector) into the
// cell printed just before it, by reprinting that cell as a cluster rune in place.
func (s *Screen) attachMark(mark rune) {
	s.flushPrint()
	if !s.print.last.valid {
		return
	}
	cur := s.vt.Cursor()
	x := cur.X
	if cur.State&vtCursorWrapNext == 0 {
		x--
	}
	if s.print.last.wide {
		x--
	}
	if x < 0 {
		return
	}
	id, w, ok := s.cluster(s.vt.Cell(x, cur.Y).Char, mark)
	if !ok {
		return
	}
	// CHA moves without origin-mode offsets and clears the pending wrap; printing the
	// cell again leaves the cursor exactly where it was.
	s.seq = fmt.Appendf(s.seq[:0], "\x1b[%dG", x+1)
	s.seq = utf8.AppendRune(s.seq, id)
	if w == 2 {
		s.seq = utf8.AppendRune(s.seq, placeholder)
	}
	_, _ = s.vt.Write(s.seq)
}

// cluster returns the cluster rune for a cell's text followed by mark, and its width.
func (s *Screen) cluster(base, mark rune) (rune, int, bool) {
	text, w := s.cellText(base)
	if len(text)+utf8.RuneLen(mark) > maxClusterBytes {
		return 0, 0, false
	}
	id, ok := s.glyph.intern(text+string(mark), w)
	return id, w, ok
}

// clusters interns the text of multi-rune cells as private-use runes.
type clusters struct {
	ids   map[string]rune
	text  []string
	width []uint8
}

func (c *clusters) intern(text string, width int) (rune, bool) {
	if id, ok := c.ids[text]; ok {
		return id, true
	}
	if len(c.text) >= maxClusters {
		return 0, false
	}
	if c.ids == nil {
		c.ids = make(map[string]rune)
	}
	id := clusterFirst + rune(len(c.text))
	c.ids[text] = id
	c.text = append(c.text, text)
	c.width = append(c.width, uint8(width))
	return id, true
}

// cellText returns what a cell shows and how many cells that takes.
func (s *Screen) cellText(r rune) (string, int) {
	if r >= clusterFirst && r <= clusterLast {
		if i := int(r - clusterFirst); i < len(s.glyph.text) {
			return s.glyph.text[i], int(s.glyph.width[i])
		}
	}
	return string(s.appendCellText(nil, r)), s.cellWidth(r)
}

// appendCellText appends what a cell shows without allocating for a plain rune.
func (s *Screen) appendCellText(b []byte, r rune) []byte {
	switch {
	case r == 0:
		return append(b, ' ')
	case r >= clusterFirst && r <= clusterLast:
		if i := int(r - clusterFirst); i < len(s.glyph.text) {
			return append(b, s.glyph.text[i]...)
		}
		return append(b, ' ')
	}
	return utf8.AppendRune(b, r)
}

// cellWidth is how many cells what a cell shows takes.
func (s *Screen) cellWidth(r rune) int {
	switch {
	case r == 0:
		return 1
	case r >= clusterFirst && r <= clusterLast:
		if i := int(r - clusterFirst); i < len(s.glyph.width) {
			return int(s.glyph.width[i])
		}
		return 1
	}
	return max(runeWidth(r), 1)
}
