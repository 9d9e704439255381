package screen

// SGR is read here, into an Attr, and never by vt10x: it gets the result, written out in
// full by Attr.appendSGR. vt10x would misread the colon forms (38:2::r:g:b, 4:3), take the
// parameters of an extended colour it does not know (58;2;r;g;b, underline colour) for
// plain attributes, and stop at an empty parameter (CSI ; 1 m) where xterm reads a 0.

// withSGR returns a after an SGR with the parameters of c, as vt10x applies the ones it
// knows; the others change nothing.
func (a Attr) withSGR(c *csiSeq) Attr {
	if c.n == 0 {
		return Attr{}
	}
	for i := 0; i < c.n; i++ {
		a, i = a.withParam(c, i)
	}
	return a
}

// withParam applies parameter i and returns the index of the last parameter it used.
func (a Attr) withParam(c *csiSeq, i int) (Attr, int) {
	v := max(c.sub[i][0], 0)
	switch {
	case c.nsub[i] > 1: // colon form: 38:2::r:g:b, 38:5:n, 4:3
		return a.withColon(v, c.sub[i][1:c.nsub[i]]), i
	case v == 38 || v == 48 || v == 58:
		return a.withExtended(c, i)
	}
	return a.with(v), i
}

// withExtended handles 38;5;n and 38;2;r;g;b (and 48, 58). The parameters of an extended
// colour are consumed even when the colour is dropped, so they are never taken for
// attributes of their own.
func (a Attr) withExtended(c *csiSeq, i int) (Attr, int) {
	arg := func(k int) int {
		if i+k < c.n {
			return max(c.sub[i+k][0], 0)
		}
		return 0
	}
	v := c.sub[i][0]
	switch {
	case i+1 >= c.n:
		return a, i
	case c.sub[i+1][0] == 5:
		if i+2 < c.n && arg(2) <= 255 {
			a = a.withColor(v, IndexedColor(uint8(arg(2))))
		}
		return a, min(i+2, c.n-1)
	case c.sub[i+1][0] == 2:
		if r, g, b := arg(2), arg(3), arg(4); i+4 < c.n && r <= 255 && g <= 255 && b <= 255 {
			a = a.withColor(v, rgb(r, g, b))
		}
		return a, min(i+4, c.n-1)
	}
	return a, i
}

func (a Attr) withColon(v int, subs []int) Attr {
	at := func(k int) int {
		if k < len(subs) {
			return max(subs[k], 0)
		}
		return 0
	}
	switch {
	case v == 38 || v == 48:
		if at(0) == 5 && len(subs) >= 2 && at(1) <= 255 {
			return a.withColor(v, IndexedColor(uint8(at(1))))
		}
		if at(0) == 2 && len(subs) >= 4 {
			k := len(subs) - 3 // with or without the colour-space id
			if r, g, b := at(k), at(k+1), at(k+2); r <= 255 && g <= 255 && b <= 255 {
				return a.withColor(v, rgb(r, g, b))
			}
		}
		return a
	case v == 4 && at(0) == 0: // 4:0 is "no underline"
		return a.with(24)
	case v == 58: // underline colour: vt10x has none
		return a
	}
	return a.with(v)
}

// withColor sets the foreground (38) or background (48) colour; 58, the underline
// colour, vt10x does not keep.
func (a Attr) withColor(v int, c Color) Attr {
	switch v {
	case 38:
		a.FG = c
	case 48:
		a.BG = c
	}
	return a
}

// rgb is the colour for 38;2;r;g;b. vt10x keeps a true colour as r<<16|g<<8|b, where one
// with no red or green would read back as palette colour b; it gets green 1 instead, a
// difference no one can see.
func rgb(r, g, b int) Color {
	if r == 0 && g == 0 {
		g = 1
	}
	return RGBColor(uint8(r), uint8(g), uint8(b))
}

// with applies one plain parameter.
func (a Attr) with(v int) Attr {
	switch {
	case v == 0:
		return Attr{}
	case v >= 30 && v <= 37:
		a.FG = IndexedColor(uint8(v - 30))
	case v == 39:
		a.FG = 0
	case v >= 40 && v <= 47:
		a.BG = IndexedColor(uint8(v - 40))
	case v == 49:
		a.BG = 0
	case v >= 90 && v <= 97:
		a.FG = IndexedColor(uint8(v - 90 + 8))
	case v >= 100 && v <= 107:
		a.BG = IndexedColor(uint8(v - 100 + 8))
	default:
		set, clear := styleChange(v)
		a.Style = a.Style&^clear | set
	}
	return a
}

// styleChange returns the styles a plain parameter sets and clears.
func styleChange(v int) (set, clear Style) {
	switch v {
	case 1:
		return Bold, 0
	case 3:
		return Italic, 0
	case 4:
		return Underline, 0
	case 5, 6:
		return Blink, 0
	case 7:
		return Reverse, 0
	case 21, 22:
		return 0, Bold
	case 23:
		return 0, Italic
	case 24:
		return 0, Underline
	case 25, 26:
		return 0, Blink
	case 27:
		return 0, Reverse
	}
	return 0, 0
}
