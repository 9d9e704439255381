package web

import (
	"testing"

	"github.com/mcp-terminal/mcp-terminal/screen"
)

func TestRuns(t *testing.T) {
	red := screen.Attr{FG: screen.IndexedColor(1)}
	rev := screen.Attr{Style: screen.Reverse | screen.Bold}
	cell := func(s string, a screen.Attr) screen.Cell { return screen.Cell{Text: s, Width: 1, Attr: a} }
	tests := []struct {
		name   string
		row    screen.Row
		cursor int
		want   []run
	}{
		{"plain", screen.Row{Cells: []screen.Cell{cell("a", screen.Attr{}), cell("b", screen.Attr{})}}, -1, []run{{"ab", "", "", ""}}},
		{"colour", screen.Row{Cells: []screen.Cell{cell("a", red), cell("b", red), cell("c", screen.Attr{})}}, -1,
			[]run{{"ab", "#cd0000", "", ""}, {"c", "", "", ""}}},
		{"reverse default", screen.Row{Cells: []screen.Cell{cell("x", rev)}}, -1, []run{{"x", "bg", "fg", "b"}}},
		{"cursor inside", screen.Row{Cells: []screen.Cell{cell("a", screen.Attr{}), cell("b", screen.Attr{}), cell("c", screen.Attr{})}}, 1,
			[]run{{"a", "", "", ""}, {"b", "", "", "c"}, {"c", "", "", ""}}},
		{"cursor past the end", screen.Row{}, 2, []run{{"  ", "", "", ""}, {" ", "", "", "c"}}},
		{"wide", screen.Row{Cells: []screen.Cell{{Text: "界", Width: 2}, {}}}, -1, []run{{"界", "", "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runs(tt.row, tt.cursor)
			if len(got) != len(tt.want) {
				t.Fatalf("runs = %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("run %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestXterm(t *testing.T) {
	for n, want := range map[uint8]string{1: "#cd0000", 12: "#5c5cff", 16: "#000000", 196: "#ff0000", 231: "#ffffff", 232: "#080808", 255: "#eeeeee"} {
		if got := css(screen.IndexedColor(n)); got != want {
			t.Errorf("colour %d = %s, want %s", n, got, want)
		}
	}
	if got := css(screen.RGBColor(1, 2, 3)); got != "#010203" {
		t.Errorf("rgb = %s", got)
	}
}
