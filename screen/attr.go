package screen

import (
	"strconv"

	"github.com/hinshun/vt10x"
)

// The flow keeps vt10x's current attributes in step with the output it does not send, so
// that the bulk step can leave vt10x with exactly the attributes it would have had: these
// mirror vt10x's setAttr (state.go) on the parameters sgrParams produces.

// vt10x's Glyph.Mode bits (state.go), unexported there.
const (
	vtAttrReverse   = 1 << 0
	vtAttrUnderline = 1 << 1
	vtAttrBold      = 1 << 2
	vtAttrGfx       = 1 << 3
	vtAttrItalic    = 1 << 4
	vtAttrBlink     = 1 << 5

	vtAttrSGR = vtAttrReverse | vtAttrUnderline | vtAttrBold | vtAttrItalic | vtAttrBlink
)

// applySGR returns g after vt10x has run SGR with these parameters; args is scratch.
func applySGR(g vt10x.Glyph, params []byte, args *[]int) vt10x.Glyph {
	a := (*args)[:0]
	v, digits := 0, 0
	for i := 0; i <= len(params); i++ {
		switch {
		case i < len(params) && params[i] >= '0' && params[i] <= '9':
			v, digits = v*10+int(params[i]-'0'), digits+1
			continue
		case digits == 0:
			i = len(params) // vt10x stops at the first parameter Atoi rejects
			continue
		}
		a = append(a, v)
		v, digits = 0, 0
	}
	*args = a
	if len(a) == 0 {
		a = []int{0}
	}
	for i := 0; i < len(a); i++ {
		i = applyAttr(&g, a, i)
	}
	return g
}

// applyAttr applies a[i] (and the arguments of an extended colour) and returns the index
// of the last parameter it used.
func applyAttr(g *vt10x.Glyph, a []int, i int) int {
	switch v := a[i]; {
	case v == 0:
		g.Mode &^= vtAttrSGR
		g.FG, g.BG = vt10x.DefaultFG, vt10x.DefaultBG
	case v == 38 || v == 48:
		c, j, ok := extendedColour(a, i)
		if ok && v == 38 {
			g.FG = c
		} else if ok {
			g.BG = c
		}
		return j
	case v == 39:
		g.FG = vt10x.DefaultFG
	case v == 49:
		g.BG = vt10x.DefaultBG
	case v >= 30 && v <= 37:
		g.FG = vt10x.Color(v - 30)
	case v >= 40 && v <= 47:
		g.BG = vt10x.Color(v - 40)
	case v >= 90 && v <= 97:
		g.FG = vt10x.Color(v - 90 + 8)
	case v >= 100 && v <= 107:
		g.BG = vt10x.Color(v - 100 + 8)
	default:
		set, clear := modeBits(v)
		g.Mode = g.Mode&^clear | set
	}
	return i
}

// extendedColour reads 38;5;n or 38;2;r;g;b (or 48) at a[i] the way vt10x does.
func extendedColour(a []int, i int) (vt10x.Color, int, bool) {
	between := func(v int) bool { return v >= 0 && v <= 255 }
	switch {
	case i+2 < len(a) && a[i+1] == 5:
		return vt10x.Color(a[i+2]), i + 2, between(a[i+2])
	case i+4 < len(a) && a[i+1] == 2:
		r, g, b := a[i+2], a[i+3], a[i+4]
		return vt10x.Color(r<<16 | g<<8 | b), i + 4, between(r) && between(g) && between(b)
	}
	return 0, i, false
}

// modeBits returns the Mode bits a plain attribute sets and clears.
func modeBits(v int) (set, clear int16) {
	switch v {
	case 1:
		return vtAttrBold, 0
	case 3:
		return vtAttrItalic, 0
	case 4:
		return vtAttrUnderline, 0
	case 5, 6:
		return vtAttrBlink, 0
	case 7:
		return vtAttrReverse, 0
	case 21, 22:
		return 0, vtAttrBold
	case 23:
		return 0, vtAttrItalic
	case 24:
		return 0, vtAttrUnderline
	case 25, 26:
		return 0, vtAttrBlink
	case 27:
		return 0, vtAttrReverse
	}
	return 0, 0
}

// appendAttrSGR appends an SGR that gives vt10x exactly the attributes g from any state
// with the line-drawing set off; false if no SGR can (a colour no sequence produces).
func appendAttrSGR(out []byte, g vt10x.Glyph) ([]byte, bool) {
	if g.Mode&^vtAttrSGR != 0 {
		return out, false
	}
	out = append(out, "\x1b[0"...)
	for _, m := range []struct {
		bit int16
		p   string
	}{{vtAttrBold, ";1"}, {vtAttrItalic, ";3"}, {vtAttrUnderline, ";4"}, {vtAttrBlink, ";5"}, {vtAttrReverse, ";7"}} {
		if g.Mode&m.bit != 0 {
			out = append(out, m.p...)
		}
	}
	out, okFG := appendColour(out, "38", g.FG, vt10x.DefaultFG)
	out, okBG := appendColour(out, "48", g.BG, vt10x.DefaultBG)
	return append(out, 'm'), okFG && okBG
}

func appendColour(out []byte, p string, c, def vt10x.Color) ([]byte, bool) {
	switch {
	case c == def:
		return out, true
	case c >= 1<<24:
		return out, false
	}
	out = append(append(append(out, ';'), p...), ";2"...)
	for _, v := range []vt10x.Color{c >> 16, c >> 8 & 0xff, c & 0xff} {
		out = strconv.AppendInt(append(out, ';'), int64(v), 10)
	}
	return out, true
}
