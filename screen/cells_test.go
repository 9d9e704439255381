package screen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGrid(t *testing.T) {
	s := newScreen(t, 8, 3, 5)
	red, blue := Attr{FG: IndexedColor(1)}, Attr{BG: IndexedColor(4)}
	write(t, s, "\x1b[31mab\x1b[m\r\n", "\x1b[44m\x1b[K\x1b[m\r\n", "你e\u0301\x1b[4mx\x1b[m\r\n", "top\r\nmid\r\n\x1b[?25l$ ")
	g := s.Grid(10)
	if g.Scrollback != 3 || len(g.Rows) != 6 || g.First != 0 || g.Cols != 8 || g.Cursor != (Point{2, 2}) || g.CursorVisible {
		t.Fatalf("Grid(10): %d rows, %d from the scrollback, first %d, %d columns, cursor %+v visible %v",
			len(g.Rows), g.Scrollback, g.First, g.Cols, g.Cursor, g.CursorVisible)
	}
	blueRow := make([]Cell, 8)
	for i := range blueRow {
		blueRow[i] = Cell{Text: " ", Width: 1, Attr: blue}
	}
	want := []Row{
		{Cells: []Cell{{"a", 1, red}, {"b", 1, red}}},
		{Cells: blueRow},
		{Cells: []Cell{{"你", 2, Attr{}}, {"", 0, Attr{}}, {"e\u0301", 1, Attr{}}, {"x", 1, Attr{Style: Underline}}}},
		{Cells: []Cell{{"t", 1, Attr{}}, {"o", 1, Attr{}}, {"p", 1, Attr{}}}},
		{Cells: []Cell{{"m", 1, Attr{}}, {"i", 1, Attr{}}, {"d", 1, Attr{}}}},
		{Cells: []Cell{{"$", 1, Attr{}}}},
	}
	if diff := cmp.Diff(want, g.Rows); diff != "" {
		t.Errorf("Grid(10).Rows (-want +got):\n%s", diff)
	}
	if g := s.Grid(1); g.Scrollback != 1 || g.First != 2 || len(g.Rows) != 4 || !cmp.Equal(g.Rows[0], want[2]) {
		t.Errorf("Grid(1): first %d, %d rows, %d from the scrollback, row 0 %+v", g.First, len(g.Rows), g.Scrollback, g.Rows[0])
	}
}

func TestGridWrappedAndBrokenWide(t *testing.T) {
	s := newScreen(t, 4, 3, 5)
	// A wide rune that does not fit leaves a filler and wraps; one whose second half is
	// overwritten, or a second half whose rune is, is a blank.
	write(t, s, "abc你\r\n", "好\x1b[2Gx", "\x1b[2;1Hz\x1b[2;3Hw")
	want := []Row{
		{Cells: []Cell{{"a", 1, Attr{}}, {"b", 1, Attr{}}, {"c", 1, Attr{}}}, Wrapped: true},
		{Cells: []Cell{{"z", 1, Attr{}}, {" ", 1, Attr{}}, {"w", 1, Attr{}}}},
		{Cells: []Cell{{" ", 1, Attr{}}, {"x", 1, Attr{}}}},
	}
	if diff := cmp.Diff(want, s.Grid(0).Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestScrollbackCellsMatchScreen: a row reads the same, cell for cell and attributes
// included, before and after it scrolls into the scrollback — the slow way and in bulk.
func TestScrollbackCellsMatchScreen(t *testing.T) {
	var bulks uint64
	for seed := range uint64(500) {
		rng := rand.New(rand.NewPCG(seed, 0xce11))
		cols, rows := 1+rng.IntN(16), 1+rng.IntN(6)
		s := New(Options{Cols: cols, Rows: rows, Scrollback: 100})
		s.retry = int(seed % 2) // 0: the line feeds after the CUP take the bulk step
		var in strings.Builder
		for range 1 + rng.IntN(40) {
			in.WriteString(genRowPiece(rng, cols, rows))
		}
		in.WriteByte(0) // ends a truncated rune, which would print with the next write
		s.Write([]byte(in.String()))
		before := s.Grid(0).Rows
		s.Write([]byte(fmt.Sprintf("\x1b[%dH", rows) + strings.Repeat("\n", rows)))
		after := s.Grid(rows).Rows[:rows]
		if diff := cmp.Diff(before, after); diff != "" {
			t.Fatalf("%dx%d after %q: scrollback rows differ from the screen's (-screen +scrollback):\n%s", cols, rows, in.String(), diff)
		}
		bulks += s.bulks
	}
	if bulks < 100 {
		t.Errorf("%d bulk steps: the fast path was hardly tried", bulks)
	}
}

// genRowPiece is output that changes the rows but neither scrolls nor leaves the main
// screen.
func genRowPiece(rng *rand.Rand, cols, rows int) string {
	switch rng.IntN(12) {
	case 0:
		return pick(rng, sgrs)
	case 1:
		return genSGR(rng)
	case 2:
		return pick(rng, wideRunes)
	case 3:
		return pick(rng, marks)
	case 4:
		return pick(rng, oddRunes)
	case 5:
		return genRune(rng)
	case 6:
		return pick(rng, rowOps)
	case 7:
		return pick(rng, []string{"\r", "\t", "\b", "\x1b(0", "\x1b(B", "\x1b[2b", "\x1b#8"})
	case 8:
		return fmt.Sprintf("\x1b[%d;%dH", 1+rng.IntN(rows), 1+rng.IntN(cols))
	}
	return pick(rng, words)
}
