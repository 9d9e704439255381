package integration

import (
	"runtime"
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
// results, and reports both p50s and other's extra cost, other named name.
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
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dp = append(dp, create(plain))
		do = append(do, create(other))
	}
	p, o := percentile(dp, 0.5), percentile(do, 0.5)
	b.ReportMetric(float64(p.Microseconds())/1000, "plain-p50-ms")
	b.ReportMetric(float64(o.Microseconds())/1000, name+"-p50-ms")
	b.ReportMetric(float64((o-p).Microseconds())/1000, "extra-p50-ms")
}
