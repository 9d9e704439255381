package screen

import (
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// A flow lays out plain output — printable text, CR, LF, BS, TAB, the C0 controls that do
// nothing, SGR, EL, ECH and moves along the row — the way our printer and vt10x would, but
// on its own copy of the cursor row (runes and attributes) and without touching vt10x.
// Each row the cursor leaves is rendered as the scrollback would capture it, and
// remembered with where the input for the next row starts, so that the bulk step can send
// finished rows straight to the history and hand vt10x only the rows that stay on screen
// (fast.go).
//
// Rows are counted from the top of the screen when the flow starts: rows 0..rows-1 are the
// screen as vt10x has it, and every row from rows on is a fresh one that a scroll would
// have cleared.

type flowStop uint8

const (
	stopEnd     flowStop = iota // the input ran out on a token boundary
	stopPartial                 // the input ends inside a token
	stopOther                   // a token the flow does not handle
)

// rowOut is a row the cursor left. A flood writes one for every line, so it is kept small.
type rowOut struct {
	start, text, end int32 // flow.slab[start:end] is the row as histLine keeps it, the text up to text
	next             int32 // input offset of the token that starts the next row's part of the input
	nextX            int32 // the cursor column on entering the next row
	wrapped          bool  // it soft-wraps onto the next row
	pen              Attr  // the attributes then
}

type flow struct {
	s          *Screen
	cols, rows int
	crlf       bool // LNM: LF also returns to column 0
	tabs       bool // the tab stops are vt10x's default, one every 8 columns
	blank      bool // vt10x's screen is all blanks, as the bulk step leaves it

	x, y     int // y counts rows as above, so it passes rows-1 once the screen would scroll
	y0       int // the cursor row when the flow started
	wrapNext bool
	pen      Attr // the attributes SGR set, as vt10x would have them
	ink      Attr // pen.printed(): what a cell printed now reads back as
	last     lastPrint

	cells   []rune // the cursor's row, as vt10x would hold it
	attrs   []Attr // its attributes, as cellAttr reads them
	hi      int    // cells[hi:] are blank
	ahi     int    // attrs[ahi:] are the zero Attr
	wrapBit bool   // vt10x's soft-wrap flag on the row's last cell

	slab  []byte // the rows left, as histLine keeps them
	out   []rowOut
	segs  []seg // scratch for paintedLine
	sgr   sgrMemo
	lines uint64 // rows paintedLine laid out, for tests
	csi   csiSeq
	at    int // with output kept back: where in pend the layout stopped, to go on from
}

// start sets the flow to the state vt10x and the printer are in, or will be once the
// setup a bulk step left due is done.
func (f *flow) start(s *Screen) {
	f.s, f.cols, f.rows = s, s.cols, s.rows
	f.crlf = s.vt.Mode()&vt10x.ModeCRLF != 0
	f.tabs = !s.tabsCustom
	if s.setup.due {
		f.x, f.y, f.y0, f.wrapNext = s.setup.x, 0, 0, false
		f.setPen(s.setup.pen)
	} else {
		cur := s.vt.Cursor()
		f.x, f.y, f.y0 = cur.X, cur.Y, cur.Y
		f.wrapNext = cur.State&vtCursorWrapNext != 0
		f.setPen(penOf(cur.Attr))
	}
	f.last = s.print.last
	f.slab, f.out = f.slab[:0], f.out[:0]
	if cap(f.cells) < f.cols {
		f.cells, f.attrs = make([]rune, f.cols), make([]Attr, f.cols)
	}
	f.cells, f.attrs = f.cells[:f.cols], f.attrs[:f.cols]
	// With output kept back, vt10x holds (or will) the blank screen the bulk step left.
	f.blank = s.setup.due
	f.hi, f.ahi = f.cols, f.cols
	f.loadRow(f.y)
}

func (f *flow) setPen(a Attr) {
	f.pen, f.ink = a, a.printed()
}

func (f *flow) loadRow(y int) {
	if f.blank {
		f.clearRow()
		return
	}
	f.ahi = 0
	for x := range f.cells {
		g := f.s.vt.Cell(x, y)
		f.cells[x], f.attrs[x] = g.Char, cellAttr(g)
		if f.attrs[x] != (Attr{}) {
			f.ahi = x + 1
		}
	}
	f.hi = f.cols
	f.wrapBit = f.s.vt.Cell(f.cols-1, y).Mode&vtAttrWrap != 0
}

// clearRow makes the row a fresh one, as a scroll leaves it: vt10x's newline scrolls with
// the default attributes.
func (f *flow) clearRow() {
	for x := range f.cells[:f.hi] {
		f.cells[x] = ' '
	}
	if f.ahi > 0 { // most rows have no attributes to clear
		clear(f.attrs[:f.ahi])
	}
	f.hi, f.ahi, f.wrapBit = 0, 0, false
}

// paint gives cells x0..x1-1 the attributes a.
func (f *flow) paint(x0, x1 int, a Attr) {
	if a == (Attr{}) {
		if x0 >= f.ahi {
			return
		}
	} else {
		f.ahi = max(f.ahi, x1)
	}
	for x := x0; x < x1; x++ {
		f.attrs[x] = a
	}
}

// run lays out b from offset i up to the first token it does not handle, or to the end.
// At the start of a blank fresh row, it tries the whole line at once (flow_line.go).
func (f *flow) run(b []byte, i int) (int, flowStop) {
	skip := i - 1 // a whole line is not tried again up to where the last try stopped
	for i < len(b) {
		c := b[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			j := i + 1 + printable(b[i+1:])
			if f.x == 0 && f.hi == 0 && i > skip && j-i < f.cols && j+1 < len(b) && f.lineable() {
				if b[j] == '\r' && b[j+1] == '\n' && f.ink == (Attr{}) {
					f.plainLine(b[i:j], j+2)
					i = j + 2
					continue
				}
				if b[j] == 0x1b || b[j] == '\t' || b[j] == '\r' {
					n, ok := f.paintedLine(b, i)
					if ok {
						i = n
						continue
					}
					skip = n
				}
			}
			f.ascii(b[i:j], i)
			i = j
		case c >= 0x80:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				if !utf8.FullRune(b[i:]) {
					return i, stopPartial
				}
				return i, stopOther // invalid UTF-8: the parser has its own way with it
			}
			f.rune(r, i)
			i += n
		case c == 0x1b:
			if f.x == 0 && f.hi == 0 && i > skip && f.lineable() {
				n, ok := f.paintedLine(b, i)
				if ok {
					i = n
					continue
				}
				skip = n
			}
			n, stop := f.escape(b[i:])
			if n == 0 {
				return i, stop
			}
			i += n
		default:
			if !f.control(c, i+1) {
				return i, stopOther
			}
			i++
		}
	}
	return i, stopEnd
}

