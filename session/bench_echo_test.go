package session

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkEcho is one short command and its reply through an integrated bash
// session, without MCP: the session's share of a send_command's CPU time, which
// bounds how many calls a second a server answers (`-cpuprofile` shows where it
// goes).
func BenchmarkEcho(b *testing.B) {
	if _, err := exec.LookPath("bash"); err != nil {
		b.Skip("bash not installed")
	}
	s := benchBash(b)
	b.ReportAllocs()
	before := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		want := "e" + strconv.Itoa(i)
		r, err := s.Send(context.Background(), Input{Text: "echo " + want, AppendNewline: true, Timeout: time.Minute})
		if err != nil || !r.Complete || !strings.Contains(r.Output, want) {
			b.Fatalf("echo %s: %v, complete %v (%s), output %q", want, err, r.Complete, r.Reason, r.Output)
		}
	}
	// The server's own CPU time per call (bash's is not counted): on a shared
	// host, steadier than the wall time.
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-µs/op")
}
