//go:build linux

package pty

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestInputWait(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

func TestInputHidden(t *testing.T) {
	t.Parallel()
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

// waitHelper starts the fake child blocked again and again in call on the
// terminal, with a timeout of ms (negative: none) and an extra descriptor unless
// extra is "" (see helperWait).
func waitHelper(t *testing.T, call string, ms int, extra string) *Process {
	t.Helper()
	if _, ok := testCalls[runtime.GOARCH][call]; !ok {
		t.Skipf("%s has no %s system call", runtime.GOARCH, call)
	}
	args := []string{call, strconv.Itoa(ms)}
	if extra != "" {
		args = append(args, extra)
	}
	p, out := helper(t, "wait", args...)
	out.waitFor(t, "ready")
	return p
}

// waitBlocked waits until the program is seen blocked in call on the terminal,
// reading or as a proxy, and returns what InputWait saw.
func waitBlocked(t *testing.T, p *Process, call string) Waiting {
	t.Helper()
	nr := testCalls[runtime.GOARCH][call]
	var w Waiting
	eventually(t, 5*time.Second, func() bool {
		w = p.InputWait()
		return (w.Reading || w.Proxy) && w.Syscall == nr
	}, func() string { return fmt.Sprintf("never seen blocked in %s (%d): %+v", call, nr, w) })
	return w
}

func TestInputWaitProxy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		call, extra string
		proxy       bool
	}{
		{"ppoll", "pipe", false},
		{"pselect6", "pipe", false},
		{"epoll_pwait", "pipe", false},
		{"poll", "pipe", false},
		{"select", "pipe", false},
		{"ppoll", "inotify", false},
		{"ppoll", "socket", true},
		{"pselect6", "socket", true},
		{"epoll_pwait", "socket", true},
		{"ppoll", "ptmx", true},
		{"pselect6", "ptmx", true},
		{"epoll_pwait", "ptmx", true},
	}
	for _, tt := range tests {
		t.Run(tt.call+"/"+tt.extra, func(t *testing.T) {
			t.Parallel()
			w := waitBlocked(t, waitHelper(t, tt.call, -1, tt.extra), tt.call)
			if w.Proxy != tt.proxy || w.Reading == tt.proxy {
				t.Errorf("waiting on the terminal and a %s: %+v, want Proxy %v", tt.extra, w, tt.proxy)
			}
		})
	}
}

func TestInputWaitTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		call string
		ms   int
		want time.Duration
	}{
		{"read", -1, 0},
		{"poll", 2000, 2 * time.Second},
		{"poll", -1, 0},
		{"ppoll", 1500, 1500 * time.Millisecond},
		{"ppoll", -1, 0},
		{"select", 300, 300 * time.Millisecond},
		{"select", -1, 0},
		{"pselect6", 700, 700 * time.Millisecond},
		{"pselect6", -1, 0},
		{"epoll_wait", 5000, 5 * time.Second},
		{"epoll_wait", -1, 0},
		{"epoll_pwait", 4000, 4 * time.Second},
		{"epoll_pwait", -1, 0},
		{"epoll_pwait2", 2500, 2500 * time.Millisecond},
		{"epoll_pwait2", -1, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.call, tt.ms), func(t *testing.T) {
			t.Parallel()
			w := waitBlocked(t, waitHelper(t, tt.call, tt.ms, ""), tt.call)
			if !w.Reading || w.Timeout != tt.want {
				t.Errorf("%+v, want Reading with Timeout %v", w, tt.want)
			}
		})
	}
}

// Python's select module goes through the C library, which may pick another
// system call than its name says (select as pselect6, say): the timeout must
// come out the same.
func TestInputWaitTimeoutPython(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	tests := []struct {
		name, script string
		want         time.Duration
		calls        []string
	}{
		{"poll", "p = select.poll(); p.register(0, select.POLLIN)\nwhile True: p.poll(2000)",
			2 * time.Second, []string{"poll", "ppoll"}},
		{"poll forever", "p = select.poll(); p.register(0, select.POLLIN)\nwhile True: p.poll(-1)",
			0, []string{"poll", "ppoll"}},
		{"select", "while True: select.select([0], [], [], 0.3)",
			300 * time.Millisecond, []string{"select", "pselect6"}},
		{"epoll", "e = select.epoll(); e.register(0, select.EPOLLIN)\nwhile True: e.poll(5)",
			5 * time.Second, []string{"epoll_wait", "epoll_pwait", "epoll_pwait2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, out := start(t, Options{Command: py, Args: []string{"-c",
				"import select\nprint('ready', flush=True)\n" + tt.script}})
			out.waitFor(t, "ready")
			var w Waiting
			eventually(t, 5*time.Second, func() bool { w = p.InputWait(); return w.Reading },
				func() string { return fmt.Sprintf("never seen reading: %+v", w) })
			call := callName(w.Syscall)
			t.Logf("python blocks in %s", call)
			if !slices.Contains(tt.calls, call) {
				t.Errorf("blocked in %s (%d), want one of %v", call, w.Syscall, tt.calls)
			}
			if d := w.Timeout - tt.want; d < -time.Millisecond || d > time.Millisecond || (tt.want == 0) != (w.Timeout == 0) {
				t.Errorf("Timeout %v, want %v", w.Timeout, tt.want)
			}
		})
	}
}

