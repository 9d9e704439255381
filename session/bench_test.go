package session

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkBulkOutput runs bulk output through a session (PTY → screen → detector →
// reply cut), without MCP: `go test -bench BulkOutput -cpuprofile` shows where the
// server's per-byte time goes.
func BenchmarkBulkOutput(b *testing.B) {
	if _, err := exec.LookPath("bash"); err != nil {
		b.Skip("bash not installed")
	}
	file := filepath.Join(b.TempDir(), "coloured.txt")
	var sb strings.Builder
	for i := 0; sb.Len() < 5<<20; i++ {
		fmt.Fprintf(&sb, "\x1b[1;3%dm%06d\x1b[0m \x1b[38;5;%dmsrc/pkg/file_%d.go\x1b[0m:%d: \x1b[31merror\x1b[0m: something went wrong\n",
			i%8, i, i%256, i%97, i%1000)
	}
	if err := os.WriteFile(file, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, command, tail string }{
		{"cat-5MB-coloured", "cat " + file, "something went wrong\n"},
		{"seq-200000", "seq 1 200000", "200000\n"},
		{"seq-1000000", "seq 1 1000000", "1000000\n"},
		{"seq-5000000", "seq 1 5000000", "5000000\n"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := benchBash(b)
			before := cpuTime()
			b.ResetTimer()
			for range b.N {
				r, err := s.Send(context.Background(), Input{Text: tc.command, AppendNewline: true, Timeout: time.Minute})
				if err != nil || !r.Complete || !strings.Contains(r.Output, tc.tail) {
					b.Fatalf("%s: %v complete %v", tc.command, err, r.Complete)
				}
			}
			// The server's own CPU time per run (the programs' is not counted): on a
			// shared host, steadier than the wall time.
			b.ReportMetric(float64((cpuTime()-before).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// benchBash is a plain bash session ready at its "$ " prompt, in a manager of
// its own that shuts down when the benchmark ends.
func benchBash(b *testing.B) *Session {
	b.Helper()
	m := NewManager(Config{MaxSessions: 2, IdleTimeout: -1})
	b.Cleanup(func() { m.Shutdown(context.Background()) })
	s, err := m.Create(CreateOptions{Command: "bash", Args: []string{"--norc", "--noprofile"},
		Env: map[string]string{"PS1": "$ ", "HISTFILE": "/dev/null"}})
	if err != nil {
		b.Fatal(err)
	}
	s.Startup(context.Background(), 5*time.Second)
	return s
}

// BenchmarkCloseMany opens 300 idle bash sessions and closes them all, sixteen at a
// time, without MCP: `-cpuprofile` shows what a close costs.
func BenchmarkCloseMany(b *testing.B) {
	if _, err := exec.LookPath("bash"); err != nil {
		b.Skip("bash not installed")
	}
	const n = 300
	for range b.N {
		b.StopTimer()
		m := NewManager(Config{MaxSessions: n, IdleTimeout: -1})
		ids := make([]string, n)
		for i := range ids {
			s, err := m.Create(CreateOptions{Command: "bash", Args: []string{"--norc", "--noprofile"},
				Env: map[string]string{"PS1": "$ ", "HISTFILE": "/dev/null"}})
			if err != nil {
				b.Fatal(err)
			}
			s.Startup(context.Background(), 5*time.Second)
			ids[i] = s.ID
		}
		b.StartTimer()
		var wg sync.WaitGroup
		next := make(chan string)
		for range 16 {
			wg.Go(func() {
				for id := range next {
					if _, err := m.Close(context.Background(), id, 0); err != nil {
						b.Error(err)
					}
				}
			})
		}
		for _, id := range ids {
			next <- id
		}
		close(next)
		wg.Wait()
		b.StopTimer()
		m.Shutdown(context.Background())
	}
}

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
