//go:build linux

package session

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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

// A line typed while the shell, at its prompt, has not yet taken the line typed
// before it (a loaded machine has not run it since) comes after that line's
// command: cat typed behind `sleep 0.3` waits for input, and the prompt drawn after
// the sleep, with its exit status, is not cat's reply. The shell is stopped to hold
// it blocked at its prompt with the first line unread, as the scheduler would.
func TestLineTypedBeforeTheShellTookThePrevious(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	pid := s.PID()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	if r := sendWithin(t, s, "sleep 0.3", 300*time.Millisecond); r.Complete {
		t.Fatalf("sleep, typed to a stopped shell: %+v", r)
	}
	// Let the shell run once both lines wait in its input: "sleep 0.3\r" and "cat\r".
	resumed := make(chan error, 1)
	go func() {
		deadline := time.Now().Add(10 * time.Second)
		for {
			n, err := s.proc.PendingInput()
			if err != nil || n >= len("sleep 0.3\rcat\r") || time.Now().After(deadline) {
				resumed <- errors.Join(err, syscall.Kill(pid, syscall.SIGCONT))
				return
			}
			<-time.After(time.Millisecond)
		}
	}()
	r := send(t, s, "cat")
	if err := <-resumed; err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.Reason != "input_wait" || r.Code != nil || !r.Owed {
		t.Fatalf("cat typed behind an untaken line: %+v", r)
	}
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+d", Timeout: 5 * time.Second})
	if err != nil || !r.Complete || r.Reason != "shell_mark" || r.Code == nil || *r.Code != 0 {
		t.Fatalf("ctrl+d: %+v %v", r, err)
	}
}

// The same when the shell took the earlier line at once but the screen has not
// shown its command's start (C mark) yet: the prompt on the screen is the one that
// line was typed at, not one for the next.
func TestLineTypedBeforeTheScreenShowsThePreviousStart(t *testing.T) {
	arm, held := holdFeed(t, "\x1b]133;C", 600*time.Millisecond)
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	arm()
	if r := sendWithin(t, s, "sleep 0.3", 150*time.Millisecond); r.Complete {
		t.Fatalf("sleep: %+v", r)
	}
	r := send(t, s, "cat")
	if !held.Load() {
		t.Fatal("the command's start mark never passed the reader")
	}
	if !r.Complete || r.Reason != "input_wait" || r.Code != nil || !r.Owed {
		t.Fatalf("cat typed while sleep's start was not on the screen: %+v", r)
	}
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+d", Timeout: 5 * time.Second})
	if err != nil || !r.Complete || r.Reason != "shell_mark" || r.Code == nil || *r.Code != 0 {
		t.Fatalf("ctrl+d: %+v %v", r, err)
	}
}

// holdInterrupt makes the kernel's worker (inputLag) keep back what s types with the
// interrupt key in it until the session forces the worker; if it never does, the key
// reaches the line discipline in one batch with the next input, as it did on the
// loaded machine of the soak.
func holdInterrupt(t *testing.T, s *Session) (forced func() bool) {
	t.Helper()
	var mu sync.Mutex
	var held []byte
	var wasForced bool
	inputLag.hold = func(b []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		if bytes.IndexByte(b, interruptKey) >= 0 {
			held = append(held, b...)
			return nil
		}
		b, held = append(held, b...), nil
		return b
	}
	inputLag.force = func() {
		mu.Lock()
		defer mu.Unlock()
		if len(held) > 0 {
			if _, err := s.proc.Write(context.Background(), held); err != nil {
				t.Error(err)
			}
			if _, err := s.proc.PendingInput(); err != nil { // its poll makes the kernel's worker hand the key over
				t.Error(err)
			}
			held, wasForced = nil, true
		}
	}
	t.Cleanup(func() { inputLag.hold, inputLag.force = nil, nil })
	return func() bool { mu.Lock(); defer mu.Unlock(); return wasForced }
}

// ctrl+c typed while a command runs, with the key still in the kernel's hands when
// the command ends by itself (or the interrupt watch ends it): the shell's prompt
// then owes nothing to the key, and the reply may not be complete until the key has
// been acted on. Otherwise the key reaches readline together with the next line, and
// readline drops that line's first character: the soak's `bash: cho: command not
// found` after a ctrl+c.
func TestInterruptArrivingAfterThePrompt(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	if r := sendWithin(t, s, "sleep 0.3", 50*time.Millisecond); r.Complete {
		t.Fatalf("sleep: %+v", r)
	}
	forced := holdInterrupt(t, s)
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+c", Timeout: 10 * time.Second})
	if err != nil || !r.Complete {
		t.Fatalf("ctrl+c: %+v %v", r, err)
	}
	if !forced() {
		t.Error("the reply was complete with the interrupt key still held back")
	}
	if r := send(t, s, "echo after"); r.Output != "after\n$ " {
		t.Fatalf("the line typed after ctrl+c: %+v", r)
	}
}
