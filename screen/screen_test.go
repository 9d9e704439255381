package screen

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func newScreen(t *testing.T, cols, rows, scrollback int) *Screen {
	t.Helper()
	return New(Options{Cols: cols, Rows: rows, Scrollback: scrollback})
}

func write(t *testing.T, s *Screen, chunks ...string) {
	t.Helper()
	for _, c := range chunks {
		n, err := s.Write([]byte(c))
		if err != nil || n != len(c) {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", c, n, err, len(c))
		}
	}
}

func numbered(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %03d", i)
	}
	return lines
}

func TestScrollbackKeepsEveryLine(t *testing.T) {
	s := newScreen(t, 120, 40, 0)
	want := numbered(300)
	write(t, s, strings.Join(want, "\r\n"))

	text, lost := s.TextSince(Pos{})
	if lost {
		t.Error("TextSince(start) reported lost lines")
	}
	if diff := cmp.Diff(want, strings.Split(text, "\n")); diff != "" {
		t.Errorf("TextSince(start) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, strings.Split(s.AllText(), "\n")); diff != "" {
		t.Errorf("AllText (-want +got):\n%s", diff)
	}
	if got := s.Cursor(); got != (Pos{Line: 299, Col: 8}) {
		t.Errorf("Cursor = %+v, want line 299 col 8", got)
	}
}

func TestScrollbackLimit(t *testing.T) {
	s := newScreen(t, 20, 3, 5)
	lines := numbered(20)
	write(t, s, strings.Join(lines, "\r\n"))
	// 17 lines left the screen; the newest 5 of them are kept.
	want := lines[12:]
	if diff := cmp.Diff(want, strings.Split(s.AllText(), "\n")); diff != "" {
		t.Errorf("AllText (-want +got):\n%s", diff)
	}
	text, lost := s.TextSince(Pos{Line: 3})
	if !lost {
		t.Error("TextSince before the oldest retained line: lost = false, want true")
	}
	if diff := cmp.Diff(want, strings.Split(text, "\n")); diff != "" {
		t.Errorf("TextSince (-want +got):\n%s", diff)
	}
	text, lost = s.TextSince(Pos{Line: 12})
	if lost || !strings.HasPrefix(text, "line 012\n") {
		t.Errorf("TextSince(oldest retained) = %q, %v; want from line 012, not lost", text, lost)
	}
}

func TestNoScrollback(t *testing.T) {
	s := newScreen(t, 20, 3, -1)
	write(t, s, strings.Join(numbered(10), "\r\n"))
	if got, want := s.AllText(), "line 007\nline 008\nline 009"; got != want {
		t.Errorf("AllText = %q, want %q", got, want)
	}
	if got := s.Cursor().Line; got != 9 {
		t.Errorf("Cursor().Line = %d, want 9: numbering counts dropped lines too", got)
	}
}

func TestLongLineIsOneLine(t *testing.T) {
	s := newScreen(t, 120, 40, 0)
	long := strings.Repeat("0123456789", 30)
	write(t, s, "$ "+long+"\r\n$ ")
	snap := s.Snapshot()
	if diff := cmp.Diff([]bool{true, true, false}, snap.Wrapped[:3]); diff != "" {
		t.Errorf("Wrapped (-want +got):\n%s", diff)
	}
	want := "$ " + long + "\n$"
	if text, _ := s.TextSince(Pos{}); text != want {
		t.Errorf("TextSince = %q, want %q", text, want)
	}
	// Push the long line into history: it must still come back whole.
	write(t, s, strings.Repeat("\r\n", 60))
	all := strings.Split(s.AllText(), "\n")
	if all[0] != "$ "+long {
		t.Errorf("AllText line 0 = %q, want the 302-char line", all[0])
	}
	if text, _ := s.TextSince(Pos{Line: 1, Col: 10}); !strings.HasPrefix(text, long[118+10:]+"\n") {
		t.Errorf("TextSince(line 1 col 10) = %.40q..., want the rest of the wrapped line", text)
	}
}

func TestLongLineWrapsAtBottom(t *testing.T) {
	// The wrap that scrolls happens on the bottom row: the row marked as wrapped is the
	// one leaving the screen when the screen has one row.
	s := newScreen(t, 10, 1, 0)
	write(t, s, strings.Repeat("x", 25), "\r\nok")
	if got, want := s.AllText(), strings.Repeat("x", 25)+"\nok"; got != want {
		t.Errorf("AllText = %q, want %q", got, want)
	}
}

func TestCleanText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"carriage return overwrites", "progress 10%\rprogress 100%\n", "progress 100%"},
		{"sgr colours", "\x1b[1;31mred\x1b[0m \x1b[38;5;208mo\x1b[38;2;1;2;3mt\x1b[m", "red ot"},
		{"sgr colon forms", "\x1b[4:3mu\x1b[38:2::10:20:30mc\x1b[58;2;31;32;33mx", "ucx"},
		{"osc title bel", "\x1b]0;my title\x07text", "text"},
		{"osc title st", "\x1b]2;t\x1b\\text", "text"},
		{"osc hyperlink", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"dcs and apc", "a\x1bPq#0;2;0;0;0\x1b\\b\x1b_apc\x1b\\c", "abc"},
		{"erase line", "abcdef\r\x1b[Kxy", "xy"},
		{"backspace", "abc\b\bX", "aXc"},
		{"rep", "ab\x1b[3b", "abbbb"},
		{"c1 rune dropped", "a\u0085b", "ab"},
		{"lone continuation byte", "a\x80b", "a\uFFFDb"},
		{"truncated rune", "a\xe4\xbdb", "a\uFFFDb"},
		{"esc charset g1 ignored", "\x1b)0ab", "ab"},
		{"line drawing", "\x1b(0qq\x1b(Bq", "──q"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t, 40, 5, 0)
			write(t, s, tt.in)
			if got := s.Snapshot().Lines[0]; got != tt.want {
				t.Errorf("line 0 = %q, want %q", got, tt.want)
			}
			if all := s.AllText(); strings.ContainsRune(all, 0x1b) {
				t.Errorf("AllText contains ESC: %q", all)
			}
		})
	}
}

