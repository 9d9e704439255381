package screen

import (
	"bytes"
	"strconv"

	"github.com/hinshun/vt10x"
)

// vt10x costs about 100 ns a rune, and a line that scrolls off costs a capture on top, so
// a flood of output would pin a core. Most of a flood scrolls off before anyone can look
// at it, and that part never needs to reach vt10x: the flow lays it out and the bulk step
// sends the rows straight to the history. What stays on screen is kept back in pend, from
// the start of the row that ends up at the top, and handed to vt10x the ordinary way —
// which is exact by construction — only when something looks at the screen or output
// arrives that the flow does not handle (flushPend). While pend holds bytes, the next Write
// lays them out again with the new output, so a steady flood reaches vt10x not at all.
//
// The bulk step needs the screen to scroll by whole rows into the history: main screen,
// full-screen scroll region, autowrap on, insert mode off, line-drawing set off, and the
// parser between tokens. It runs only when at least a screenful of new rows scrolls in,
// so every row left on screen was cleared by a scroll and holds only output from pend.

// defaultRetry is how many bytes go the slow way after the flow stopped without a bulk
// step, so that output mixing plain text with other sequences is not laid out twice.
const defaultRetry = 256

// maxFlow bounds the output laid out at once: what the PTY read loop hands over at a time.
const maxFlow = 32 << 10

// fastReady reports whether Write may hand output to the flow.
func (s *Screen) fastReady() bool {
	switch {
	case len(s.pend) > 0 || s.setup.due:
		return true // output is only kept back in a state where this held
	case s.slowOnly, s.p.state != stGround, s.p.u8need != 0:
		return false
	case s.top != 0 || s.bottom != s.rows-1:
		return false
	}
	mode := s.vt.Mode()
	if mode&(vt10x.ModeAltScreen|vt10x.ModeInsert) != 0 || mode&vt10x.ModeWrap == 0 {
		return false
	}
	return s.vt.Cursor().Attr.Mode&vtAttrGfx == 0
}

// writeFast lays out p after pend and, when enough of it scrolls off, does the bulk step.
// It returns the part of p that starts with a token the flow does not handle.
//
// With output kept back, the flow goes on from where its last layout stopped instead of
// laying pend out again: a flood comes in reads of a few KiB, each about as long as a
// screenful kept back. That layout is the one pend would get from the setup anyway, as
// the flow was rebased on the row the bulk step put at the top.
func (s *Screen) writeFast(p []byte) []byte {
	s.flushPrint()
	f := &s.flow
	in, old, at := p, 0, 0
	if s.setup.due {
		old = len(s.pend)
		s.pend = append(s.pend, p...)
		in, at = s.pend, f.at
		s.flowsOn++
	} else {
		f.start(s)
	}
	n, stop := f.run(in, at)
	from := 0
	if top, cut, ok := s.bulk(f); ok {
		if stop != stopOther {
			s.pend = append(s.pend[:0], in[cut:]...)
			f.rebase(top, cut)
			f.at = n - cut
			return nil
		}
		from = cut
	} else if stop != stopOther && f.blank && len(in) <= maxFlow {
		// Nothing scrolled yet on the blank screen the setup leaves: keep it all back.
		s.pend, f.at = append(s.pend[:0], in...), n
		return nil
	} else if stop == stopOther {
		s.backoff = s.retry
	}
	// Too little scrolled, or the output goes on with something the flow does not handle:
	// vt10x gets these bytes the ordinary way.
	if stop != stopOther {
		n = len(in)
	}
	s.applySetup()
	s.replay(in[from:n])
	if n < old { // a token kept back from the last Write that turned out not to be plain
		s.replay(in[n:old])
	}
	s.pend = s.pend[:0]
	if stop != stopOther {
		return nil
	}
	return p[max(n-old, 0):]
}

// worthFlow reports whether p could scroll a screenful, which a bulk step on vt10x's own
// screen needs: every row takes a line feed or a row's worth of text. With output kept
// back, any p is: the flow goes on with it where it stopped.
func (s *Screen) worthFlow(p []byte) bool {
	return s.setup.due || len(p) >= s.rows*s.cols || bytes.Count(p, newline) >= s.rows
}

var newline = []byte{'\n'}

// writeSlow feeds p byte by byte until the flow could take over again. Whether it could
// changes only with a sequence (modes, scroll region, charset), so it is asked after
// the first token, after each sequence and when the backoff runs out.
func (s *Screen) writeSlow(p []byte) []byte {
	s.flushPend()
	check := true
	for i, b := range p {
		inSeq := s.p.state != stGround
		s.feed(b)
		if s.backoff > 0 {
			s.backoff--
			check = check || s.backoff == 0
		}
		check = check || inSeq && s.p.state == stGround
		if check && s.backoff == 0 && s.p.state == stGround && s.p.u8need == 0 && len(p)-i-1 >= s.rows {
			if s.fastReady() {
				return p[i+1:]
			}
			check = false
		}
	}
	return nil
}

