package integration

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// End-to-end latencies off the happy path (go test -run '^$' -bench OffPath
// -benchtime 30x ./integration/): keys without Enter into vim and less, gdb's y/n
// question, output after a screen clear, top started from bash. Each case reports
// its p50 and p99 in milliseconds and the share of its calls that came back
// incomplete; a benchmark fails only when a reply shows the wrong screen, never on
// time.

// opCases times the calls of a benchmark, case by case.
type opCases struct {
	b          *testing.B
	order      []string
	d          map[string][]time.Duration
	incomplete map[string]int
}

func newOpCases(b *testing.B) *opCases {
	return &opCases{b: b, d: map[string][]time.Duration{}, incomplete: map[string]int{}}
}

// time runs one call of the named case and records how long it took.
func (c *opCases) time(name string, call func() result) result {
	start := time.Now()
	r := call()
	took := time.Since(start)
	if _, seen := c.d[name]; !seen {
		c.order = append(c.order, name)
	}
	c.d[name] = append(c.d[name], took)
	if !r.boolean("is_complete") {
		c.incomplete[name]++
	}
	return r
}

// report publishes every case's figures.
func (c *opCases) report() {
	for _, name := range c.order {
		d := c.d[name]
		c.b.ReportMetric(float64(percentile(d, 0.5).Microseconds())/1000, name+"-p50-ms")
		c.b.ReportMetric(float64(percentile(d, 0.99).Microseconds())/1000, name+"-p99-ms")
		c.b.ReportMetric(float64(c.incomplete[name])/float64(len(d)), name+"-incomplete/call")
	}
}

// wrong fails the benchmark on a reply that shows the wrong thing.
func (c *opCases) wrong(ok bool, r result, format string, args ...any) {
	c.b.Helper()
	if !ok {
		c.b.Fatalf(format+"\n%s", append(args, opDump(r))...)
	}
}

func opNeedTB(tb testing.TB, programs ...string) {
	tb.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			tb.Skipf("%s is not installed (.ci/run installs it)", p)
		}
	}
}

// BenchmarkOffPathVimKey: "ixyz" typed without Enter, then Escape (vim acts on it
// after ttimeoutlen, 100 ms here).
func BenchmarkOffPathVimKey(b *testing.B) {
	opNeedTB(b, "vim")
	s := startServerTB(b)
	file := filepath.Join(b.TempDir(), "bench.txt")
	id := opCreate(s, "vim", map[string]any{"args": []any{"-u", "NONE", "-i", "NONE", "-N",
		"--cmd", "set ttimeout ttimeoutlen=100", file}}).str("session_id")
	c := newOpCases(b)
	keys := map[string]any{"append_newline": false, "timeout_ms": 5000}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := c.time("ixyz", func() result { return s.send(id, "ixyz", keys) })
		c.wrong(strings.Contains(r.str("output"), "xyz") && strings.Contains(r.str("output"), "-- INSERT --"), r,
			"ixyz: want xyz and -- INSERT --")
		r = c.time("escape", func() result { return opKeys(s, id, "escape", map[string]any{"timeout_ms": 5000}) })
		c.wrong(!strings.Contains(r.str("output"), "-- INSERT --"), r, "escape: vim is still in insert mode on the reply's screen")
		if i%50 == 49 {
			b.StopTimer()
			s.send(id, "dd", keys) // keep the line from wrapping over the screen
			b.StartTimer()
		}
	}
	b.StopTimer()
	c.report()
}

// BenchmarkOffPathLessSearch: a search typed into less with Enter.
func BenchmarkOffPathLessSearch(b *testing.B) {
	opNeedTB(b, "less", "seq")
	s := startServerTB(b)
	id := s.bash(map[string]any{"LESS": ""})
	if r := s.send(id, "seq 1 100000 | less", map[string]any{"timeout_ms": 5000}); !strings.HasPrefix(r.str("output"), "1\n") {
		b.Fatalf("less did not show the first page:\n%s", opDump(r))
	}
	c := newOpCases(b)
	last := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 1000 + (i*7919)%98000
		if n <= last {
			b.StopTimer()
			s.send(id, "g", map[string]any{"append_newline": false, "timeout_ms": 5000})
			b.StartTimer()
		}
		last = n
		want := fmt.Sprint(n)
		r := c.time("search", func() result {
			return s.send(id, "/^"+want+"$", map[string]any{"timeout_ms": 5000})
		})
		c.wrong(opHasLine(r.str("output"), want), r, "/^%s$: the line is not on the screen", want)
	}
	b.StopTimer()
	c.report()
	opKeys(s, id, "q", map[string]any{"timeout_ms": 5000})
}

// BenchmarkOffPathGdbYN: quit with a live inferior (gdb asks "Quit anyway? (y or
// n)"), then y.
func BenchmarkOffPathGdbYN(b *testing.B) {
	opNeedTB(b, "gdb")
	s := startServerTB(b)
	c := newOpCases(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		id := opCreate(s, "gdb", map[string]any{"args": []any{"-q", "-nx", "--args", "/bin/sleep", "100"}}).str("session_id")
		if r := s.send(id, "starti", map[string]any{"timeout_ms": 10000}); !strings.Contains(r.str("output"), "Program stopped") {
			b.Skipf("gdb cannot start a program here:\n%s", opDump(r))
		}
		b.StartTimer()
		r := c.time("quit", func() result { return s.send(id, "quit", map[string]any{"timeout_ms": 5000}) })
		c.wrong(strings.Contains(r.str("output"), "Quit anyway? (y or n)"), r, "quit: gdb's question is missing")
		c.time("y", func() result { return s.send(id, "y", map[string]any{"timeout_ms": 5000}) })
		b.StopTimer()
		s.call("close_session", map[string]any{"session_id": id})
		b.StartTimer()
	}
	b.StopTimer()
	c.report()
}

// BenchmarkOffPathClearEcho: `clear; echo x` must still return x.
func BenchmarkOffPathClearEcho(b *testing.B) {
	s := startServerTB(b)
	id := s.bash(nil)
	c := newOpCases(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tok := opToken("x")
		r := c.time("clear-echo", func() result { return s.send(id, "clear; echo "+tok, map[string]any{"timeout_ms": 5000}) })
		c.wrong(opHasLine(r.str("output"), tok), r, "the output after clear is missing")
	}
	b.StopTimer()
	c.report()
}

// BenchmarkOffPathTopFromBash: top on the normal screen from bash, then q.
func BenchmarkOffPathTopFromBash(b *testing.B) {
	opNeedTB(b, "top")
	s := startServerTB(b)
	id := s.bash(nil)
	c := newOpCases(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := c.time("top", func() result { return s.send(id, "TERM=xterm top", map[string]any{"timeout_ms": 3000}) })
		c.wrong(opHasLinePrefix(r.str("output"), "top - "), r, "top's header line is missing")
		r = c.time("q", func() result { return opKeys(s, id, "q", map[string]any{"timeout_ms": 3000}) })
		c.wrong(strings.HasSuffix(r.str("output"), "$ "), r, "q: the shell prompt is not back")
	}
	b.StopTimer()
	c.report()
}
