package detect

import (
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/mcp-terminal/mcp-terminal/screen"
)

func TestMatchPrompt(t *testing.T) {
	t.Parallel()
	prompts := map[string]string{
		"user@host:~/src$ ":   "shell",
		"root@box:/# ":        "shell",
		"$ ":                  "shell",
		"host% ":              "shell",
		"user@host ~/x> ":     "shell",
		"❯ ":                  "shell",
		">>> ":                "python",
		"... ":                "python",
		"help> ":              "python",
		"In [3]: ":            "ipython",
		"   ...: ":            "ipython",
		"   ...:     ":        "ipython",
		"postgres=# ":         "psql",
		"postgres-# ":         "psql",
		"app(# ":              "psql",
		"app=> ":              "psql",
		"mysql> ":             "mysql",
		"MariaDB [(none)]> ":  "mysql",
		"    -> ":             "mysql",
		"sqlite> ":            "sqlite3",
		"   ...> ":            "sqlite3",
		"127.0.0.1:6379> ":    "redis-cli",
		"127.0.0.1:6379[2]> ": "redis-cli",
		"irb(main):001:0> ":   "irb",
		"irb(main):002> ":     "irb",
		"(gdb) ":              "gdb",
		"(Pdb) ":              "pdb",
		"> ":                  "repl",
		">> ":                 "repl",
	}
	for line, family := range prompts {
		got, ok := MatchPrompt(line)
		if !ok || got != family {
			t.Errorf("MatchPrompt(%q) = %q, %v; want %q", line, got, ok, family)
		}
	}
	for _, line := range []string{"", "hello", "$", "100%", "Downloading... 45%", "total 48", "a $b", "x>"} {
		if name, ok := MatchPrompt(line); ok {
			t.Errorf("MatchPrompt(%q) matched %q", line, name)
		}
	}
}

func FuzzMatchPrompt(f *testing.F) {
	for _, s := range []string{"$ ", ">>> ", "postgres=# ", "irb(main):001:0> ", "\x00 ", "   ...> "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		MatchPrompt(line) // must not panic; regexps are linear-time
	})
}

func snap(lines []string, row, col int, written uint64) screen.Status {
	line := ""
	if row < len(lines) {
		line = lines[row]
	}
	return screen.Status{Line: line, Cursor: screen.Point{Row: row, Col: col}, CursorRow: int64(row), Written: written, Rows: 5, Cols: 40}
}

func TestDetector(t *testing.T) {
	t.Parallel()
	start := screen.Pos{Line: 0, Col: 2}
	tests := []struct {
		name   string
		opts   Options
		st     State
		done   bool
		reason Reason
	}{
		{"old prompt before any output is not evidence", Options{},
			State{Screen: snap([]string{"$ "}, 0, 2, 10), Start: start, StartWritten: 10}, false, ""},
		{"echo only is not evidence", Options{},
			State{Screen: snap([]string{"$ sleep 2"}, 0, 9, 19), Start: start, StartWritten: 10}, false, ""},
		{"new prompt on a later line", Options{},
			State{Screen: snap([]string{"$ echo hi", "hi", "$ "}, 2, 2, 30), Start: start, StartWritten: 10}, true, Prompt},
		{"prompt after a clear", Options{},
			State{Screen: screen.Status{Line: "$ ", Cursor: screen.Point{Col: 2}, Written: 30, Clears: 1}, Start: start, StartWritten: 10}, true, Prompt},
		{"exit wins", Options{},
			State{Screen: snap([]string{"$ exit"}, 0, 6, 16), Start: start, StartWritten: 10, Exited: true}, true, Exit},
		{"silence is not settling unless allowed", Options{Settle: 100 * time.Millisecond},
			State{Screen: snap([]string{"$ sleep 2", ""}, 1, 0, 20), Start: start, StartWritten: 10, Quiet: time.Second}, false, ""},
		{"allowed settling", Options{Settle: 100 * time.Millisecond},
			State{Screen: snap([]string{"menu"}, 0, 0, 20), Start: start, StartWritten: 10, Quiet: time.Second, AllowSettle: true}, true, Settled},
		{"startup prompt needs no new output", Options{Startup: true},
			State{Screen: snap([]string{">>> "}, 0, 4, 4)}, true, Prompt},
		{"a prompt's lookalike while the program works is not evidence", Options{},
			State{Screen: snap([]string{"$ ./load", "Loading... # "}, 1, 13, 40), Start: start, StartWritten: 10,
				InputWait: func() Wait { return Wait{Known: true, Working: true} }}, false, ""},
		{"the same prompt once the program waits for input", Options{},
			State{Screen: snap([]string{"$ ./load", "Loading... # "}, 1, 13, 40), Start: start, StartWritten: 10,
				InputWait: func() Wait { return Wait{Known: true} }}, true, Prompt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := New(tt.opts).Check(&tt.st)
			if v.Done != tt.done || (tt.done && v.Reason != tt.reason) {
				t.Fatalf("verdict %+v, want done=%v reason=%q", v, tt.done, tt.reason)
			}
		})
	}
}