func callName(nr int) string {
	for name, n := range testCalls[runtime.GOARCH] {
		if n == nr {
			return name
		}
	}
	return strconv.Itoa(nr)
}

// Real programs that wait on the terminal beside descriptors of their own.
func TestInputWaitPrograms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		prog, script, ready string
		proxy               bool
	}{
		{"less", "seq 1 100000 | less", "2", false},                                     // 590 reads the tty; newer ones poll it and the pipe
		{"gdb", "gdb -q -nx", "(gdb)", false},                                           // polls the tty, pipes and eventfds
		{"script", "script -q -c cat /dev/null", "", false},                             // polls the tty and a pty master: the cat behind it reads (relayed)
		{"tmux", "tmux -L " + tmuxSocket(t) + " -f /dev/null new -s t", "[t] 0:", true}, // its server reads the tty
	}
	for _, tt := range tests {
		t.Run(tt.prog, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(tt.prog); err != nil {
				t.Skipf("%s not installed", tt.prog)
			}
			p, out := shell(t, tt.script)
			out.waitFor(t, tt.ready)
			var w Waiting
			// A relay looked behind (script) is a proxy for the moment before its
			// program starts reading: wait for the answer the test is about.
			eventually(t, 10*time.Second, func() bool { w = p.InputWait(); return w.Proxy == tt.proxy && (w.Reading || w.Proxy) },
				func() string { return fmt.Sprintf("never seen waiting as expected: %+v\n%s", w, out) })
			t.Logf("%s blocks in %s", tt.prog, callName(w.Syscall))
			if w.Proxy != tt.proxy {
				t.Errorf("%+v, want Proxy %v", w, tt.proxy)
			}
		})
	}
}

// A program that sleeps in select or poll with no descriptors waits for nothing
// but time, though it holds the terminal open: it is not reading it. (It used to be
// judged by every descriptor it holds, as if its wait set could not be read, so
// tclsh's `after 400; puts done` was answered at once, without its output.)
func TestSleepInSelectIsNotReading(t *testing.T) {
	t.Parallel()
	for name, script := range map[string]string{
		"perl select(undef x3, t)":      `perl -e 'print "ready\n"; select(undef, undef, undef, 30)'`,
		"python3 select([], [], [], t)": `python3 -c 'import select; print("ready", flush=True); select.select([], [], [], 30)'`,
		"python3 poll of nothing":       `python3 -c 'import select; print("ready", flush=True); select.poll().poll(30000)'`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog, _, _ := strings.Cut(script, " ")
			if _, err := exec.LookPath(prog); err != nil {
				t.Skipf("%s not installed", prog)
			}
			p, out := shell(t, "exec "+script)
			out.waitFor(t, "ready\r\n")
			nr := -1
			eventually(t, 10*time.Second, func() bool {
				nr, _, _ = blockedIn(p.files, p.Pid())
				call, ok := waitSyscalls[runtime.GOARCH][nr]
				return ok && (call.kind == selectFD || call.kind == pollFD)
			}, func() string { return fmt.Sprintf("never seen sleeping in select or poll (last in %d)\n%s", nr, out) })
			if w := p.InputWait(); w.Reading || w.Proxy || !w.Working {
				t.Errorf("%+v: a sleep in %s is taken for reading the terminal, or not for work", w, callName(nr))
			}
		})
	}
}

// endedJob hands the terminal to a child's process group, reaps the child and
// sleeps: the group in front has no process left.
const endedJob = `import os, signal, time
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os._exit(0)
os.setpgid(pid, pid)
os.tcsetpgrp(0, pid)
os.waitpid(pid, 0)
print("ended", flush=True)
time.sleep(30)`

