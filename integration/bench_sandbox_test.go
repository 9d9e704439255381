package integration

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkCreateSessionSandbox measures create_session of bash with and without
// the sandbox (allowed paths, programs and the network off, so the launcher
// re-executes the server binary and applies Landlock before exec), alternating the
// two servers so load on the machine hits both alike. It reports both p50s and the
// sandbox's extra cost (target: under 10 ms).
func BenchmarkCreateSessionSandbox(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("Landlock is Linux's")
	}
	work := b.TempDir()
	plain := startServerTB(b)
	boxed := startServerTB(b, "MCP_TERMINAL_ALLOWED_PATHS="+work, "MCP_TERMINAL_ALLOWED_COMMANDS=bash,ls,cat,git,python3",
		"MCP_TERMINAL_NETWORK=off", "PATH=/usr/bin:/bin")
	compareCreate(b, plain, boxed, "sandbox", map[string]any{"cwd": work}, func(r result) {
		if !strings.Contains(r.str("sandbox"), "enforces") {
			b.Fatalf("the sandboxed server did not sandbox: %s", r.Text)
		}
	})
}

// compareCreate times create_session of bash (with extra arguments) on plain and
// other alternately, so load on the machine hits both alike, checks other's
// results, and reports both p50s and other's extra cost, other named name. On a
// shared machine the wall-clock p50s move with the load; the CPU time each server
// and its programs used per create_session (extra-cpu-ms) moves much less.
func compareCreate(b *testing.B, plain, other *server, name string, extra map[string]any, check func(result)) {
	create := func(s *server) time.Duration {
		args := map[string]any{"command": "bash", "args": []any{"--norc", "--noprofile"},
			"env": map[string]any{"MCPT_TEST_MARK": s.mark}}
		for k, v := range extra {
			args[k] = v
		}
		start := time.Now()
		r := s.call("create_session", args)
		d := time.Since(start)
		if r.IsError || !r.boolean("ready") {
			b.Fatalf("create: %s", r.Text)
		}
		if s == other {
			check(r)
		}
		s.call("close_session", map[string]any{"session_id": r.str("session_id")})
		return d
	}
	var dp, do []time.Duration
	cpuPlain, cpuOther := treeCPU(b, plain), treeCPU(b, other)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dp = append(dp, create(plain))
		do = append(do, create(other))
	}
	p, o := percentile(dp, 0.5), percentile(do, 0.5)
	b.ReportMetric(float64(p.Microseconds())/1000, "plain-p50-ms")
	b.ReportMetric(float64(o.Microseconds())/1000, name+"-p50-ms")
	b.ReportMetric(float64((o-p).Microseconds())/1000, "extra-p50-ms")
	cpuPlain, cpuOther = treeCPU(b, plain)-cpuPlain, treeCPU(b, other)-cpuOther
	b.ReportMetric(float64(cpuPlain.Microseconds())/1000/float64(b.N), "plain-cpu-ms")
	b.ReportMetric(float64(cpuOther.Microseconds())/1000/float64(b.N), name+"-cpu-ms")
	b.ReportMetric(float64((cpuOther-cpuPlain).Microseconds())/1000/float64(b.N), "extra-cpu-ms")
}

// treeCPU is the CPU time s's server has used, with its children that have been
// reaped (the launchers and programs of closed sessions): utime, stime, cutime
// and cstime from /proc/PID/stat, in clock ticks of 10 ms (USER_HZ is 100 on
// Linux), so a figure per call needs a few hundred milliseconds in all.
func treeCPU(b *testing.B, s *server) time.Duration {
	b.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		b.Fatal(err)
	}
	_, after, _ := strings.Cut(string(stat), ") ") // the name may hold spaces
	fields := strings.Fields(after)                // from field 3, the state
	var ticks int64
	for _, f := range fields[11:15] { // fields 14-17
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			b.Fatalf("/proc/%d/stat: %v", s.cmd.Process.Pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
