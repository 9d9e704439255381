//go:build linux

package pty

import (
	"fmt"
	"os/exec"
	"testing"
	"time"
)

func TestInputWait(t *testing.T) {
	p, out := shell(t, "echo ready; read x; echo got $x; sleep 1000")
	out.waitFor(t, "ready")
	eventually(t, 5*time.Second, func() bool { return p.InputWait().Reading },
		func() string { return fmt.Sprintf("read never seen as input wait: %+v", p.InputWait()) })
	before := p.InputWait()
	if !before.Known || before.Proxy || before.PID != p.Pid() {
		t.Fatalf("reading: %+v", before)
	}
	if _, err := p.Write(t.Context(), []byte("hi\n")); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "got hi")
	eventually(t, 5*time.Second, func() bool { return !p.InputWait().Reading },
		func() string { return fmt.Sprintf("sleep seen as input wait: %+v", p.InputWait()) })
	if w := p.InputWait(); !w.Known {
		t.Fatalf("sleeping: %+v", w)
	}
}

func TestInputWaitWakeupsGrow(t *testing.T) {
	p, out := shell(t, "echo ready; while read x; do echo got $x; done")
	out.waitFor(t, "ready")
	eventually(t, 5*time.Second, func() bool { return p.InputWait().Reading }, func() string { return "no input wait" })
	before := p.InputWait()
	if _, err := p.Write(t.Context(), []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "got one")
	eventually(t, 5*time.Second, func() bool {
		w := p.InputWait()
		return w.Reading && w.Wakeups > before.Wakeups
	}, func() string { return fmt.Sprintf("wakeups did not grow: before %+v now %+v", before, p.InputWait()) })
}

func TestInputWaitProxy(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	// Waits on the terminal and a pipe at once, as ssh waits on the terminal and a socket.
	p, out := start(t, Options{Command: py, Args: []string{"-c",
		"import os, select; r, w = os.pipe(); print('ready', flush=True); select.select([0, r], [], [])"}})
	out.waitFor(t, "ready")
	eventually(t, 5*time.Second, func() bool { return p.InputWait().Proxy },
		func() string { return fmt.Sprintf("not seen as a proxy: %+v", p.InputWait()) })
	if w := p.InputWait(); w.Reading {
		t.Fatalf("a proxy counted as reading: %+v", w)
	}
}

func TestInputHidden(t *testing.T) {
	p, out := shell(t, "echo ready; read x; stty -echo; echo hidden; read y; stty raw -echo; echo raw; sleep 1000")
	out.waitFor(t, "ready")
	if h, err := p.InputHidden(); err != nil || h {
		t.Fatalf("InputHidden = %v, %v at a normal read", h, err)
	}
	p.Write(t.Context(), []byte("\n"))
	out.waitFor(t, "hidden")
	if h, err := p.InputHidden(); err != nil || !h {
		t.Fatalf("InputHidden = %v, %v with echo off in line mode", h, err)
	}
	p.Write(t.Context(), []byte("secret\n"))
	out.waitFor(t, "raw")
	if h, _ := p.InputHidden(); h {
		t.Fatal("raw mode without echo (a line editor) counted as hidden")
	}
}
