package pty

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Lifetime tests: orphans are reaped while their session lives, an idle session
// holds no OS thread, and a process that escaped its session (double fork, setsid,
// marker unset) still ends with it. They count the test process's children and
// threads, so they are not parallel.

// threads is the Threads: line of /proc/self/status.
func threads(t testing.TB) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc")
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	t.Fatal("no Threads: in /proc/self/status")
	return 0
}

// A session whose programs leave orphans behind (`(true &)` thirty times) must not
// fill the pid table with zombies while it lives: they are reaped as they come.
func TestOrphansReapedWhileSessionLives(t *testing.T) {
	p, out := shell(t, `for i in $(seq 30); do (true &); done; echo ready; sleep 1000`)
	out.waitFor(t, "ready")
	eventually(t, 10*time.Second, func() bool { return len(zombieChildren(t)) == 0 },
		func() string {
			return "zombie children while the session lives: " + strconv.Itoa(len(zombieChildren(t)))
		})
	if _, ok := p.Exit(); ok {
		t.Fatal("the session's shell exited")
	}
	// The leader's own status still reaches its Process, not a blind reaper.
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st, _ := p.Exit(); st.Signal != "SIGHUP" {
		t.Errorf("leader exit %+v, want killed by SIGHUP", st)
	}
}

// A leader that exits at once is reaped by the reaper with its own status, however
// fast it goes, while orphans are reaped around it.
func TestLeaderStatusNeverStolen(t *testing.T) {
	for i := range 20 {
		p, _ := shell(t, `(true &); (true &); exit `+strconv.Itoa(i%7))
		if st := waitDone(t, p); st.Code != i%7 {
			t.Fatalf("run %d: exit %+v, want code %d", i, st, i%7)
		}
	}
}

// Idle sessions cost no OS thread each: reads wait in the poller and one reaper
// serves every leader.
func TestIdleSessionsHoldNoThread(t *testing.T) {
	const n = 40
	for range 3 { // warm the runtime's pool of threads
		p, out := shell(t, `echo ready; sleep 1000`)
		out.waitFor(t, "ready")
		p.Close(t.Context())
	}
	before := threads(t)
	for range n {
		_, out := shell(t, `echo ready; exec sleep 1000`)
		out.waitFor(t, "ready")
	}
	if grew := threads(t) - before; grew >= n/4 {
		t.Errorf("%d idle sessions added %d OS threads", n, grew)
	}
}

// escapee starts, inside a session, a program that leaves it the way a daemon does:
// a double fork, setsid, the session's marker unset, its output away from the
// terminal unless keepTTY; and returns its pid once it is a child of the test
// process.
func escapee(t *testing.T, p *Process, out *output, tag string, keepTTY bool) int {
	t.Helper()
	redirect := " </dev/null >/dev/null 2>&1"
	if keepTTY {
		redirect = ""
	}
	script := `(setsid env -u MCP_TERMINAL_SESSION sleep 1` + tag + redirect + ` &); echo started-` + tag + "\n"
	if _, err := p.Write(t.Context(), []byte(script)); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "started-"+tag)
	var pid int
	eventually(t, 10*time.Second, func() bool {
		pid = 0
		all, _ := procTable()
		for _, pr := range all {
			if pr.ppid == os.Getpid() && pr.sid == pr.pid && slices.Equal(processArgs(pr.pid), []string{"sleep", "1" + tag}) {
				pid = pr.pid
			}
		}
		return pid != 0
	}, func() string { return "the escaped sleep never became a child of the test process" })
	return pid
}

func gone(pid int) bool {
	pr, ok := readStat(pid)
	return !ok || pr.zombie
}

// A daemon that double-forked, called setsid, unset the session's marker and let go
// of the terminal still ends with its session.
func TestCloseEndsEscapedDaemon(t *testing.T) {
	p, out := start(t, Options{Command: "/bin/sh", Args: []string{"-i"}, Env: map[string]string{"MCP_TERMINAL_SESSION": "x1", "PS1": "$ "}})
	pid := escapee(t, p, out, "0001", false)
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !gone(pid) {
		t.Errorf("escaped daemon %d outlived its session", pid)
	}
	if z := zombieChildren(t); len(z) > 0 {
		t.Errorf("zombie children: %v", z)
	}
}