// A program that sleeps for time alone, or runs, is at work (Working): what it
// printed last is not a question. One that reads the terminal is not.
func TestWorking(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		script  string
		working bool
		after   string // output to wait for first
	}{
		"sleep":           {"sleep 30", true, ""},
		"a shell's sleep": {"sh -c 'sleep 30; true'", true, ""},
		// Its child out of the foreground group, as a job is between its fork and
		// being handed the terminal: the shell waiting for it is at work.
		"waits for a child": {`sh -c 'setsid sh -c "echo started; exec sleep 30"; true'`, true, "started"},
		// The job handed the terminal has ended, and nobody took it back yet.
		"python3 an ended job in front": {`python3 -c '` + endedJob + `'`, true, "ended"},
		"a busy loop":                   {"sh -c 'while :; do :; done'", true, ""},
		"read":                          {"sh -c 'read x'", false, ""},
		"python3 input()":               {"python3 -c 'input()'", false, ""},
		"sleep with input":              {"sh -c 'sleep 30 & read x'", false, ""},
		// Behind a local relay (apt running dpkg, script, sudo's use_pty): its own
		// terminal's foreground group answers, not a proxy's silence.
		"python3 a relay's job at work": {`python3 -c 'import pty; pty.spawn(["sleep", "30"])'`, true, ""},
		"python3 a relay's reader":      {`python3 -c 'import pty; pty.spawn(["sh", "-c", "read x"])'`, false, ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if strings.HasPrefix(c.script, "python3") {
				if _, err := exec.LookPath("python3"); err != nil {
					t.Skip("python3 not installed")
				}
			}
			p, out := shell(t, "echo ready; exec "+c.script)
			out.waitFor(t, "ready\r\n")
			if c.after != "" {
				out.waitFor(t, c.after)
			}
			var w Waiting
			eventually(t, 10*time.Second, func() bool {
				w = p.InputWait()
				return w.Working == c.working && (c.working || w.Reading)
			}, func() string { return fmt.Sprintf("%+v, want Working %v\n%s", w, c.working, out) })
			// And it stays so: a moment of running (the exec) is no answer.
			for range 10 {
				time.Sleep(10 * time.Millisecond)
				if w = p.InputWait(); w.Working != c.working {
					t.Fatalf("%+v, want Working %v\n%s", w, c.working, out)
				}
			}
		})
	}
}

// tmuxSocket names a tmux server of the test's own, killed when the test ends.
func tmuxSocket(t *testing.T) string {
	name := fmt.Sprintf("mcpt-pty-%d", os.Getpid())
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", name, "kill-server").Run() })
	return name
}

func TestPendingInputRaw(t *testing.T) {
	t.Parallel()
	p, out := helper(t, "raw")
	out.waitFor(t, "ready")
	if _, err := p.Write(t.Context(), []byte("abc")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, func() bool { n, err := p.PendingInput(); return err == nil && n == 3 },
		func() string { n, err := p.PendingInput(); return fmt.Sprintf("PendingInput = %d, %v, want 3", n, err) })
	if err := syscall.Kill(p.Pid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "got: abc")
	var w Waiting
	eventually(t, 5*time.Second, func() bool { w = p.InputWait(); return w.Reading },
		func() string { return fmt.Sprintf("never seen reading again: %+v", w) })
	if n, err := p.PendingInput(); err != nil || n != 0 || w.PendingInput != 0 {
		t.Errorf("after reading: PendingInput = %d, %v; InputWait %+v", n, err, w)
	}
}

// In line mode the kernel counts completed lines only.
func TestPendingInputCanonical(t *testing.T) {
	t.Parallel()
	p, out := shell(t, "echo ready; sleep 1000")
	out.waitFor(t, "ready")
	if _, err := p.Write(t.Context(), []byte("abc\nde")); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "abc\r\nde") // echoed: the kernel has taken every byte
	eventually(t, 5*time.Second, func() bool { n, _ := p.PendingInput(); return n == 4 },
		func() string { n, err := p.PendingInput(); return fmt.Sprintf("PendingInput = %d, %v, want 4", n, err) })
}

// A reader that input does not wake (it waits for POLLPRI) reports what it left.
func TestInputWaitPendingInput(t *testing.T) {
	t.Parallel()
	p := waitHelper(t, "ppoll", -1, "pri")
	if _, err := p.Write(t.Context(), []byte("abc\n")); err != nil {
		t.Fatal(err)
	}
	var w Waiting
	eventually(t, 5*time.Second, func() bool { w = p.InputWait(); return w.Reading && w.PendingInput == 4 },
		func() string { return fmt.Sprintf("want Reading with PendingInput 4: %+v", w) })
}

func TestPendingInputAfterExit(t *testing.T) {
	t.Parallel()
	p, _ := helper(t, "exit", "0")
	waitDone(t, p)
	if _, err := p.PendingInput(); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("after exit: %v, want os.ErrProcessDone", err)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.PendingInput(); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}
