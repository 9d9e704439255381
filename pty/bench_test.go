//go:build linux

package pty

import (
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkInputWait measures one InputWait on a program blocked reading the
// terminal: the session layer calls it on every poll of a wait.
func BenchmarkInputWait(b *testing.B) {
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 not installed")
	}
	for _, bb := range []struct {
		name string
		opts Options
	}{
		{"sh-read", Options{Command: "/bin/sh", Args: []string{"-c", "echo ready; read x"}}},
		{"python-poll", Options{Command: py, Args: []string{"-c", "import os, select\n" +
			"r, w = os.pipe(); p = select.poll(); p.register(0, select.POLLIN); p.register(r, select.POLLIN)\n" +
			"print('ready', flush=True); p.poll()"}}},
		{"python-select-timeout", Options{Command: py, Args: []string{"-c", "import select\n" +
			"print('ready', flush=True); select.select([0], [], [], 1000)"}}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			p, out := start(b, bb.opts)
			out.waitFor(b, "ready")
			eventually(b, 5*time.Second, func() bool { w := p.InputWait(); return w.Reading || w.Proxy },
				func() string { return fmt.Sprintf("never blocked reading: %+v", p.InputWait()) })
			b.ReportAllocs()
			for b.Loop() {
				p.InputWait()
			}
		})
	}
}

// BenchmarkPendingInput measures the slave's open, FIONREAD and close, which
// InputWait adds for a reader.
func BenchmarkPendingInput(b *testing.B) {
	p, out := shell(b, "echo ready; read x")
	out.waitFor(b, "ready")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.PendingInput(); err != nil {
			b.Fatal(err)
		}
	}
}
