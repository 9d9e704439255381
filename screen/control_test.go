package screen

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQueryReplies(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"dsr status", "\x1b[5n", "\x1b[0n"},
		{"cpr", "ab\r\ncde\x1b[6n", "\x1b[2;4R"},
		{"cpr after cup", "\x1b[3;7H\x1b[6n", "\x1b[3;7R"},
		{"decxcpr", "\x1b[?6n", "\x1b[?1;1R"},
		{"da1", "\x1b[c", da1Reply},
		{"da1 zero", "\x1b[0c", da1Reply},
		{"decid", "\x1bZ", da1Reply},
		{"da2", "\x1b[>c", da2Reply},
		{"da2 zero", "\x1b[>0c", da2Reply},
		{"osc 11 bel", "\x1b]11;?\x07", "\x1b]11;rgb:0000/0000/0000\x07"},
		{"osc 10 st", "\x1b]10;?\x1b\\", "\x1b]10;rgb:ffff/ffff/ffff\x1b\\"},
		{"decrqm private", "\x1b[?2026$p", "\x1b[?2026;0$y"},
		{"decrqm ansi", "\x1b[4$p", "\x1b[4;0$y"},
		{"decrqss", "\x1bP$qm\x1b\\", "\x1bP0$r\x1b\\"},
		{"xtgettcap", "\x1bP+q544e\x1b\\", "\x1bP0+r544e\x1b\\"},
		{"text area size", "\x1b[18t", "\x1b[8;5;20t"},
		{"two queries in order", "\x1b[5n\x1b[c", "\x1b[0n" + da1Reply},
		{"kitty keyboard query unanswered", "\x1b[?u", ""},
		{"da3 unanswered", "\x1b[=c", ""},
		{"no query", "hello\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t, 20, 5, 0)
			write(t, s, tt.in)
			if got := string(s.TakeReplies()); got != tt.want {
				t.Errorf("replies = %q, want %q", got, tt.want)
			}
			if got := s.TakeReplies(); got != nil {
				t.Errorf("second TakeReplies = %q, want nil", got)
			}
		})
	}
}

func TestSanitisedSequences(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		cursor Point
		line0  string
	}{
		{"kitty query keeps cursor", "abc\x1b[?u", Point{0, 3}, "abc"},
		{"kitty push and pop", "ab\x1b[>1u\x1b[<u\x1b[=1;1uc", Point{0, 3}, "abc"},
		{"huge cup", "\x1b[999999999;999999999H", Point{4, 19}, ""},
		{"huge counts", "x\x1b[999999999I\x1b[999999999Z\x1b[99999999999999999999@\x1b[999999999Py", Point{0, 1}, "y"},
		{"huge scroll", "a\r\nb\x1b[999999999S\x1b[999999999T", Point{1, 1}, ""},
		{"too many params", "\x1b[" + strings.Repeat("1;", 200) + "mX", Point{0, 1}, "X"},
		{"overlong csi", "\x1b[" + strings.Repeat("9", 500) + "CX", Point{0, 1}, "X"},
		{"main screen 1049 reset", "ab\x1b[?1049lc", Point{0, 3}, "abc"},
		{"decslrm ignored", "ab\x1b[2;5sc", Point{0, 3}, "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t, 20, 5, 0)
			write(t, s, tt.in)
			snap := s.Snapshot()
			if snap.Cursor != tt.cursor {
				t.Errorf("cursor = %+v, want %+v", snap.Cursor, tt.cursor)
			}
			if snap.Lines[0] != tt.line0 {
				t.Errorf("line 0 = %q, want %q", snap.Lines[0], tt.line0)
			}
			if snap.AltScreen {
				t.Error("on the alternate screen")
			}
		})
	}
}

