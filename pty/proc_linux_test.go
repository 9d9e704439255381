package pty

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Tests that look at the session through /proc. Those that count the test process's
// children (zombieChildren) are not parallel: other tests' children would count.

func TestCloseEndsTheWholeSession(t *testing.T) {
	tests := []struct {
		name, script string
		check        func(t *testing.T, p *Process, procs []proc) // before Close
	}{
		{"shell ignoring HUP and TERM", `trap '' HUP TERM; echo ready; while :; do sleep 1; done`, nil},
		{"background job in its own group", `set -m; sleep 1000 & echo ready; wait`,
			func(t *testing.T, p *Process, procs []proc) {
				for _, pr := range procs {
					if pr.pid != p.Pid() && pr.pgid != p.Pid() {
						return
					}
				}
				t.Errorf("no member of the session has a process group of its own: %+v", procs)
			}},
		{"double-forked child", `(sleep 1000 &); echo ready; sleep 1000`,
			func(t *testing.T, p *Process, procs []proc) {
				for _, pr := range procs {
					if pr.pid != p.Pid() && pr.ppid == os.Getpid() {
						return
					}
				}
				t.Errorf("no orphan was reparented to the test process: %+v", procs)
			}},
		{"stopped job", `set -m; sleep 1000 & kill -STOP $!; echo ready; sleep 1000`, nil},
		{"setsid child", `setsid sleep 1000 & echo ready; wait`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, out := shell(t, tt.script)
			out.waitFor(t, "ready")
			var procs []proc
			eventually(t, 10*time.Second, func() bool {
				procs, _ = sessionProcs(p.Pid())
				return len(procs) >= 2
			}, func() string { return "the session never had two processes" })
			if tt.check != nil {
				tt.check(t, p, procs)
			}
			if err := p.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			if _, ok := p.Exit(); !ok {
				t.Error("leader not reaped after Close")
			}
			if left, _ := sessionProcs(p.Pid()); len(left) > 0 {
				t.Errorf("processes left after Close: %+v", left)
			}
			for _, pr := range procs {
				if _, ok := readStat(pr.pid); ok {
					t.Errorf("process %d is still there", pr.pid)
				}
			}
			if z := zombieChildren(t); len(z) > 0 {
				t.Errorf("zombie children of the test process: %v", z)
			}
		})
	}
}

func TestForeground(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p, out := start(t, Options{Command: "sh", Args: []string{"-c", "set -m; echo ready; sleep 1000; :"}, Dir: dir})
	out.waitFor(t, "ready")
	var fg int
	eventually(t, 10*time.Second, func() bool {
		var err error
		fg, err = p.Foreground()
		return err == nil && fg != p.Pid() && p.ProcessName(fg) == "sleep"
	}, func() string { return "the job never came to the foreground" })
	if pr, ok := readStat(fg); !ok || pr.pgid != fg || pr.sid != p.Pid() {
		t.Errorf("foreground %d is not a job of the session: %+v", fg, pr)
	}
	if got := p.ProcessName(p.Pid()); got != "sh" && got != "dash" && got != "bash" {
		t.Errorf("ProcessName(leader) = %q", got)
	}
	if got, want := p.Cwd(fg), resolve(t, dir); got != want {
		t.Errorf("Cwd = %q, want %q", got, want)
	}
	if got := p.ProcessName(-1) + p.Cwd(1<<30); got != "" {
		t.Errorf("unknown pid gave %q", got)
	}
	// Ctrl+C goes to the foreground job. (The shell then ends itself with SIGINT
	// too, as shells do when their foreground job died of it.)
	if err := p.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, func() bool { pr, ok := readStat(fg); return !ok || pr.zombie },
		func() string { return "the foreground job survived SIGINT" })
	waitDone(t, p)
}

// zombieChildren lists exited children of the test process nobody reaped.
func zombieChildren(t *testing.T) []int {
	t.Helper()
	all, ok := procTable()
	if !ok {
		t.Skip("no /proc")
	}
	var z []int
	for _, pr := range all {
		if pr.ppid == os.Getpid() && pr.zombie {
			z = append(z, pr.pid)
		}
	}
	return z
}

func TestReadStat(t *testing.T) {
	t.Parallel()
	pr, ok := readStat(os.Getpid())
	if !ok || pr.pid != os.Getpid() || pr.ppid != os.Getppid() || pr.pgid != syscall.Getpgrp() {
		t.Errorf("readStat(self) = %+v, %v", pr, ok)
	}
	if _, ok := readStat(1 << 30); ok {
		t.Error("readStat of a missing pid succeeded")
	}
	if got := processName(os.Getpid()); !strings.HasPrefix("pty.test", got) && !strings.HasPrefix(got, "pty.test") {
		t.Errorf("processName(self) = %q", got)
	}
}

// A background job that outlives the leader keeps the terminal open: Read does
// not report EOF, Done does report the exit, and Close ends the job and keeps
// the leader's exit code.
func TestLeaderExitsBeforeItsJob(t *testing.T) {
	t.Parallel()
	p, out := shell(t, `set -m; sleep 1000 & echo ready`)
	out.waitFor(t, "ready")
	if st := waitDone(t, p); st != (ExitStatus{}) {
		t.Fatalf("exit %+v, want 0", st)
	}
	job, _ := sessionProcs(p.Pid())
	if len(job) == 0 {
		t.Fatal("the background job did not survive the leader")
	}
	select {
	case <-out.eof:
		t.Fatalf("Read ended (%v) while the job still holds the terminal", out.err)
	case <-time.After(50 * time.Millisecond):
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	<-out.eof
	if left, _ := sessionProcs(p.Pid()); len(left) > 0 {
		t.Errorf("processes left after Close: %+v", left)
	}
	if st, _ := p.Exit(); st != (ExitStatus{}) {
		t.Errorf("exit after Close %+v, want 0", st)
	}
}

// An interactive bash ignores SIGTERM and puts every job in its own process
// group; Close still ends it and all its jobs.
func TestCloseInteractiveBash(t *testing.T) {
	if _, err := lookPath("bash", "", os.Getenv("PATH")); err != nil {
		t.Skip("no bash")
	}
	p, out := start(t, Options{Command: "bash", Args: []string{"--norc", "--noprofile", "-i"},
		Env: map[string]string{"PS1": "$ "}})
	out.waitFor(t, "$ ")
	input := "sleep 1000 &\n(sleep 1001 &)\nsleep 1002 &\nkill -STOP %2\necho ready-$((40+2))\n"
	if _, err := p.Write(t.Context(), []byte(input)); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "ready-42")
	eventually(t, 10*time.Second, func() bool {
		procs, _ := sessionProcs(p.Pid())
		return len(procs) >= 4
	}, func() string { return "the jobs did not start" })
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if left, _ := sessionProcs(p.Pid()); len(left) > 0 {
		t.Errorf("processes left after Close: %+v", left)
	}
	if z := zombieChildren(t); len(z) > 0 {
		t.Errorf("zombie children of the test process: %v", z)
	}
}
