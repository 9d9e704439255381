package pty

import (
	"strings"
	"testing"
	"time"
)

// TestCloseSparesALeaderBeingStarted: a session closing while another is being
// started must not take the new leader, forked and not registered yet, for one of
// its orphans: it is the only session that was open when the leader was forked.
// At that very moment (the afterFork seam) the leader must not be attributed to
// it, and the other session closes; the new leader must live to print. Before the
// fix, such a close sent the new leader SIGHUP whenever the server's main thread
// had forked it (whose children are where orphans are looked for), which is how
// sessions of parallel tests were seen dying of SIGHUP before they printed.
func TestCloseSparesALeaderBeingStarted(t *testing.T) {
	closing, out := helper(t, "echo")
	out.waitFor(t, "ready")
	afterFork = func(pid int) {
		afterFork = nil
		o, ok := readStat(pid)
		if !ok {
			t.Errorf("no stat for the new leader %d", pid)
		} else if collector.attribute(closing, o, map[int]uint64{}) {
			t.Errorf("the new leader %d was taken for an orphan of the session open when it was forked", pid)
		}
		if err := closing.Close(t.Context()); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { afterFork = nil })
	p, out := helper(t, "echo")
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "ready") && time.Now().Before(deadline) {
		if st, done := p.Exit(); done {
			t.Fatalf("the leader being started was ended by the other session's close: %v", st)
		}
		time.Sleep(time.Millisecond)
	}
	if _, done := closing.Exit(); !done {
		t.Fatal("the seam did not close the other session")
	}
	out.waitFor(t, "ready")
}