func TestAltScreen(t *testing.T) {
	s := newScreen(t, 20, 4, 0)
	write(t, s, strings.Join(numbered(6), "\r\n"))
	before := s.AllText()
	cur := s.Cursor()

	write(t, s, "\x1b[?1049h\x1b[H\x1b[2Jvim buffer")
	for range 10 { // scrolling on the alternate screen must not reach the history
		write(t, s, "\r\nmore")
	}
	snap := s.Snapshot()
	if !snap.AltScreen {
		t.Fatal("AltScreen = false after CSI ? 1049 h")
	}
	if snap.Lines[3] != "more" {
		t.Errorf("alt line 3 = %q, want %q", snap.Lines[3], "more")
	}
	if got := s.hist.len(); got != 2 {
		t.Errorf("history has %d lines after alt-screen output, want 2", got)
	}

	write(t, s, "\x1b[?1049l")
	if s.Snapshot().AltScreen {
		t.Fatal("AltScreen = true after CSI ? 1049 l")
	}
	if got := s.AllText(); got != before {
		t.Errorf("main screen after alt:\n%s\nwant:\n%s", got, before)
	}
	if got := s.Cursor(); got != cur {
		t.Errorf("cursor after alt = %+v, want %+v", got, cur)
	}
	if got := s.Snapshot().Clears; got != 3 { // enter, ED 2, leave
		t.Errorf("Clears = %d, want 3", got)
	}
}

// TestAltScreenKeepsItsOwnSavedCursor: a DECSC on the alternate screen (nano's)
// does not move where leaving it (1049) puts the main screen's cursor back, as in
// xterm, which keeps a saved cursor per screen; nor does a resize in between lose
// the alternate screen's own.
func TestAltScreenKeepsItsOwnSavedCursor(t *testing.T) {
	s := newScreen(t, 40, 10, 0)
	write(t, s, "$ before-alt")
	write(t, s, "\x1b[?1049h\x1b[3;3H\x1b7\x1b[H\x1b[?1049l AFTER")
	if got := s.Snapshot().Lines[0]; got != "$ before-alt AFTER" {
		t.Fatalf("main screen after leaving: %q", got)
	}
	write(t, s, "\r\n$ nano\x1b[?1049h\x1b[5;7H\x1b7\x1b[H")
	s.Resize(40, 8)
	write(t, s, "\x1b8x")
	if snap := s.Snapshot(); snap.Lines[4] != "      x" {
		t.Fatalf("the alternate screen's DECRC after a resize: %q", snap.Lines)
	}
	write(t, s, "\x1b[?1049l back")
	if got := s.Snapshot().Lines[1]; got != "$ nano back" {
		t.Fatalf("main screen after a resize and leaving: %q", s.Snapshot().Lines)
	}
}

func TestResetLeavesAltScreen(t *testing.T) {
	s := newScreen(t, 20, 4, 0)
	write(t, s, "main\x1b[?1049halt\x1bc")
	if s.Snapshot().AltScreen {
		t.Fatal("AltScreen after RIS")
	}
	write(t, s, "x\x1b[?1049hy\x1b[?1049l")
	snap := s.Snapshot()
	if snap.Lines[0] != "x" || snap.AltScreen {
		t.Errorf("after RIS and a later alt round trip: line 0 %q alt %v, want \"x\" false", snap.Lines[0], snap.AltScreen)
	}
}

func TestModes(t *testing.T) {
	s := newScreen(t, 20, 4, 0)
	check := func(step string, app, paste, visible bool) {
		t.Helper()
		snap := s.Snapshot()
		got := []bool{snap.AppCursor, snap.BracketedPaste, snap.CursorVisible}
		if diff := cmp.Diff([]bool{app, paste, visible}, got); diff != "" {
			t.Errorf("%s: [app paste visible] (-want +got):\n%s", step, diff)
		}
	}
	check("start", false, false, true)
	write(t, s, "\x1b[?1h\x1b[?2004h\x1b[?25l")
	check("set", true, true, false)
	write(t, s, "\x1b[?1;2004;25;25h\x1b[?1;2004l")
	check("reset in one sequence", false, false, true)
	write(t, s, "\x1b[?1;2004h\x1bc")
	check("RIS", false, false, true)
}

// TestNewDefaultsEachDimension: a zero dimension takes its default on its own, as pty.Start
// does, so a session asking for 80 columns and no row count gets 80x40 on both sides.
func TestNewDefaultsEachDimension(t *testing.T) {
	tests := []struct{ cols, rows, wantCols, wantRows int }{
		{0, 0, DefaultCols, DefaultRows},
		{80, 0, 80, DefaultRows},
		{0, 24, DefaultCols, 24},
		{80, 24, 80, 24},
		{-5, 5000, 1, MaxRows},
	}
	for _, tt := range tests {
		st := New(Options{Cols: tt.cols, Rows: tt.rows}).Status()
		if st.Cols != tt.wantCols || st.Rows != tt.wantRows {
			t.Errorf("New(%d x %d) is %d x %d, want %d x %d", tt.cols, tt.rows, st.Cols, st.Rows, tt.wantCols, tt.wantRows)
		}
	}
}