func TestTitle(t *testing.T) {
	s := newScreen(t, 40, 5, 0)
	write(t, s, "\x1b]2;vim a;b.txt\x07")
	if got := s.Snapshot().Title; got != "vim a;b.txt" {
		t.Errorf("Title = %q, want %q", got, "vim a;b.txt")
	}
	write(t, s, "\x1b]1;icon\x07")
	if got := s.Snapshot().Title; got != "vim a;b.txt" {
		t.Errorf("OSC 1 changed the title to %q", got)
	}
}

func TestWideAndCombining(t *testing.T) {
	tests := []struct {
		name    string
		cols    int
		in      string
		lines   []string // first rows of the snapshot
		col     int      // cursor column
		allText string
	}{
		{"cjk then ascii", 20, "你好世界abc", []string{"你好世界abc"}, 11, "你好世界abc"},
		{"emoji then ascii", 20, "😀x", []string{"😀x"}, 3, "😀x"},
		{"combining acute", 20, "e\u0301x", []string{"e\u0301x"}, 2, "e\u0301x"},
		{"two marks", 20, "a\u0301\u0302b", []string{"a\u0301\u0302b"}, 2, "a\u0301\u0302b"},
		{"mark on wide", 20, "你\u0301b", []string{"你\u0301b"}, 3, "你\u0301b"},
		{"zwj family", 20, "👨\u200d👩x", []string{"👨\u200d👩x"}, 5, "👨\u200d👩x"},
		{"variation selector", 20, "❤\ufe0fx", []string{"❤\ufe0fx"}, 2, "❤\ufe0fx"},
		{"wide wraps early", 5, "abcd你", []string{"abcd", "你"}, 2, "abcd你"},
		{"wide fills last two", 6, "abcd你x", []string{"abcd你", "x"}, 1, "abcd你x"},
		{"half overwritten", 20, "你好\x1b[2GX", []string{" X好"}, 2, " X好"},
		{"mark at line start dropped", 20, "\u0301ab", []string{"ab"}, 2, "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t, tt.cols, 4, 0)
			write(t, s, tt.in)
			snap := s.Snapshot()
			if diff := cmp.Diff(tt.lines, snap.Lines[:len(tt.lines)]); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if snap.Cursor.Col != tt.col {
				t.Errorf("cursor col = %d, want %d", snap.Cursor.Col, tt.col)
			}
			if got := s.AllText(); got != tt.allText {
				t.Errorf("AllText = %q, want %q", got, tt.allText)
			}
		})
	}
}

func TestSplitWrites(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   string
	}{
		{"rune split 1+2", []string{"a\xe4", "\xbd\xa0b"}, "a你b"},
		{"rune split 2+1", []string{"a\xe4\xbd", "\xa0b"}, "a你b"},
		{"rune split 1+1+1+1", []string{"\xf0", "\x9f", "\x98", "\x80!"}, "😀!"},
		{"csi split", []string{"\x1b", "[3", "1mX\x1b[", "0m"}, "X"},
		{"osc split", []string{"\x1b]0;ti", "tle\x1b", "\\Y"}, "Y"},
		{"combining in next write", []string{"e", "\u0301"}, "e\u0301"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t, 20, 3, 0)
			write(t, s, tt.chunks...)
			if got := s.Snapshot().Lines[0]; got != tt.want {
				t.Errorf("line 0 = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConcurrentUse(t *testing.T) {
	s := newScreen(t, 40, 10, 100)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				switch g {
				case 0:
					fmt.Fprintf(s, "line %d\r\n\x1b[6n", i)
				case 1:
					s.Snapshot()
					s.TakeReplies()
				case 2:
					s.TextSince(Pos{})
					s.AllText()
					s.MarksSince(0)
				case 3:
					s.Resize(20+i%30, 5+i%10)
				}
			}
		}()
	}
	wg.Wait()
}