// control handles a C0 control (or DEL) as Screen.control and vt10x would.
func (f *flow) control(c byte, next int) bool {
	f.last.valid = false
	switch c {
	case '\n', '\v', '\f':
		x := f.x
		if f.crlf {
			x = 0
		}
		f.leave(next, x)
		f.x = x
	case '\r':
		f.x = 0
	case '\b':
		f.x = max(f.x-1, 0)
	case '\t':
		if !f.tabs {
			return false
		}
		f.x = min((f.x/8+1)*8, f.cols-1)
	default:
		return true // BEL, NUL, SO, SI, DEL and the rest do nothing
	}
	f.wrapNext = false // each of these is a moveTo in vt10x
	return true
}

// leave renders the cursor row and moves to the next one; next and nextX say where the
// input for the next row starts and in which column.
func (f *flow) leave(next, nextX int) {
	start := len(f.slab)
	if f.wrapBit {
		f.hi = f.cols // a wrapped row keeps its trailing blanks
	}
	f.slab = f.s.appendCells(f.slab, f.cells, f.hi)
	if !f.wrapBit {
		end := len(f.slab)
		for end > start && f.slab[end-1] == ' ' {
			end--
		}
		f.slab = f.slab[:end]
	}
	text := len(f.slab)
	if f.ahi > 0 {
		f.slab = appendRuns(f.slab, f.attrs[:f.ahi])
	}
	f.out = append(f.out, rowOut{int32(start), int32(text), int32(len(f.slab)), int32(next), int32(nextX), f.wrapBit, f.pen})
	f.y++
	if f.y < f.rows {
		f.loadRow(f.y)
		return
	}
	f.clearRow()
}

