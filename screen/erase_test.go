package screen

import (
	"strings"
	"testing"
)

// An erase of the visible main screen is counted with the line its top row had, so a
// reader can cut what followed it; ED 3 and the alternate screen's erases are not.
func TestEraseTop(t *testing.T) {
	tests := []struct {
		name       string
		out        string
		erases     uint64
		top        int64
		afterErase string // TextSince(EraseTop) when erases > 0
	}{
		{"none", "a\r\nb\r\n", 0, 0, ""},
		{"ED 2 after scrolling", "1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n\x1b[H\x1b[2Jafter", 1, 3, "after"},
		{"ED 2 keeps the cursor row", "1\r\n2\r\n\x1b[2Jz", 1, 0, "\n\nz"},
		{"RIS", "1\r\n2\r\n3\r\n4\r\n5\r\n\x1bcr", 1, 2, "r"},
		{"ED 3 alone", "x\r\n\x1b[3Jy", 0, 0, ""},
		{"alternate screen", "x\x1b[?1049h\x1b[2Jin\x1b[?1049l", 0, 0, ""},
		{"twice", "a\x1b[2J\x1b[Hb\r\n\x1b[2J\x1b[Hc", 2, 0, "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t, 10, 4, 100)
			write(t, s, tt.out)
			st := s.Status()
			if st.Erases != tt.erases || st.EraseTop != tt.top {
				t.Fatalf("Erases %d EraseTop %d, want %d %d", st.Erases, st.EraseTop, tt.erases, tt.top)
			}
			if tt.erases > 0 {
				if got, _ := s.TextSince(Pos{Line: st.EraseTop}); got != tt.afterErase {
					t.Fatalf("text after the erase %q, want %q", got, tt.afterErase)
				}
			}
		})
	}
}

// vt10x's reset erases a rows-by-cols rectangle instead of cols-by-rows.
func TestResetErasesEveryColumn(t *testing.T) {
	s := newScreen(t, 120, 5, 100)
	write(t, s, strings.Repeat("x", 100)+"\r\nabc\x1bcX")
	snap := s.Snapshot()
	for i, l := range snap.Lines {
		want := ""
		if i == 0 {
			want = "X"
		}
		if l != want {
			t.Fatalf("row %d after reset: %q", i, l)
		}
	}
}

func TestMarkRemembersErases(t *testing.T) {
	s := newScreen(t, 20, 5, 100)
	write(t, s, "\x1b]133;C\x07out\x1b[2J\x1b]133;D;0\x07")
	ms := s.MarksSince(0)
	if len(ms) != 2 || ms[0].Erases != 0 || ms[1].Erases != 1 {
		t.Fatalf("marks %+v", ms)
	}
}
