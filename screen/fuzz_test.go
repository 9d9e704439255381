package screen

import (
	"strings"
	"testing"
)

// FuzzWrite feeds arbitrary bytes in arbitrary pieces, with resizes in between, and checks
// the invariants the rest of the program relies on.
func FuzzWrite(f *testing.F) {
	f.Add([]byte("hello\r\nworld"), []byte{3, 200, 5})
	f.Add([]byte("你好世界😀e\u0301\x1b[?1049h\x1b[999999999;999999999Habc"), []byte{1, 1, 1, 0x90})
	f.Add([]byte("\x1b[1;3r\x1b[3;1H\n\n\n\x1bD\x1bE\x1b[5S\x1b[?u\x1b[>4;1m"), []byte{2, 0xff, 7})
	f.Add([]byte("\x1b]0;title\x07\x1b]133;A\x1b\\\x1bP+q544e\x1b\\\x1b[6n\x1b[c\x1b[>c"), []byte{4, 9})
	f.Fuzz(func(t *testing.T, data, ops []byte) {
		s := New(Options{Cols: 10, Rows: 5, Scrollback: 20})
		for _, op := range ops {
			if op >= 0xc0 { // resize: small sizes reach the edges quickly
				s.Resize(int(op&0x7)*4, int(op>>3&0x7))
				checkInvariants(t, s)
				continue
			}
			n := min(int(op)+1, len(data))
			s.Write(data[:n])
			data = data[n:]
			checkInvariants(t, s)
		}
		s.Write(data)
		checkInvariants(t, s)
	})
}

func checkInvariants(t *testing.T, s *Screen) {
	t.Helper()
	snap := s.Snapshot()
	if snap.Cursor.Row < 0 || snap.Cursor.Row >= snap.Rows || snap.Cursor.Col < 0 || snap.Cursor.Col >= snap.Cols {
		t.Fatalf("cursor %+v outside %dx%d", snap.Cursor, snap.Cols, snap.Rows)
	}
	if len(snap.Lines) != snap.Rows || len(snap.Wrapped) != snap.Rows {
		t.Fatalf("%d lines, %d wrap flags for %d rows", len(snap.Lines), len(snap.Wrapped), snap.Rows)
	}
	for i, l := range snap.Lines {
		w := 0
		for _, r := range l {
			if r < 0x20 || r == 0x7f || r >= clusterFirst {
				t.Fatalf("line %d has %U: %q", i, r, l)
			}
			w += runeWidth(r)
		}
		if w > snap.Cols {
			t.Fatalf("line %d is %d cells wide on a %d-column screen: %q", i, w, snap.Cols, l)
		}
	}
	if cur := s.Cursor(); cur.Line != snap.CursorRow {
		t.Fatalf("Cursor().Line %d != CursorRow %d", cur.Line, snap.CursorRow)
	}
	checkGrid(t, s, snap)
	s.TextSince(Pos{})
	s.TextSince(Pos{Line: snap.CursorRow, Col: snap.Cursor.Col})
	s.AllText()
	s.TakeReplies()
}

// checkGrid: cells fit the screen, a wide character's second cell follows it, and the
// visible rows read as the Snapshot's text.
func checkGrid(t *testing.T, s *Screen, snap Snapshot) {
	t.Helper()
	g := s.Grid(3)
	if len(g.Rows) != g.Scrollback+snap.Rows || g.Cursor != snap.Cursor || g.Cols != snap.Cols {
		t.Fatalf("Grid: %d rows, %d from the scrollback, cursor %+v, %d columns; Snapshot: %d rows, cursor %+v, %d columns",
			len(g.Rows), g.Scrollback, g.Cursor, g.Cols, snap.Rows, snap.Cursor, snap.Cols)
	}
	for i, row := range g.Rows {
		var text strings.Builder
		for x, c := range row.Cells {
			second := x > 0 && row.Cells[x-1].Width == 2
			if (c.Width == 0) != second || c.Width == 0 && c.Text != "" || c.Width != 0 && c.Text == "" {
				t.Fatalf("row %d cell %d is %+v after %+v", i, x, c, row.Cells[max(x-1, 0)])
			}
			text.WriteString(c.Text)
		}
		// Scrollback rows keep the width they had: the screen may have been narrowed since.
		if i >= g.Scrollback && len(row.Cells) > g.Cols || len(row.Cells) > 0 && row.Cells[len(row.Cells)-1].Width == 2 {
			t.Fatalf("row %d has %d cells on a %d-column screen, the last %+v", i, len(row.Cells), g.Cols, row.Cells[len(row.Cells)-1])
		}
		if y := i - g.Scrollback; y >= 0 && (strings.TrimRight(text.String(), " ") != snap.Lines[y] || row.Wrapped != snap.Wrapped[y]) {
			t.Fatalf("row %d reads %q wrapped %v, Snapshot has %q wrapped %v", y, text.String(), row.Wrapped, snap.Lines[y], snap.Wrapped[y])
		}
	}
}
