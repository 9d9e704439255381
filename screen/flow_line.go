package screen

// Most of a flood is whole lines, each printed from the start of a fresh row and ended by
// CR LF: `seq`, logs, and the coloured output of ls, grep, compilers and test runners,
// with an SGR between most words. Such a line needs none of the row's cells: what the row
// would read as is its text, and its attributes are one run per change of ink. The flow
// lays it out in one step (plainLine, paintedLine) when that is all it can be, and leaves
// anything else — a line that wraps, a wide rune, a move — to the cell by cell layout,
// which is what a line that fails a condition partway falls back to, from its start.
//
// Either step is taken only at the start of a blank fresh row that nothing paints, with
// the row after it fresh as well (lineable: the screen is scrolling), for a line shorter
// than the row ended by CR LF. Then the row left is the text, right-trimmed, with the
// attributes its runs of ink gave it, and the row after it is as blank as this one was.

// seg is cells up to end (from the previous seg's end, or column 0) printed with one ink.
type seg struct {
	end int
	a   Attr
}

// printable returns how many bytes at the start of b are printable ASCII.
func printable(b []byte) int {
	for i, c := range b {
		if c-0x20 >= 0x7f-0x20 {
			return i
		}
	}
	return len(b)
}

// plainLine lays out a line of printable text alone in the default ink, the lines of
// `seq` and most logs: the row is the text, right-trimmed, with no attributes; next is
// where the next line starts.
func (f *flow) plainLine(text []byte, next int) {
	start := len(f.slab)
	f.slab = append(f.slab, text...)
	end := len(f.slab)
	for end > start && f.slab[end-1] == ' ' {
		end--
	}
	f.slab = f.slab[:end]
	f.out = append(f.out, rowOut{int32(start), int32(end), int32(end), int32(next), 0, false, f.pen})
	f.y++
	f.last.valid = false // CR and LF came last
}

// paintedLine lays out, from b[i], a line of printable ASCII in any ink, SGR (digits and
// semicolons only), EL 0 and tabs. It returns where the next line starts and true; or
// false, with where it found something it does not take, having changed nothing.
func (f *flow) paintedLine(b []byte, i int) (int, bool) {
	start := len(f.slab)
	pen, ink := f.pen, f.ink
	segs := f.segs[:0]
	x := 0
	var tail Attr // the cells from x on: blank, and painted by an erase if it is not zero
	j := i
	for j < len(b) {
		c := b[j]
		switch {
		case c >= 0x20 && c < 0x7f:
			k := j + 1 + printable(b[j+1:])
			if x += k - j; x >= f.cols {
				return f.lineFail(start, segs, j)
			}
			f.slab = append(f.slab, b[j:k]...)
			segs = addSeg(segs, x, ink)
			j = k
		case c == 0x1b:
			n, final := f.lineCSI(b[j:], &pen)
			switch final {
			case 'm':
				ink = pen.printed()
			case 'K':
				tail = pen.erased()
			default:
				return f.lineFail(start, segs, j)
			}
			j += n
		case c == '\t' && f.tabs:
			// A tab moves over blank cells: they keep the attributes of the rest of the row.
			to := min((x/8+1)*8, f.cols-1)
			for range to - x {
				f.slab = append(f.slab, ' ')
			}
			if x < to {
				segs = addSeg(segs, to, tail)
			}
			x = to
			j++
		case c == '\r' && j+1 < len(b) && b[j+1] == '\n':
			f.endLine(start, segs, tail, pen, ink, j+2)
			return j + 2, true
		default:
			return f.lineFail(start, segs, j)
		}
	}
	return f.lineFail(start, segs, j)
}

// addSeg extends segs with cells up to end in a, merged with the last seg if that has a too.
func addSeg(segs []seg, end int, a Attr) []seg {
	if n := len(segs); n > 0 && segs[n-1].a == a {
		segs[n-1].end = end
		return segs
	}
	return append(segs, seg{end, a})
}

// lineFail undoes what paintedLine appended and returns where it stopped.
func (f *flow) lineFail(start int, segs []seg, j int) (int, bool) {
	f.slab, f.segs = f.slab[:start], segs
	return j, false
}

