package integration

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	cpty "github.com/creack/pty"
)

// BenchmarkRemotePrompt times a remote `echo` over ssh to a private sshd, from the
// call to the reply, with two far-side prompts: one no detector knows (only quiet
// ends the reply: the settle window) and Debian's `user@host:~$ `. Besides p50/p99
// it reports the share of replies that settled and the same round trip through ssh
// on a bare PTY with no server (the floor), and how many times the floor p50 is.
func BenchmarkRemotePrompt(b *testing.B) {
	d := startSSHDTB(b)
	d.WriteHomeFile(b, ".bashrc", remoteBashrc)
	floor := rawSSHFloor(b, d)
	s := startServerTB(b)
	for _, c := range []struct{ name, ps1, re string }{
		{"unknown-prompt", remotePS1, `\[remote\] `},
		{"shell-prompt", `\u@\h:\w\$ `, `[^\n]*\$ `},
	} {
		b.Run(c.name, func(b *testing.B) {
			id := login(b, s, d, `\[remote\] `)
			defer s.call("close_session", map[string]any{"session_id": id})
			s.send(id, "PS1='"+c.ps1+"'", map[string]any{"wait_for": c.re + "$", "timeout_ms": 10000})
			var settled float64
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				r := s.send(id, "echo hi", map[string]any{"timeout_ms": 10000})
				lat = append(lat, time.Since(start))
				if !strings.HasPrefix(r.str("output"), "hi\n") {
					b.Fatalf("echo hi: reason %q, output %q", r.str("reason"), r.str("output"))
				}
				if r.str("reason") == "settled" {
					settled++
				}
			}
			b.StopTimer()
			p50 := report(b, lat)
			b.ReportMetric(settled/float64(b.N), "settled-frac")
			b.ReportMetric(float64(floor.Microseconds())/1000, "raw-ssh-p50-ms")
			b.ReportMetric(float64(p50)/float64(floor), "x-floor")
		})
	}
}

// rawSSHFloor is the p50 of `echo hi` through ssh on a bare PTY, Enter to the next
// prompt: what the network and the far shell cost before any server is involved.
func rawSSHFloor(b *testing.B, d *sshd) time.Duration {
	b.Helper()
	cmd := exec.Command("ssh", d.Args()...)
	f, err := cpty.Start(cmd)
	if err != nil {
		b.Fatalf("ssh on a PTY: %v", err)
	}
	r := &rawShell{b: b, f: f, cmd: cmd, buf: make([]byte, 64*1024)}
	defer r.close()
	// Watchdog: a prompt that never comes ends ssh, and the read fails instead of hanging.
	dog := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer dog.Stop()
	// The quotes keep rawPrompt out of the echo, so only the prompt itself ends the wait.
	r.run("PS1='" + rawPrompt[:4] + "''" + rawPrompt[4:] + "'")
	lat := make([]time.Duration, 50)
	for i := range lat {
		lat[i] = r.run("echo hi")
	}
	return percentile(lat, 0.5)
}
