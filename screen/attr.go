package screen

import (
	"strconv"

	"github.com/hinshun/vt10x"
)

// Attr is how a cell is drawn: its colours and style, as set by SGR (CSI … m). The zero
// Attr is the terminal's default: default colours, no style.
//
// The colours are as the program set them: with Reverse, a renderer swaps them itself.
// Three things differ from what a program sent, as vt10x keeps colours: a bold cell's
// ANSI foreground (0-7) is its bright version (8-15); a 24-bit colour with neither red nor
// green has green 1; and a blank left by an erase while Reverse was on has its colours
// swapped already, so that drawn it shows the background, as terminals draw an erase.
type Attr struct {
	FG, BG Color
	Style  Style
}

// Style is a set of the text styles vt10x keeps. Dim, hidden and strike-through are not
// among them: vt10x ignores those SGRs, and so does the screen.
type Style uint8

const (
	Bold Style = 1 << iota
	Italic
	Underline
	Blink
	Reverse // foreground and background swapped: a renderer swaps them when it draws
)

// Color is a foreground or background colour. The zero Color is the terminal's default
// for whichever of the two it is.
type Color uint32

const (
	colorIndexed = 1 << 24
	colorRGB     = 2 << 24
)

// IndexedColor returns colour n of xterm's 256-colour palette: 0-7 the ANSI colours
// (SGR 30-37, 40-47), 8-15 their bright versions (SGR 90-97, 100-107), 16-255 the colour
// cube and the grey ramp (SGR 38;5;n, 48;5;n).
func IndexedColor(n uint8) Color { return Color(colorIndexed | uint32(n)) }

// RGBColor returns a 24-bit colour (SGR 38;2;r;g;b, 48;2;r;g;b).
func RGBColor(r, g, b uint8) Color {
	return Color(colorRGB | uint32(r)<<16 | uint32(g)<<8 | uint32(b))
}

// IsDefault reports whether c is the terminal's default colour.
func (c Color) IsDefault() bool { return c == 0 }

// Index returns the palette index of an indexed colour.
func (c Color) Index() (n uint8, ok bool) {
	return uint8(c), c&^0xff == colorIndexed
}

// RGB returns the components of a 24-bit colour.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	return uint8(c >> 16), uint8(c >> 8), uint8(c), c&^0xffffff == colorRGB
}

// vt10x keeps attributes in Glyph and Cursor.Attr with bits it does not export; these
// match its state.go.
const (
	vtAttrReverse   = 1 << 0
	vtAttrUnderline = 1 << 1
	vtAttrBold      = 1 << 2
	vtAttrGfx       = 1 << 3 // the line-drawing set is on: not a style, vt10x maps the runes
	vtAttrItalic    = 1 << 4
	vtAttrBlink     = 1 << 5
	vtAttrWrap      = 1 << 6 // this row soft-wraps onto the next

	vtCursorWrapNext = 1 << 1 // Cursor.State: the next printable wraps first
)

// styles pairs each Style with vt10x's bit and the SGR that sets it.
var styles = [...]struct {
	style Style
	bit   int16
	sgr   string
}{
	{Bold, vtAttrBold, ";1"},
	{Italic, vtAttrItalic, ";3"},
	{Underline, vtAttrUnderline, ";4"},
	{Blink, vtAttrBlink, ";5"},
	{Reverse, vtAttrReverse, ";7"},
}

// penOf reads vt10x's current attributes (Cursor.Attr), which are kept as SGR set them.
func penOf(g vt10x.Glyph) Attr {
	a := Attr{FG: colorOf(g.FG), BG: colorOf(g.BG)}
	for _, st := range styles {
		if g.Mode&st.bit != 0 {
			a.Style |= st.style
		}
	}
	return a
}

// colorOf reads a vt10x colour: palette indices below 256, true colours as r<<16|g<<8|b,
// and the defaults from 1<<24 up. A true colour with no red or green would read as a
// palette index, which is why rgb never makes one.
func colorOf(c vt10x.Color) Color {
	switch {
	case c >= 1<<24:
		return 0
	case c < 256:
		return IndexedColor(uint8(c))
	}
	return Color(colorRGB | uint32(c))
}

// vt10x stores a printed cell with its colours resolved for drawing — bold ANSI colours
// brightened unless reversed, reversed ones swapped — but an erased cell with the pen as
// it was. Read back, a printed cell has its pen's attributes with bold ANSI colours bright
// (printed); an erased one as erased says.

// cellAttr reads a cell's attributes.
func cellAttr(g vt10x.Glyph) Attr { return penOf(g).erased() }

// printed is how a cell printed with pen a reads back.
func (a Attr) printed() Attr { return a.brightBold() }

// erased is how a cell blanked by an erase with pen a reads back: reversed, its colours
// read swapped, so that drawn it shows the pen's own background, as a terminal with
// back-colour erase shows it.
func (a Attr) erased() Attr {
	if a.Style&Reverse != 0 {
		a.FG, a.BG = a.BG, a.FG
	}
	return a.brightBold()
}

// brightBold shows bold text in an ANSI colour (0-7) in its bright version, as vt10x does.
func (a Attr) brightBold() Attr {
	if n, ok := a.FG.Index(); ok && n < 8 && a.Style&Bold != 0 {
		a.FG = IndexedColor(n + 8)
	}
	return a
}

// appendSGR appends the SGR that gives vt10x exactly the attributes a, from any state.
func (a Attr) appendSGR(out []byte) []byte {
	out = append(out, "\x1b[0"...)
	for _, st := range styles {
		if a.Style&st.style != 0 {
			out = append(out, st.sgr...)
		}
	}
	out = appendColorSGR(out, 30, a.FG)
	out = appendColorSGR(out, 40, a.BG)
	return append(out, 'm')
}

// appendColorSGR appends the parameters that set c; base is 30 for the foreground, 40
// for the background.
func appendColorSGR(out []byte, base int, c Color) []byte {
	if c.IsDefault() {
		return out
	}
	out = append(out, ';')
	if n, ok := c.Index(); ok {
		switch {
		case n < 8:
			return strconv.AppendInt(out, int64(base+int(n)), 10)
		case n < 16:
			return strconv.AppendInt(out, int64(base+60+int(n)-8), 10)
		}
		out = strconv.AppendInt(out, int64(base+8), 10)
		return strconv.AppendInt(append(out, ";5;"...), int64(n), 10)
	}
	r, g, b, _ := c.RGB()
	out = strconv.AppendInt(out, int64(base+8), 10)
	out = append(out, ";2"...)
	for _, v := range [...]uint8{r, g, b} {
		out = strconv.AppendInt(append(out, ';'), int64(v), 10)
	}
	return out
}