// lineCSI reads the SGR or EL 0 at the start of b (which starts with ESC) as the flow's
// escape and dispatch would, SGR into pen; it returns the sequence's length and its final
// byte, or 0 for anything else, which paintedLine leaves to the cell by cell layout.
func (f *flow) lineCSI(b []byte, pen *Attr) (int, byte) {
	if len(b) < 3 || b[1] != '[' {
		return 0, 0
	}
	k, key := 2, uint64(0)
	for k < len(b) && (b[k] >= '0' && b[k] <= '9' || b[k] == ';') {
		key = key<<8 | uint64(b[k])
		k++
	}
	if k == len(b) || k-2 > maxCSIBytes {
		return 0, 0
	}
	raw := b[2:k]
	switch b[k] {
	case 'm':
		if len(raw) > 8 {
			key = 0 // not a key: only the empty parameters, which are not remembered, have 0
		}
		out, ok := f.sgr.apply(raw, key, *pen, &f.csi)
		if !ok {
			return 0, 0
		}
		*pen = out
	case 'K':
		if len(raw) > 1 || len(raw) == 1 && raw[0] != '0' {
			return 0, 0 // EL 1 and 2 erase what is printed already
		}
	default:
		return 0, 0
	}
	return k + 1, b[k]
}

// sgrMemo remembers what the last SGRs did to the pen they found: a flood of coloured
// output repeats a few sequences in a few pens, and looking one up is cheaper than reading
// and applying it. An SGR's effect depends on nothing but its parameters and the pen.
type sgrMemo [256]struct {
	key      uint64 // the parameters, up to 8 bytes, one a byte; 0: none remembered here
	pen, out Attr
}

// apply returns pen after an SGR with the parameters raw, whose bytes key holds (0 if
// they do not fit); false if parseSGR does not take them.
func (m *sgrMemo) apply(raw []byte, key uint64, pen Attr, c *csiSeq) (Attr, bool) {
	if key == '0' || len(raw) == 0 {
		return Attr{}, true // the reset, between most words: no need to look
	}
	e := &m[(key^uint64(pen.FG)*0x9e3779b9^uint64(pen.BG)<<32^uint64(pen.Style)<<24)*0x9e3779b97f4a7c15>>56]
	if key != 0 && e.key == key && e.pen == pen {
		return e.out, true
	}
	if !parseSGR(raw, c) {
		return pen, false
	}
	out := pen.withSGR(c)
	if key != 0 {
		e.key, e.pen, e.out = key, pen, out
	}
	return out, true
}

// parseSGR is parseCSI for parameters of digits and semicolons alone, the form of almost
// every SGR, with the final byte 'm': the same parameters, missing ones -1, each
// saturated at maxParam. False when there are more than maxParams, which parseCSI keeps
// in its own way.
func parseSGR(raw []byte, c *csiSeq) bool {
	c.prefix, c.inter, c.final, c.n = 0, 0, 'm', 0
	if len(raw) == 0 {
		return true
	}
	n, v := 0, -1
	for _, d := range raw {
		if d == ';' {
			if n == maxParams-1 {
				return false
			}
			c.sub[n][0], c.nsub[n] = v, 1
			n, v = n+1, -1
			continue
		}
		v = min(max(v, 0)*10+int(d-'0'), maxParam)
	}
	c.sub[n][0], c.nsub[n] = v, 1
	c.n = n + 1
	return true
}

// lineable reports whether the cursor is where a whole line can start: at the start
// of a blank fresh row, with the row after it fresh too.
func (f *flow) lineable() bool {
	return f.x == 0 && !f.wrapNext && f.hi == 0 && f.ahi == 0 && !f.wrapBit && f.y >= f.rows-1
}

// endLine records the row paintedLine laid out: its text from slab[start:], right-trimmed, and
// the runs of segs and then of tail up to the row's end, the last left out if it is the
// zero Attr (appendRuns' encoding).
func (f *flow) endLine(start int, segs []seg, tail, pen, ink Attr, next int) {
	end := len(f.slab)
	for end > start && f.slab[end-1] == ' ' {
		end--
	}
	f.slab = f.slab[:end]
	segs = addSeg(segs, f.cols, tail)
	if n := len(segs); n > 0 && segs[n-1].a == (Attr{}) {
		segs = segs[:n-1]
	}
	for _, s := range segs {
		f.slab = appendRun(f.slab, s.end, s.a)
	}
	f.segs = segs
	f.out = append(f.out, rowOut{int32(start), int32(end), int32(len(f.slab)), int32(next), 0, false, pen})
	f.pen, f.ink = pen, ink
	f.y++
	f.lines++
	f.last.valid = false // CR and LF came last
}
