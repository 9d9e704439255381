package integration

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkHTTPLoad is the HTTP transport under load: 50 clients, each on its own
// connection and its own bash session, make 20 send_command calls at once (with a
// static token checked on every request). It reports the latency of one call
// (p50, p99), the calls that failed, the server's peak resident memory, and the
// CPU time per call of the server, of the clients (this process) and of the
// shells: on a machine of two cores their sum bounds the calls per second, and so
// (Little's law, 50 calls always in flight) the latency. MCPT_BENCH_CLIENTS=n
// runs n clients of 1000/n calls instead, e.g. 1 for the latency of a lone call.
//
// It runs once for each protocol era the endpoint serves: the session-based one
// (initialize, then Mcp-Session-Id on every request: what the official SDKs
// speak), and the stateless 2026-07-28 one, where mcp-go makes a session and its
// channels for every request and decodes the request's _meta again in several
// places, which costs the server and the clients about a quarter more CPU per
// call.
func BenchmarkHTTPLoad(b *testing.B) {
	clients, calls := 50, 20
	if n, err := strconv.Atoi(os.Getenv("MCPT_BENCH_CLIENTS")); err == nil {
		clients, calls = n, 1000/n
	}
	if _, err := os.Stat("/bin/bash"); err != nil {
		b.Skip("bash is not installed")
	}
	for _, era := range []string{legacyEra, modernEra} {
		b.Run("era="+era, func(b *testing.B) { httpLoad(b, era, clients, calls) })
	}
}

func httpLoad(b *testing.B, era string, clients, calls int) {
	for range b.N {
		b.StopTimer()
		h := startHTTP(b, []string{"--auth-tokens-file", benchTokens(b), "--max-sessions", "60"})
		conns := make([]*server, clients)
		ids := make([]string, clients)
		for i := range conns {
			// A transport of its own: mcp-go's default client shares
			// http.DefaultTransport, which keeps two idle connections per host, so
			// fifty clients would keep closing and opening connections.
			own := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
			conns[i] = h.connect(b, aliceToken, era, transport.WithHTTPBasicClient(own))
			ids[i] = conns[i].bash(nil)
		}
		var (
			mu     sync.Mutex
			lat    []time.Duration
			errors int
			wg     sync.WaitGroup
		)
		cpu0, client0, shells0 := cpuTime(b, h.cmd.Process.Pid), selfCPU(), childrenCPU(b, h.cmd.Process.Pid)
		b.StartTimer()
		for i, s := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range calls {
					began := time.Now()
					res, err := s.c.CallTool(s.ctx, toolRequest("send_command", map[string]any{"session_id": ids[i], "input": fmt.Sprintf("echo c%d-%d", i, j)}))
					d := time.Since(began)
					ok := err == nil && !res.IsError && strings.Contains(text(res), fmt.Sprintf("c%d-%d", i, j))
					mu.Lock()
					lat = append(lat, d)
					if !ok {
						errors++
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		b.StopTimer()
		report(b, lat)
		b.ReportMetric(float64(errors), "errors")
		perCall := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(clients*calls) }
		b.ReportMetric(perCall(cpuTime(b, h.cmd.Process.Pid)-cpu0), "server-cpu-ms/call")
		b.ReportMetric(perCall(selfCPU()-client0), "client-cpu-ms/call")
		b.ReportMetric(perCall(childrenCPU(b, h.cmd.Process.Pid)-shells0), "shells-cpu-ms/call")
		b.ReportMetric(float64(peakRSS(b, h.cmd.Process.Pid))/1024, "server-peak-RSS-MB")
		h.stop()
	}
}

func text(res *mcp.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}

// peakRSS is a process's peak resident set (VmHWM), in KiB.
func peakRSS(b *testing.B, pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}

// cpuTime is the user and system time a process has used (clock ticks of 10 ms).
func cpuTime(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// selfCPU is the user and system time this process (the benchmark's clients)
// has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childrenCPU is the time the server's children (the sessions' programs) have
// used. It reads the scheduler's count in nanoseconds (schedstat) where the
// kernel has one: a shell runs for tens of microseconds per call, and the clock
// ticks of stat would charge most of its runs to nobody.
func childrenCPU(b *testing.B, pid int) time.Duration {
	var sum time.Duration
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, t := range tasks {
		list, _ := os.ReadFile(t)
		for _, f := range strings.Fields(string(list)) {
			if child, err := strconv.Atoi(f); err == nil {
				sum += runTime(b, child)
			}
		}
	}
	return sum
}

// runTime is the time a single-threaded process has run: the scheduler's count
// (/proc/<pid>/schedstat, nanoseconds), else its clock ticks.
func runTime(b *testing.B, pid int) time.Duration {
	if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid)); err == nil {
		if f := strings.Fields(string(st)); len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				return time.Duration(ns)
			}
		}
	}
	return cpuTime(b, pid)
}

func benchTokens(b *testing.B) string {
	path := b.TempDir() + "/tokens"
	if err := os.WriteFile(path, []byte("alice "+aliceToken+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}
