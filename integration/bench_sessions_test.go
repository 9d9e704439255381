package integration

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// procStatus reads one numeric field (in kB for sizes) of /proc/<pid>/status.
func procStatus(t testing.TB, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skip("no /proc")
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// parallel runs f(i) for i in [0, n) on workers goroutines.
func parallel(n, workers int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}

// BenchmarkThousandSessions opens 1000 idle bash sessions (120x40) in one server
// (the limit raised to its maximum, 1000) and reports: create-p50-ms (each create_session call,
// eight at a time), MiB/idle-session (server RSS growth over the first session,
// divided by the sessions), threads (the server's OS threads with all of them open)
// and threads/session, echo-p50-ms and echo-p99-ms (`echo` in every session in
// turn, 1000 open), close-all-s (closing all 1000, sixteen calls at a time).
// Targets (issue 12): ≤ 0.25 MiB and no OS thread per idle session, echo p99
// < 10 ms, close-all < 5 s. Not part of make test: run it with make bench.
func BenchmarkThousandSessions(b *testing.B) {
	const n = 1000
	for range b.N {
		s := startServerTB(b, "MCP_TERMINAL_MAX_SESSIONS="+strconv.Itoa(n), "MCP_TERMINAL_IDLE_TIMEOUT=0")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		s.ctx = ctx
		pid := s.cmd.Process.Pid
		warm := s.bash(nil)
		s.send(warm, "echo warm", nil)
		baseRSS := procStatus(b, pid, "VmRSS")
		baseThreads := procStatus(b, pid, "Threads")

		ids := make([]string, n) // ids[0] is the first session, already open
		ids[0] = warm
		creates := make([]time.Duration, n-1)
		parallel(n-1, 8, func(i int) {
			start := time.Now()
			ids[i+1] = s.bash(nil)
			creates[i] = time.Since(start)
		})
		idleRSS := procStatus(b, pid, "VmRSS")
		threads := procStatus(b, pid, "Threads")

		echoes := make([]time.Duration, n)
		for i, id := range ids {
			start := time.Now()
			r := s.send(id, "echo hi", nil)
			echoes[i] = time.Since(start)
			if r.str("output") != "hi\n$ " {
				b.Fatalf("session %d: output %q", i, r.str("output"))
			}
		}

		start := time.Now()
		parallel(n, 16, func(i int) {
			if r := s.call("close_session", map[string]any{"session_id": ids[i]}); r.IsError {
				b.Errorf("close %s: %s", ids[i], r.Text)
			}
		})
		closeAll := time.Since(start)
		cancel()

		b.ReportMetric(float64(percentile(creates, 0.5).Microseconds())/1000, "create-p50-ms")
		b.ReportMetric(float64(idleRSS-baseRSS)/(n-1)/1024, "MiB/idle-session")
		b.ReportMetric(float64(threads), "threads")
		b.ReportMetric(float64(threads-baseThreads)/(n-1), "threads/session")
		b.ReportMetric(float64(percentile(echoes, 0.5).Microseconds())/1000, "echo-p50-ms")
		b.ReportMetric(float64(percentile(echoes, 0.99).Microseconds())/1000, "echo-p99-ms")
		b.ReportMetric(closeAll.Seconds(), "close-all-s")
		b.ReportMetric(0, "ns/op")
	}
}