func TestResize(t *testing.T) {
	s := newScreen(t, 30, 10, 0)
	lines := numbered(8)
	write(t, s, strings.Join(lines, "\r\n"))
	want := strings.Join(lines, "\n")

	steps := []struct{ cols, rows, row int }{
		{30, 4, 3},  // shrink: rows above the cursor go to history
		{30, 20, 3}, // grow: the cursor stays
		{10, 2, 1},
		{1, 1, 0},
		{5000, 5000, 0}, // clamped
	}
	for _, st := range steps {
		s.Resize(st.cols, st.rows)
		snap := s.Snapshot()
		if snap.Cursor.Row != st.row || snap.Cursor.Col >= snap.Cols || snap.Rows != len(snap.Lines) {
			t.Errorf("after Resize(%d, %d): cursor %+v, size %dx%d", st.cols, st.rows, snap.Cursor, snap.Cols, snap.Rows)
		}
		if got := s.Cursor().Line; got != 7 {
			t.Errorf("after Resize(%d, %d): cursor line %d, want 7", st.cols, st.rows, got)
		}
		// Narrowing truncates the rows on screen; until then nothing may be lost.
		if text, _ := s.TextSince(Pos{}); st.cols == 30 && text != want {
			t.Errorf("after Resize(%d, %d): TextSince = %q, want %q", st.cols, st.rows, text, want)
		}
	}
	if snap := s.Snapshot(); snap.Cols != MaxCols || snap.Rows != MaxRows {
		t.Errorf("size = %dx%d, want %dx%d", snap.Cols, snap.Rows, MaxCols, MaxRows)
	}
}

func TestResizeKeepsTabs(t *testing.T) {
	s := newScreen(t, 10, 3, 0)
	s.Resize(40, 3)
	write(t, s, "\t\t\tx")
	if got := s.Snapshot().Cursor.Col; got != 25 {
		t.Errorf("cursor col after three tabs = %d, want 25", got)
	}
}

// bash's integrated prompt carries the time it was expanded (n=) in its end mark; a
// line editor redrawing that prompt (vi mode's indicator, ctrl+l) repeats the same
// marks, which end no command and are not recorded.
func TestRedrawnPromptAddsNoMarks(t *testing.T) {
	s := newScreen(t, 40, 5, 0)
	prompt := func(status, n string) string {
		return "\x1b]133;D;" + status + "\x07\x1b]133;D;" + status + ";n=" + n + "\x07\x1b]133;A\x07$ \x1b]133;B\x07"
	}
	write(t, s, prompt("0", "1.5"))
	seq := s.Counters().MarkSeq
	write(t, s, "\r\x1b[K\x1b]133;D;0;n=1.5\x07\x1b]133;A\x07$ \x1b]133;B\x07echo x") // redrawn
	if got := s.MarksSince(seq); len(got) != 0 {
		t.Errorf("a redrawn prompt added marks %+v", got)
	}
	write(t, s, "\r\n\x1b]133;C\x07x\r\n"+prompt("0", "2.5"))
	var kinds string
	for _, m := range s.MarksSince(seq) {
		kinds += string(m.Kind)
	}
	if kinds != "CDDAB" {
		t.Errorf("the next prompt's marks = %q, want CDDAB", kinds)
	}
	write(t, s, "\x1b]133;D;1\x07\x1b]133;A\x07% \x1b]133;B\x07") // no n= (zsh, an older bash): always recorded
	write(t, s, "\x1b]133;D;1\x07\x1b]133;A\x07% \x1b]133;B\x07")
	if n := len(s.MarksSince(seq)); n != 5+6 {
		t.Errorf("marks without n= = %d, want all %d recorded", n-5, 6)
	}
}