func TestSettleAsksForRecheck(t *testing.T) {
	t.Parallel()
	st := State{Screen: snap([]string{"x"}, 0, 1, 20), StartWritten: 10, Quiet: 30 * time.Millisecond, AllowSettle: true}
	v := New(Options{Settle: 100 * time.Millisecond}).Check(&st)
	if v.Done || v.Recheck != 70*time.Millisecond {
		t.Fatalf("verdict %+v, want a recheck in 70ms", v)
	}
}

// Under an East Asian locale go-runewidth's global table makes λ, ─ and » two cells
// wide; the cursor line must be measured as the screen laid it out. Not parallel: it
// changes that global table.
func TestCursorLineIgnoresLocaleWidths(t *testing.T) {
	saved := runewidth.DefaultCondition.EastAsianWidth
	runewidth.DefaultCondition.EastAsianWidth = true
	t.Cleanup(func() { runewidth.DefaultCondition.EastAsianWidth = saved })
	for _, p := range []string{"λ ", "─» ", "user ─ » "} {
		st := screen.Status{Line: strings.TrimRight(p, " "), Cursor: screen.Point{Col: len([]rune(p))}}
		if got := CursorLine(&st); got != p {
			t.Errorf("CursorLine(%q) = %q", p, got)
		}
		if _, ok := MatchPrompt(CursorLine(&st)); !ok {
			t.Errorf("%q is not taken for a prompt", p)
		}
	}
}

// TestCursorLineAtTheLastColumn: a prompt that ends in the last column (the cursor
// stays there with a wrap pending) or wraps onto the next row is still the line up
// to the cursor, after a short write and after a flood alike (the screen lays a
// flood out on its fast path).
func TestCursorLineAtTheLastColumn(t *testing.T) {
	t.Parallel()
	flood := strings.Repeat("flood line\r\n", 3000)
	for _, before := range []string{"", flood} {
		for _, n := range []int{70, 75, 76, 77, 79, 80, 156, 157} {
			scr := screen.New(screen.Options{Cols: 80, Rows: 24})
			scr.Write([]byte(before + strings.Repeat("x", n) + ">>> "))
			st := scr.Status()
			want := strings.Repeat("x", n) + ">>> "
			if got := CursorLine(&st); got != want {
				t.Errorf("%d bytes before, %d columns: CursorLine %q", len(before), n, got)
			}
			if name, ok := MatchPrompt(CursorLine(&st)); !ok || name != "shell" {
				t.Errorf("%d bytes before, %d columns: prompt %q %v", len(before), n, name, ok)
			}
		}
	}
}

// A flood is never quiet: the detector must not look at the process tables for the
// settle signal on every check of it, only once the output has been quiet for the
// settle window, and then the kernel's answer still decides.
func TestSettleAsksKernelOnlyWhenQuiet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		quiet time.Duration
		allow bool
		wait  Wait
		asks  bool
		done  bool
	}{
		{"streaming", time.Millisecond, false, Wait{Known: true}, false, false},
		{"streaming, settling allowed", time.Millisecond, true, Wait{Known: true}, false, false},
		{"streaming through a proxy", time.Millisecond, false, Wait{Known: true, Proxy: true}, false, false},
		{"quiet, kernel knows it works", time.Second, true, Wait{Known: true}, true, false},
		{"quiet, kernel cannot tell", time.Second, true, Wait{}, true, true},
		{"quiet through a proxy", time.Second, false, Wait{Known: true, Proxy: true}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked := 0
			st := State{Screen: snap([]string{"x"}, 0, 1, 20), StartWritten: 10, Quiet: tt.quiet, AllowSettle: tt.allow,
				InputWait: func() Wait { asked++; return tt.wait }}
			v := SettleSignal(100*time.Millisecond, true)(&st)
			if (asked > 0) != tt.asks || v.Done != tt.done {
				t.Fatalf("verdict %+v after %d looks; want done=%v, a look: %v", v, asked, tt.done, tt.asks)
			}
			if !tt.asks && v.Recheck != 100*time.Millisecond-tt.quiet {
				t.Fatalf("verdict %+v: want a recheck when the window ends", v)
			}
		})
	}
}
