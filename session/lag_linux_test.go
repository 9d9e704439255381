//go:build linux

package session

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// holdFeed makes the session's reader stall for hold on the first piece of output,
// once armed, that contains mark: what a loaded machine does to a reader it does not
// schedule, with the piece taken from the terminal and not yet on the screen.
func holdFeed(t *testing.T, mark string, hold time.Duration) (arm func(), held *atomic.Bool) {
	t.Helper()
	var armed atomic.Bool
	held = new(atomic.Bool)
	feedHook = func(b []byte) {
		if armed.Load() && bytes.Contains(b, []byte(mark)) && held.CompareAndSwap(false, true) {
			<-time.After(hold) // the stall being modelled, not a wait for a condition
		}
	}
	// Registered before the manager's cleanup, so it runs after every reader is gone.
	t.Cleanup(func() { feedHook = nil })
	return func() { armed.Store(true) }, held
}

// The integrated shell's prompt, and the command's last output before it, were
// taken from the terminal and not yet drawn when the shell was already blocked
// reading again, for longer than it takes to take the marks for lost: the reply
// still waits for them, and ends on the shell's marks, not on the shell's reading.
// (Seen in a soak on a loaded host: seq 1 5000 answered at line 4837.)
func TestReplyWaitsForOutputTheScreenHasNotSeen(t *testing.T) {
	hold := marksLostAfter + time.Second
	arm, held := holdFeed(t, "\x1b]133;B", hold)
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	arm()
	began := time.Now()
	r := sendWithin(t, s, "seq 1 3000; echo do$((1))ne", 10*time.Second)
	if !held.Load() {
		t.Fatal("the prompt's mark never passed the reader")
	}
	if !strings.HasSuffix(r.Output, "2999\n3000\ndo1ne\n$ ") || !r.Complete || r.Reason != "shell_mark" || r.Code == nil || *r.Code != 0 {
		t.Fatalf("after %s: complete %v, reason %s (%s), code %v, output ends %q", time.Since(began).Round(time.Millisecond),
			r.Complete, r.Reason, r.Detail, r.Code, r.Output[max(0, len(r.Output)-40):])
	}
	if d := time.Since(began); d < hold {
		t.Fatalf("answered after %s, before the held output was drawn", d)
	}
}