// TestRedrawnPromptMovesItsCommandLine: a prompt redrawn below a completion listing
// (bash's tab tab), or at the top after ctrl+l, adds no marks, but its command line
// is where it was redrawn: the B mark moves there, with the erase it follows.
func TestRedrawnPromptMovesItsCommandLine(t *testing.T) {
	s := newScreen(t, 40, 6, 0)
	redraw := "\x1b]133;D;0;n=1.5\x07\x1b]133;A\x07$ \x1b]133;B\x07"
	write(t, s, "\x1b]133;D;0\x07"+redraw+"ls b")
	seq := s.Counters().MarkSeq
	b := func() Mark {
		t.Helper()
		ms := s.MarksSince(seq - 1)
		if len(ms) != 1 || ms[0].Kind != 'B' || s.Counters().MarkSeq != seq {
			t.Fatalf("marks %+v, seq %d, want the one B mark, seq %d", ms, s.Counters().MarkSeq, seq)
		}
		return ms[0]
	}
	write(t, s, "\r\nbase-files/  bash/\r\n"+redraw+"ls b")
	if m := b(); m.Pos != (Pos{Line: 2, Col: 2}) {
		t.Fatalf("after a listing, B at %+v, want row 2", m.Pos)
	}
	if text, _ := s.TextSince(b().Pos); text != "ls b" {
		t.Fatalf("command line %q", text)
	}
	write(t, s, "\x1b[H\x1b[2J"+redraw+"ls b") // ctrl+l
	if m := b(); m.Pos != (Pos{Line: s.lineBase, Col: 2}) || m.Erases != s.Counters().Erases {
		t.Fatalf("after ctrl+l, B %+v, erases now %d", m, s.Counters().Erases)
	}
}

func TestLeftOf(t *testing.T) {
	s := newScreen(t, 20, 3, 5)
	write(t, s, "$ ls\r\n你好 x  y\r\n$ ")
	for _, tt := range []struct {
		at   Pos
		want string
	}{
		{Pos{0, 2}, "$"},
		{Pos{0, 4}, "$ ls"},
		{Pos{1, 2}, "你"},
		{Pos{1, 3}, "你"}, // the second cell of 好 is not left of it all
		{Pos{1, 7}, "你好 x"},
		{Pos{2, 2}, "$"},
		{Pos{9, 0}, ""}, // not drawn yet
	} {
		if got := s.LeftOf(tt.at); got != tt.want {
			t.Errorf("LeftOf(%v) = %q, want %q", tt.at, got, tt.want)
		}
	}
	write(t, s, "\r\n\r\n\r\n") // the first line scrolls into the scrollback
	if got := s.LeftOf(Pos{0, 4}); got != "$ ls" {
		t.Errorf("LeftOf a scrollback line = %q, want %q", got, "$ ls")
	}
}

func TestTextSinceColumns(t *testing.T) {
	s := newScreen(t, 20, 5, 0)
	write(t, s, "$ ls\r\nfile1\r\n你好 x\r\n$ ")
	tests := []struct {
		from Pos
		want string
	}{
		{Pos{0, 2}, "ls\nfile1\n你好 x\n$"},
		{Pos{1, 0}, "file1\n你好 x\n$"},
		{Pos{2, 1}, "你好 x\n$"}, // second cell of 你
		{Pos{2, 2}, "好 x\n$"},
		{Pos{2, 50}, "\n$"},
		{Pos{3, 2}, ""},
		{Pos{4, 0}, ""}, // beyond the cursor
	}
	for _, tt := range tests {
		if got, lost := s.TextSince(tt.from); got != tt.want || lost {
			t.Errorf("TextSince(%+v) = %q, %v; want %q, false", tt.from, got, lost, tt.want)
		}
	}
}