// flushPend hands vt10x the output kept back in pend.
func (s *Screen) flushPend() {
	s.applySetup()
	if len(s.pend) > 0 {
		s.replay(s.pend)
		s.pend = s.pend[:0]
	}
}

func (s *Screen) replay(b []byte) {
	for _, c := range b {
		s.feed(c)
	}
	s.flushPrint()
}

// bulk sends the rows the flow saw scroll off to the history and notes how vt10x must be
// set up for the rest, from the start of the row that ends up at the top. It returns that
// row and where in the input it starts; false if too little scrolled.
//
// On vt10x's own screen, a screenful must have scrolled, so that every row left on it
// was cleared by a scroll and holds only output from pend. On the blank screen a setup
// leaves, every row already does, and any scroll will do.
func (s *Screen) bulk(f *flow) (top, cut int, ok bool) {
	top = f.y - (s.rows - 1) // the row that ends up at the top of the screen
	if top < 1 || !f.blank && top < s.rows {
		return 0, 0, false
	}
	row := f.out[top-1-f.y0]
	s.pushRows(f, top)
	s.setup = setup{due: true, pen: row.pen, x: int(row.nextX)}
	s.bulks++
	s.print.last.valid = false
	return top, int(row.next), true
}

// pushRows records rows 0..top-1 as scrolled off, as scrollOff would have one by one.
func (s *Screen) pushRows(f *flow, top int) {
	s.lineBase += int64(top)
	if s.hist.max <= 0 {
		return
	}
	first := max(top-s.hist.max, 0) // older rows would only push each other out
	for y := first; y < f.y0; y++ {
		s.hist.push(s.captureRow(y, false))
	}
	out := f.out[max(first-f.y0, 0) : top-f.y0]
	if len(out) == 0 {
		return
	}
	// One string for all the rows, their text and attributes, which the lines share.
	slab := string(f.slab[out[0].start:out[len(out)-1].end])
	base := out[0].start
	for _, r := range out {
		s.hist.push(histLine{b: slab[r.start-base : r.end-base], n: r.text - r.start, wrapped: r.wrapped})
		if r.end > r.text {
			s.bulkStyled++
		}
	}
}

// setup is what a bulk step leaves vt10x to do before it gets the output kept back: a
// screen of blanks as scrolls leave them (vt10x's newline scrolls with the default
// attributes), the attributes current when the top row began, and the cursor where that
// row's output starts. It waits until someone looks or the flow stops, so a flood's bulk
// steps, one a PTY read, do not blank vt10x's screen once each; only the last one counts.
type setup struct {
	due bool
	pen Attr
	x   int // the cursor column on the top row
}

// flowStatus is the Status while a bulk step's setup is due. Then the flow's last
// layout, rebased on the top row, holds what vt10x will once it has the output kept
// back: the cursor's row and column and its row of cells. Modes and counters are
// not the flow's to change, so vt10x and the screen have them already.
func (s *Screen) flowStatus() Status {
	f := &s.flow
	s.rowText = s.appendCells(s.rowText[:0], f.cells, s.cols)
	st := s.statusAt(Point{Row: f.y, Col: f.x}, f.wrapNext, string(s.rowText))
	// The rows above the cursor's that wrap onto it: with output kept back, the
	// flow laid out every row on the screen.
	first := len(f.out)
	for first > 0 && len(f.out)-first < f.y && f.out[first-1].wrapped {
		first--
	}
	if s.promptStarts(s.lineBase + int64(f.y)) {
		first = len(f.out) // a prompt starts the row (wrappedInto)
	}
	for _, r := range f.out[first:] {
		st.WrappedIn += string(f.slab[r.start:r.text])
	}
	return st
}

// applySetup does the setup a bulk step left due.
func (s *Screen) applySetup() {
	if !s.setup.due {
		return
	}
	s.setup.due = false
	out := s.seq[:0]
	if penOf(s.vt.Cursor().Attr) != (Attr{}) {
		out = append(out, "\x1b[0m"...)
	}
	out = append(out, "\x1b[2J"...)
	if s.setup.pen != (Attr{}) {
		out = s.setup.pen.appendSGR(out)
	}
	out = appendCUP(out, 1, s.setup.x+1)
	s.seq = out
	_, _ = s.vt.Write(out)
}

func appendCUP(out []byte, row, col int) []byte {
	if row == 1 && col == 1 {
		return append(out, "\x1b[H"...)
	}
	out = strconv.AppendInt(append(out, "\x1b["...), int64(row), 10)
	out = strconv.AppendInt(append(out, ';'), int64(col), 10)
	return append(out, 'H')
}