// rebase makes the row a bulk step put at the top row 0, and the input offset cut where
// it starts 0, so that the layout can go on with the output kept back: the rows left
// since are still on the screen, and a later bulk step needs them.
func (f *flow) rebase(top, cut int) {
	out := f.out[top-f.y0:]
	base := int32(len(f.slab))
	if len(out) > 0 {
		base = out[0].start
	}
	f.slab = f.slab[:copy(f.slab, f.slab[base:])]
	for i := range out {
		r := &out[i]
		r.start, r.text, r.end, r.next = r.start-base, r.text-base, r.end-base, r.next-int32(cut)
	}
	f.out = f.out[:copy(f.out, out)]
	f.y, f.y0 = f.y-top, 0
	f.blank = true // the rows below the cursor are the setup's blanks
}

// wrap moves to the next row because the printable at input offset next does not fit.
func (f *flow) wrap(next int) {
	f.wrapBit = true
	f.leave(next, 0)
	f.x, f.wrapNext = 0, false
}

// put sets one cell as vt10x's setChar would: a printed last cell loses the wrap flag.
func (f *flow) put(x int, r rune) {
	f.cells[x] = r
	f.paint(x, x+1, f.ink)
	f.hi = max(f.hi, x+1)
	if x == f.cols-1 {
		f.wrapBit = false
	}
}

// advance moves the cursor past n printed cells, stopping on the last column with a
// pending wrap as vt10x does.
func (f *flow) advance(n int) {
	f.x += n
	if f.x >= f.cols {
		f.x, f.wrapNext = f.cols-1, true
	}
}

func (f *flow) ascii(run []byte, off int) {
	f.last = lastPrint{valid: true, r: rune(run[len(run)-1])}
	for len(run) > 0 {
		if f.wrapNext {
			f.wrap(off)
		}
		n := min(len(run), f.cols-f.x)
		cells := f.cells[f.x : f.x+n]
		for i, c := range run[:n] {
			cells[i] = rune(c)
		}
		f.paint(f.x, f.x+n, f.ink)
		f.hi = max(f.hi, f.x+n)
		if f.x+n == f.cols {
			f.wrapBit = false
		}
		f.advance(n)
		run, off = run[n:], off+n
	}
}

// rune handles a decoded non-ASCII rune as printRune does.
func (f *flow) rune(r rune, off int) {
	switch {
	case r >= clusterFirst:
		r = utf8.RuneError
	case r < 0xa0: // C1 controls
		return
	}
	switch runeWidth(r) {
	case 0:
		f.attach(r)
	case 2:
		f.wide(r, off)
	default:
		f.narrow(r, off)
	}
}

func (f *flow) narrow(r rune, off int) {
	if f.wrapNext {
		f.wrap(off)
	}
	f.put(f.x, r)
	f.advance(1)
	f.last = lastPrint{valid: true, r: r}
}

// wide mirrors printWide: a wide rune that does not fit in the last column leaves a
// filler there and wraps.
func (f *flow) wide(r rune, off int) {
	if f.cols < 2 {
		f.narrow(utf8.RuneError, off)
		return
	}
	if f.x == f.cols-1 && !f.wrapNext {
		f.put(f.x, filler)
		f.wrapNext = true
	}
	if f.wrapNext {
		f.wrap(off)
	}
	f.put(f.x, r)
	f.put(f.x+1, placeholder)
	f.advance(2)
	f.last = lastPrint{valid: true, wide: true, r: r}
}

// attach mirrors attachMark on the flow's own row.
func (f *flow) attach(mark rune) {
	if !f.last.valid {
		return
	}
	x := f.x
	if !f.wrapNext {
		x--
	}
	if f.last.wide {
		x--
	}
	if x < 0 {
		return
	}
	id, w, ok := f.s.cluster(f.cells[x], mark)
	if !ok {
		return
	}
	f.put(x, id)
	if w == 2 {
		f.put(x+1, placeholder)
	}
}