// TestOverdrawn: a command's C mark keeps its command line (from the B mark, over
// wrapped rows) as it was; output that later changes a row of it begins at the
// first cell that changed, blanks that were blank skipped, after wide characters
// counted as two.
func TestOverdrawn(t *testing.T) {
	for _, tt := range []struct {
		name, after string
		want        Pos
	}{
		{"untouched", "out\r\n", Pos{2, 0}},
		{"cleared and rewritten", "\x1b[2A\x1b[2Kup\r\n\r\n", Pos{0, 0}},
		{"appended after blanks", "\x1b[1A\x1b[8Cx\r\n", Pos{1, 8}},
		{"changed after wide", "\x1b[2A\x1b[6Cz\r\n\r\n", Pos{0, 6}},
		{"only erased", "\x1b[2A\x1b[2K\x1b[1B\x1b[4G\x1b[K\r\n\r\n", Pos{2, 0}},
		{"erased above what was drawn", "\x1b[2A\x1b[2K\x1b[1B\x1b[4Gxy\r\n\r\n", Pos{1, 3}},
		{"the same text again", "\x1b[2A\r$ \u4e16\u754c ls ab\r\n\r\n", Pos{2, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(t, 10, 6, 0)
			// "$ 世界 ls abcdef" wraps at 10 cells: "$ 世界 ls " and "abcdef".
			write(t, s, "\x1b]133;A\x07$ \x1b]133;B\x07\u4e16\u754c ls abcdef\r\n\x1b]133;C\x07")
			c := s.MarksSince(2)[0]
			if diff := cmp.Diff([]string{"$ 世界 ls", "abcdef"}, c.Above); diff != "" {
				t.Fatalf("Above (-want +got):\n%s", diff)
			}
			write(t, s, tt.after)
			if got := s.Overdrawn(c); got != tt.want {
				t.Errorf("Overdrawn = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestMarks(t *testing.T) {
	s := newScreen(t, 40, 5, 0)
	write(t, s, "\x1b]133;A\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x1b\\out\r\n\x1b]133;D;1\x07")
	want := []Mark{
		{Kind: 'A', Pos: Pos{0, 0}, Seq: 1},
		{Kind: 'B', Pos: Pos{0, 2}, Seq: 2},
		{Kind: 'C', Pos: Pos{1, 0}, Seq: 3, Above: []string{"$ ls"}},
		{Kind: 'D', Arg: "1", Pos: Pos{2, 0}, Seq: 4},
	}
	if diff := cmp.Diff(want, s.MarksSince(0)); diff != "" {
		t.Errorf("MarksSince(0) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[2:], s.MarksSince(2)); diff != "" {
		t.Errorf("MarksSince(2) (-want +got):\n%s", diff)
	}
	if got := s.MarksSince(4); got != nil {
		t.Errorf("MarksSince(4) = %v, want nil", got)
	}
	for range maxMarks + 10 {
		write(t, s, "\x1b]133;A\x07")
	}
	if got := s.MarksSince(0); len(got) > maxMarks || got[len(got)-1].Seq != maxMarks+14 {
		t.Errorf("after %d marks: kept %d, newest seq %d", maxMarks+14, len(got), got[len(got)-1].Seq)
	}
}

func TestClears(t *testing.T) {
	s := newScreen(t, 20, 5, 0)
	write(t, s, "a\x1b[2J\x1b[3J\x1b[J\x1b[1Jb\x1bc")
	if got := s.Snapshot().Clears; got != 3 {
		t.Errorf("Clears = %d, want 3 (ED 2, ED 3, RIS)", got)
	}
	if got := s.Snapshot().Written; got != 19 {
		t.Errorf("Written = %d, want 19", got)
	}
}

func TestScrollRegion(t *testing.T) {
	// apt keeps a progress bar on the last row with DECSTBM: output scrolling above it
	// still reaches the history.
	s := newScreen(t, 20, 4, 0)
	write(t, s, "\x1b[1;3r\x1b[4;1Hprogress\x1b[3;1H")
	lines := numbered(6)
	for _, l := range lines {
		write(t, s, "\r\n"+l)
	}
	// The three blank rows of the region scroll off first.
	want := "\n\n\n" + strings.Join(lines, "\n") + "\nprogress"
	if got := s.AllText(); got != want {
		t.Errorf("AllText = %q, want %q", got, want)
	}
	// A region lower down scrolls lines into nothing, as in xterm.
	before := s.hist.len()
	write(t, s, "\x1b[2;3r\x1b[3;1H\n\n\n")
	if got := s.hist.len(); got != before {
		t.Errorf("history grew from %d to %d while scrolling a region below the top", before, got)
	}
}

// A resize while a full-screen program is in front slides the main screen behind
// it as it would slide on its own: the rows above the last in use go to the
// scrollback, and the prompt the program was started from is there when it
// leaves. vt10x kept the top rows of both screens and dropped the bottom ones:
// after vim, a resize and :q!, lines 24-30 and the prompt were gone.
func TestResizeUnderTheAlternateScreen(t *testing.T) {
	s := newScreen(t, 40, 24, 0)
	lines := numbered(30)
	write(t, s, strings.Join(lines, "\r\n")+"\r\n$ vim")
	write(t, s, "\x1b[?1049h\x1b[H\x1b[2J~\r\n~\r\n\x1b[24;1H:q!")
	s.Resize(60, 10)
	write(t, s, "\x1b[?1049l\r\n$ ")
	text, _ := s.TextSince(Pos{})
	want := strings.Join(lines, "\n") + "\n$ vim\n$"
	if text != want {
		t.Fatalf("after the program left:\n%s\nwant\n%s", text, want)
	}
	if snap := s.Snapshot(); snap.Cursor.Row != 9 || snap.Lines[8] != "$ vim" {
		t.Fatalf("cursor %+v, screen %q", snap.Cursor, snap.Lines)
	}
}

func TestHighlighted(t *testing.T) {
	s := newScreen(t, 40, 8, 0)
	write(t, s, "\x1b[?1049hChoose:\r\n  Alpha\r\n  \x1b[7mBeta  \x1b[m\r\n  Gamma\r\n\x1b[7m\x1b[K\x1b[m")
	if got := s.Highlighted(5); len(got) != 1 || got[0] != "Beta" {
		t.Fatalf("Highlighted = %q, want [Beta]", got)
	}
}

// TestLineEnd: where a line ends, from a position inside it, across soft wraps.
func TestLineEnd(t *testing.T) {
	s := newScreen(t, 10, 4, 0)
	write(t, s, "$ echo 0123456789ab\r\n$ x  ")
	for _, c := range []struct{ at, want Pos }{
		{Pos{Line: 0, Col: 2}, Pos{Line: 1, Col: 9}}, // wraps onto row 1
		{Pos{Line: 1, Col: 3}, Pos{Line: 1, Col: 9}},
		{Pos{Line: 2, Col: 0}, Pos{Line: 2, Col: 3}},
		{Pos{Line: 2, Col: 5}, Pos{Line: 2, Col: 5}}, // after the end already (blanks typed)
	} {
		if got := s.LineEnd(c.at); got != c.want {
			t.Errorf("LineEnd(%+v) = %+v, want %+v", c.at, got, c.want)
		}
	}
}

// TestPromptSPIsNoOutput: zsh ends output without a final newline with its
// end-of-line mark and blanks past the margin, so that its prompt starts a row of
// its own; the text is the output, its line ended, without the mark or the blanks.
func TestPromptSPIsNoOutput(t *testing.T) {
	s := newScreen(t, 20, 5, 0)
	prompt := "\x1b]133;D;0\x07\x1b]133;A\x07# \x1b]133;B\x07"
	write(t, s, prompt+"cat f\r\n\x1b]133;C\x07")
	from := s.Cursor()
	write(t, s, "key=val##\x1b[7m#\x1b[0m"+strings.Repeat(" ", 19)+"\r \r\r"+prompt)
	if text, _ := s.TextSince(from); text != "key=val##\n#" {
		t.Fatalf("text %q", text)
	}
	if st := s.Status(); st.WrappedIn != "" {
		t.Fatalf("the prompt's row is taken for the output's continuation: %q", st.WrappedIn)
	}
}

// TestWideRuneAtTheMargin: a wide character that does not fit in the last column
// goes to the next row and leaves that column blank, or filled with a blank by a
// line editor that wraps for itself (python's readline); the line read back has
// no blank there.
func TestWideRuneAtTheMargin(t *testing.T) {
	s := newScreen(t, 10, 4, 0)
	write(t, s, "abcdefghi 中x")
	if text, _ := s.TextSince(Pos{}); text != "abcdefghi中x" {
		t.Fatalf("text %q", text)
	}
	write(t, s, "\r\nabcdefghi中x")
	if text, _ := s.TextSince(Pos{Line: 2}); text != "abcdefghi中x" {
		t.Fatalf("text %q", text)
	}
	write(t, s, "\r\nabcdefgh 中x") // a blank typed before the margin stays
	if text, _ := s.TextSince(Pos{Line: 4}); text != "abcdefgh 中x" {
		t.Fatalf("text %q", text)
	}
}
