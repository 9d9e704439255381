package screen

// The control sequences a flow handles: those that act on the cursor row only. SGR is the
// one that matters (coloured output has one between most words); EL and ECH come with
// grep --color and progress lines; CHA, CUF and CUB move along the row.

// escape handles the sequence at the start of b, which starts with ESC, and returns its
// length; 0 with the reason when it cannot.
func (f *flow) escape(b []byte) (int, flowStop) {
	if len(b) < 2 {
		return 0, stopPartial
	}
	if b[1] != '[' {
		return 0, stopOther
	}
	for i := 2; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9' || c == ';' || c == ':':
			if i-2 >= maxCSIBytes { // the parser would drop the whole sequence
				return 0, stopOther
			}
		case c < 0x80 && flowFinals[c]:
			if !parseCSI(b[2:i], c, &f.csi) {
				return 0, stopOther
			}
			f.dispatch(&f.csi)
			return i + 1, stopEnd
		default:
			return 0, stopOther
		}
	}
	return 0, stopPartial
}

var flowFinals = [128]bool{'m': true, 'K': true, 'X': true, 'C': true, 'a': true, 'D': true, 'G': true, '`': true}

// dispatch does what csiPlain would have vt10x do, with the same clamping.
func (f *flow) dispatch(c *csiSeq) {
	f.last.valid = false
	switch c.final {
	case 'm':
		f.setPen(f.pen.withSGR(c))
		return
	case 'K':
		switch max(c.param(0, 0), 0) {
		case 0:
			f.erase(f.x, f.cols-1)
		case 1:
			f.erase(0, f.x)
		case 2:
			f.erase(0, f.cols-1)
		}
		return
	}
	n := min(c.param(0, 1), max(f.cols, f.rows))
	switch c.final {
	case 'X':
		f.erase(f.x, f.x+n-1)
		return
	case 'C', 'a':
		f.x += n
	case 'D':
		f.x -= n
	case 'G', '`':
		f.x = n - 1
	}
	f.x, f.wrapNext = clampInt(f.x, 0, f.cols-1), false
}

// erase blanks cells x0..x1 of the row as vt10x's clear does, with the pen's attributes
// and the wrap flag included.
func (f *flow) erase(x0, x1 int) {
	x1 = min(x1, f.cols-1)
	for x := x0; x <= x1; x++ {
		f.cells[x] = ' '
	}
	f.paint(x0, x1+1, f.pen.erased())
	if x1 == f.cols-1 {
		f.hi = min(f.hi, x0)
		f.wrapBit = false
	}
}
