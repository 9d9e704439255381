package screen

import (
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
	s.TextSince(Pos{})
	s.TextSince(Pos{Line: snap.CursorRow, Col: snap.Cursor.Col})
	s.AllText()
	s.TakeReplies()
}
