package screen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hinshun/vt10x"
)

// TestSGRMatchesVT10x holds the screen's reading of SGR to vt10x's own, for the forms
// vt10x reads right (semicolons, no empty parameters, no underline colour): a plain
// vt10x and the screen, fed the same SGRs and text, must store the same cells and pen.
func TestSGRMatchesVT10x(t *testing.T) {
	for seed := range uint64(2000) {
		rng := rand.New(rand.NewPCG(seed, 0x5612))
		var in strings.Builder
		for i := range 1 + rng.IntN(6) {
			in.WriteString(genPlainSGR(rng))
			in.WriteByte(byte('A' + i))
		}
		ref := vt10x.New(vt10x.WithSize(20, 2))
		_, _ = ref.Write([]byte(in.String()))
		s := New(Options{Cols: 20, Rows: 2})
		s.Write([]byte(in.String()))
		for x := range 6 {
			if got, want := s.vt.Cell(x, 0), ref.Cell(x, 0); got != want {
				t.Fatalf("%q: cell %d is %+v, vt10x has %+v", in.String(), x, got, want)
			}
		}
		if got, want := s.vt.Cursor().Attr, ref.Cursor().Attr; got != want {
			t.Fatalf("%q: pen is %+v, vt10x has %+v", in.String(), got, want)
		}
	}
}

// genPlainSGR is an SGR vt10x reads as xterm does: attributes, colours and extended
// colours, with an unfinished one only at the end and not started with 5 or 2 (which the
// screen, like xterm, takes as part of it, where vt10x reads blink or nothing), and no 58
// (underline colour, whose parameters vt10x would read as attributes). It stays shorter
// than maxCSIBytes, beyond which the screen drops a sequence.
func genPlainSGR(rng *rand.Rand) string {
	var p []string
	for range rng.IntN(7) {
		if len(strings.Join(p, ";")) > maxCSIBytes-24 {
			break
		}
		switch r := rng.IntN(10); {
		case r < 5:
			v := rng.IntN(110)
			if v == 38 || v == 48 || v == 58 {
				v = 1
			}
			p = append(p, fmt.Sprint(v))
		case r < 7:
			p = append(p, fmt.Sprintf("%d;5;%d", 38+10*rng.IntN(2), rng.IntN(300)))
		default:
			// r and g not both 0: vt10x would take that for a palette index (see rgb).
			p = append(p, fmt.Sprintf("%d;2;%d;%d;%d", 38+10*rng.IntN(2), 1+rng.IntN(280), rng.IntN(256), rng.IntN(256)))
		}
	}
	if rng.IntN(8) == 0 {
		p = append(p, pick(rng, []string{"38", "48", "38;7", "48;1"}))
	}
	return "\x1b[" + strings.Join(p, ";") + "m"
}

// TestAttrSGR: the SGR an Attr writes gives vt10x exactly that pen, from any pen.
func TestAttrSGR(t *testing.T) {
	colors := []Color{0, IndexedColor(0), IndexedColor(7), IndexedColor(8), IndexedColor(15),
		IndexedColor(16), IndexedColor(255), RGBColor(0, 1, 0), RGBColor(255, 255, 255), RGBColor(1, 0, 0)}
	rng := rand.New(rand.NewPCG(1, 2))
	from := Attr{}
	for range 500 {
		a := Attr{FG: colors[rng.IntN(len(colors))], BG: colors[rng.IntN(len(colors))], Style: Style(rng.IntN(32))}
		vt := vt10x.New()
		_, _ = vt.Write(from.appendSGR(nil))
		_, _ = vt.Write(a.appendSGR(nil))
		if got := penOf(vt.Cursor().Attr); got != a {
			t.Fatalf("after %q then %q the pen is %+v, want %+v", from.appendSGR(nil), a.appendSGR(nil), got, a)
		}
		from = a
	}
}