// With two sessions alive, the one an escaped program came from is told by the
// terminal it still holds: closing the other leaves it, closing its own ends it.
// KillOrphans, what the server runs at shutdown, ends whatever is left.
func TestCloseEndsEscapeeOfItsOwnSessionOnly(t *testing.T) {
	env := map[string]string{"PS1": "$ "}
	a, outA := start(t, Options{Command: "/bin/sh", Args: []string{"-i"}, Env: env})
	b, outB := start(t, Options{Command: "/bin/sh", Args: []string{"-i"}, Env: env})
	fromA := escapee(t, a, outA, "0002", true)
	fromB := escapee(t, b, outB, "0003", true)
	if err := a.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !gone(fromA) {
		t.Errorf("escapee %d of the closed session is still running", fromA)
	}
	if gone(fromB) {
		t.Errorf("escapee %d of the other session was ended", fromB)
	}
	// Free the terminal, so only the orphan's own history could tie it to b.
	lone := escapee(t, b, outB, "0004", false)
	b.Close(t.Context())
	KillOrphans()
	for _, pid := range []int{fromB, lone} {
		if !gone(pid) {
			t.Errorf("orphan %d survived KillOrphans", pid)
		}
	}
	eventually(t, 5*time.Second, func() bool { return len(zombieChildren(t)) == 0 },
		func() string { return "zombies left after KillOrphans" })
}

// Close walks the session's own process tree; it never reads the whole process
// table, which on a busy host is thousands of files per sweep.
func TestCloseReadsNoProcessTable(t *testing.T) {
	p, out := shell(t, `sleep 1000 & (sleep 1001 &); echo ready; trap '' HUP TERM; wait`)
	out.waitFor(t, "ready")
	before := tableReads.Load()
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := tableReads.Load() - before; n != 0 {
		t.Errorf("Close read the whole process table %d times", n)
	}
	if left, _ := sessionProcs(p.Pid()); len(left) > 0 {
		t.Errorf("processes left after Close: %+v", left)
	}
}

// An orphan that holds nothing of its session is attributed by when it started:
// a session closed in the same 10 ms tick it started in does not make it
// ambiguous when the pids show that session was gone before it was forked, and
// without that proof (pids unread, or wrapped since) the ambiguity stands.
func TestAttributeByStartTickAndPid(t *testing.T) {
	p := &Process{pid: 1 << 30, tty: "/dev/pts/none"}
	other := &Process{pid: 1<<30 + 1, tty: "/dev/pts/none"}
	closedQ := life{start: 100, end: 105, openPid: 1000, endPid: 1010, pidsKnown: true}
	ours := life{p: p, start: 104, openPid: 1011, pidsKnown: true}
	tests := []struct {
		name  string
		lives []life
		o     proc
		want  bool
	}{
		{"closed in its tick, before its pid", []life{closedQ, ours}, proc{pid: 1020, start: 105}, true},
		{"closed in its tick, after its pid", []life{closedQ, ours}, proc{pid: 1005, start: 105}, false},
		{"closed a tick before", []life{closedQ, ours}, proc{pid: 1020, start: 106}, true},
		{"pids unread", []life{func() life { l := closedQ; l.pidsKnown = false; return l }(), ours}, proc{pid: 1020, start: 105}, false},
		{"pids wrapped since", []life{func() life { l := closedQ; l.wraps = -1; return l }(), ours}, proc{pid: 1020, start: 105}, false},
		{"another still open", []life{ours, {p: other, start: 104, openPid: 1012, pidsKnown: true}}, proc{pid: 1020, start: 105}, false},
		{"another opened after its pid", []life{ours, {p: other, start: 105, openPid: 1030, pidsKnown: true}}, proc{pid: 1020, start: 105}, true},
		{"ours opened after it", []life{{p: p, start: 105, openPid: 1030, pidsKnown: true}}, proc{pid: 1020, start: 105}, false},
	}
	for _, tt := range tests {
		r := &reaper{lives: tt.lives} // lastPid 0: the counter read now is no wrap
		tt.o.sid = tt.o.pid           // it called setsid
		if got := r.attribute(p, tt.o, map[int]uint64{}); got != tt.want {
			t.Errorf("%s: attribute = %v, want %v", tt.name, got, tt.want)
		}
	}
}