func TestColor(t *testing.T) {
	tests := []struct {
		c       Color
		def     bool
		index   int // -1: not indexed
		r, g, b int // -1: not RGB
	}{
		{0, true, -1, -1, -1, -1},
		{IndexedColor(0), false, 0, -1, -1, -1},
		{IndexedColor(255), false, 255, -1, -1, -1},
		{RGBColor(0, 0, 0), false, -1, 0, 0, 0},
		{RGBColor(1, 2, 3), false, -1, 1, 2, 3},
	}
	for _, tt := range tests {
		n, isIndex := tt.c.Index()
		r, g, b, isRGB := tt.c.RGB()
		if tt.c.IsDefault() != tt.def || isIndex != (tt.index >= 0) || isIndex && int(n) != tt.index ||
			isRGB != (tt.r >= 0) || isRGB && (int(r) != tt.r || int(g) != tt.g || int(b) != tt.b) {
			t.Errorf("%#x: default %v, index %d %v, rgb %d %d %d %v", uint32(tt.c), tt.c.IsDefault(), n, isIndex, r, g, b, isRGB)
		}
	}
}

// TestCellAttrs: what the cells read back after SGRs vt10x misreads or lacks, bold and
// reverse, erases and the alternate screen.
func TestCellAttrs(t *testing.T) {
	red, green := IndexedColor(1), IndexedColor(2)
	tests := []struct {
		name string
		in   string
		want []Attr // cells 0.. of row 0
	}{
		{"ansi and bright", "\x1b[31;42mA\x1b[91;102mB\x1b[39mC\x1b[49mD",
			[]Attr{{FG: red, BG: green}, {FG: IndexedColor(9), BG: IndexedColor(10)}, {BG: IndexedColor(10)}, {}}},
		{"256 and true colour", "\x1b[38;5;208;48;2;10;20;30mA\x1b[38:2::1:2:3;48:5:17mB\x1b[38:2:4:5:6mC",
			[]Attr{{FG: IndexedColor(208), BG: RGBColor(10, 20, 30)}, {FG: RGBColor(1, 2, 3), BG: IndexedColor(17)},
				{FG: RGBColor(4, 5, 6), BG: IndexedColor(17)}}},
		{"true colour without red or green", "\x1b[38;2;0;0;5mA",
			[]Attr{{FG: RGBColor(0, 1, 5)}}},
		{"styles on and off", "\x1b[1;3;4;5;7mA\x1b[22;23mB\x1b[24;25;27mC\x1b[6mD\x1b[21;26mE",
			[]Attr{{Style: Bold | Italic | Underline | Blink | Reverse}, {Style: Underline | Blink | Reverse}, {}, {Style: Blink}, {}}},
		{"bold ansi colours read bright", "\x1b[1;31mA\x1b[7mB\x1b[38;5;1mC\x1b[22mD",
			[]Attr{{FG: IndexedColor(9), Style: Bold}, {FG: IndexedColor(9), Style: Bold | Reverse},
				{FG: IndexedColor(9), Style: Bold | Reverse}, {FG: red, Style: Reverse}}},
		{"reverse keeps colours as set", "\x1b[7;31;42mA", []Attr{{FG: red, BG: green, Style: Reverse}}},
		{"empty parameter is 0", "\x1b[31m\x1b[;1mA", []Attr{{Style: Bold}}},
		{"underline colour dropped whole", "\x1b[58;2;1;2;3mA\x1b[58;5;1;7mB\x1b[58:2::1:2:3mC",
			[]Attr{{}, {Style: Reverse}, {Style: Reverse}}},
		{"curly underline, 4:0", "\x1b[4:3mA\x1b[4:0mB", []Attr{{Style: Underline}, {}}},
		{"colour parameters are not attributes", "\x1b[38;5;1;1mA\x1b[0;38;5;300mB\x1b[38;2;300;1;1;4mC",
			[]Attr{{FG: IndexedColor(9), Style: Bold}, {}, {Style: Underline}}},
		{"modifyOtherKeys is not SGR", "\x1b[32mA\x1b[>4;1mB\x1b[>4mC", []Attr{{FG: green}, {FG: green}, {FG: green}}},
		{"erase takes the pen's background", "AB\x1b[41m\x1b[1D\x1b[K", []Attr{{}, {BG: red}, {BG: red}}},
		{"reversed erase", "\x1b[7;32m\x1b[K", []Attr{{BG: green, Style: Reverse}}},
		{"alternate screen starts blank", "\x1b[?47h", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t, 6, 2, 0)
			write(t, s, tt.in)
			row := s.Grid(0).Rows[0].Cells
			var got []Attr
			for _, c := range row[:min(len(tt.want), len(row))] {
				got = append(got, c.Attr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("attributes (-want +got):\n%s", diff)
			}
			if tt.want == nil && len(row) != 0 {
				t.Errorf("row 0 = %+v, want blank", row)
			}
		})
	}
}
