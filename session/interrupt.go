package session

import (
	"bytes"
	"context"
	"syscall"
	"time"

	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// An interrupt the shell swallowed.
//
// A shell with job control that has read a command line forks the command into a
// process group of its own, and only then is that group given the terminal. An
// interrupt key (ctrl+c) typed in between reaches the shell, still in front, and a
// shell waiting for a foreground job leaves interrupts to the job (bash does); the
// job, once in front, never sees it. Reproduced with bash: ctrl+c typed 1.6 to 3 ms
// after `sleep 100` was, in 2 of 100 tries; in the soak, on a loaded machine, it left
// sleep 100 running behind a ctrl+c that timed out, and the next replies empty.
//
// A person would press ctrl+c again once the command shows up. The session does
// that for the agent: when the key was typed while the session's program (the
// shell) was in front and not idle at its prompt (blocked reading the terminal with
// no input left to read), the first other process group that takes the terminal
// within interruptLate is interrupted. That group runs the command the key was meant
// for, forked before the key or after it: bash, interrupted just before its fork,
// may still fork, and leaves the interrupt to the foreground job. A shell idle at
// its prompt hands the key to its line editor, and nothing is watched: programs its
// prompt commands run are not the key's. A command's group can also be in front
// before its exec, running the shell's program with the shell's handler for SIGINT
// still installed, which takes the key; such a group is interrupted again once it
// runs another program.

// An interrupt still on its way.
//
// The kernel hands what was written to the terminal to its line discipline, which
// turns the interrupt key into SIGINT, in a worker; on a loaded machine the worker
// may not run for tens of milliseconds (seen: 27 ms, in the soak and in a stress of
// 40,000 sleep/ctrl+c/echo cycles). Meanwhile the shell can draw a prompt that owes
// nothing to the key: the command it was meant for ended by itself, or was
// interrupted again by the watch above. Were the reply complete then, the key would
// reach the line editor with the agent's next line in the same batch, and readline
// takes the line's first character before it acts on the signal and drops it
// (`echo w1-5` ran as `cho w1-5`; "\x03echo hi\r" written at an idle bash prompt does
// that every time). So a reply to keys that held the interrupt key is complete only
// once the key is known to have been acted on: the worker was made to hand it over
// (pty's poll of the input queue does that when the queue is empty, as the shell's
// own wait for input would), and the program in front stays blocked reading the
// terminal across that, with everything it printed on the screen. If the key only
// arrives then, the program wakes, and the reply waits for it to be ready again.

// An interrupt noted and not acted on.
//
// Readline's handler only notes a SIGINT; readline acts on it (bash then drops the
// line and draws a fresh prompt) where it looks for signals: when its wait for
// input is interrupted, and before each wait. A signal that comes while it takes a
// key, or between that look and the wait, is acted on halfway: readline echoes ^C
// and waits for input again, and bash acts on the interrupt only at the next key,
// which it drops. ctrl+c and any key with it in one call (`ctrl+c ctrl+g`) does that
// every time; a loaded machine does it to a ctrl+c typed behind a line the shell is
// still taking (the stress, with the fix above: 2 in 36,000 cycles, `sleep 100`
// typed 50 ms before ran as `leep 100echo w7-1007`). From outside, the shell's line
// editor blocks reading again with no prompt drawn since the key, which a shell
// that acted on it always draws. A person would press ctrl+c again, and so does the
// session, once: the second interrupt comes while readline waits, and it acts on both.

// interruptKey is the key the terminal turns into SIGINT for its foreground group.
const interruptKey = 0x03

// quitKey is the key the terminal turns into SIGQUIT.
const quitKey = 0x1c

// interruptLate bounds how long after the key the command may take the terminal
// and still be interrupted: the shell's fork and hand-over, on a loaded machine.
const interruptLate = 3 * time.Second

// interruptPoll is how often a wait looks at the foreground while a watch is on:
// taking the terminal wakes nothing the session can wait on.
const interruptPoll = 2 * time.Millisecond

// interruptWatch is one interrupt key that may have reached the shell instead of
// the command it was meant for.
type interruptWatch struct {
	leader int
	shell  string // the leader's program name
	until  time.Time
	// group is the group interrupted, while its leader still ran the shell's program
	// (forked, not yet exec'd): the shell's own handler, still installed in the child
	// until the exec, may have taken the signal, so the group is interrupted again if
	// it then runs another program.
	group int
}

// interruptWatchFor prepares, just before keys are written, the watch for an
// interrupt among them that may be lost: one that reaches the session's program
// itself, in front of the terminal and not idle at its prompt (it may be starting a
// command), or a group whose leader still runs the shell's program (a command
// forked but not yet exec'd, whose shell handler may take the key). Nil otherwise.
func (s *Session) interruptWatchFor(keys []byte) *interruptWatch {
	if !bytes.Contains(keys, []byte{interruptKey}) {
		return nil
	}
	leader := s.proc.Pid()
	fg, err := s.proc.Foreground()
	if err != nil || fg <= 0 {
		return nil
	}
	iw := &interruptWatch{leader: leader, shell: s.proc.ProcessName(leader)}
	if fg != leader {
		if iw.shell == "" || s.proc.ProcessName(fg) != iw.shell {
			return nil // a program in front: the key reaches it
		}
		iw.group = fg
		return iw
	}
	w := s.proc.InputWait()
	if !w.Known {
		return nil // idle cannot be told from busy (no /proc): never risk a prompt command
	}
	if w.Reading && w.PID == leader && w.PendingInput == 0 && w.Unread == 0 {
		return nil // idle at its prompt: the line editor takes the key
	}
	return iw
}

// start begins the watch once the keys are written.
func (iw *interruptWatch) start() *interruptWatch {
	if iw != nil {
		iw.until = time.Now().Add(interruptLate)
	}
	return iw
}

// pending interrupts the foreground group once another group than the session's
// program has taken the terminal, and reports whether the watch goes on (the caller
// looks again within interruptPoll). A nil watch is over.
func (iw *interruptWatch) pending(s *Session) bool {
	if iw == nil || iw.leader == 0 {
		return false
	}
	if time.Now().After(iw.until) {
		iw.leader = 0
		return false
	}
	fg, err := s.proc.Foreground()
	if err == nil && fg == iw.leader {
		return true
	}
	if err != nil || fg <= 0 || (iw.group != 0 && fg != iw.group) {
		iw.leader = 0 // gone, or the interrupted group ended
		return false
	}
	name := s.proc.ProcessName(fg)
	if iw.group != 0 && (name == iw.shell || name == "") {
		return true // interrupted before its exec: see whether it runs a program after all
	}
	// The key may only be late, not swallowed: still in the kernel's hands (see "An
	// interrupt still on its way"). Polling the input queue hands it over now, to
	// this group; otherwise it would come later, to the shell at its next prompt.
	_, _ = s.proc.PendingInput()
	err = syscall.Kill(-fg, syscall.SIGINT)
	s.log.Debug("interrupt repeated for a command that took the terminal after it", "pgid", fg, "program", name, "err", err)
	if iw.group == 0 && name == iw.shell && name != "" {
		iw.group = fg
		return true
	}
	iw.leader = 0
	return false
}

// interruptTaken reports whether an interrupt key typed in this call can no longer
// arrive later: see "An interrupt still on its way". Where the kernel cannot say
// (no /proc), or the program in front forwards its input elsewhere (ssh puts the
// terminal in raw mode: the key is a byte for the far side), it is taken as acted on.
func (s *Session) interruptTaken() bool {
	// Sampled, then (when it reads) its PendingInput polls the queue, which makes
	// the worker hand the key over: only now, with the reader waiting for input, is
	// the key's SIGINT sure to interrupt that wait. Readline that is drawing its
	// prompt when the signal comes echoes ^C, waits for input again, and acts on
	// the interrupt only at the next key, which it drops.
	a := s.proc.InputWait()
	if !a.Known || a.Proxy {
		return true
	}
	if !a.Reading || a.PendingInput > 0 || a.Unread > 0 {
		return false // busy, or not caught up: look again soon
	}
	if inputLag.force != nil {
		inputLag.force()
	}
	b := s.proc.InputWait()
	return b.Reading && b.PID == a.PID && b.Wakeups == a.Wakeups && b.PendingInput == 0 && s.onScreen()
}

// interruptUnanswered reports whether the integrated shell's line editor, woken
// since the keys, is blocked reading again with nothing left to read or to draw,
// and no prompt drawn since: see "An interrupt noted and not acted on". A mark
// since the keys (the prompt command's D, drawn before the line editor took the
// interrupt and never drew its prompt) says the marks are not lost, however long
// ago the keys were.
func (s *Session) interruptUnanswered(w waitSpec, ours []screen.Mark) bool {
	if !s.integrated || hasKind(ours, 'B') || len(ours) == 0 && s.marksLost(w) || !s.shellInFront() || !s.markedShell(s.proc.Pid()) {
		return false
	}
	r, before := s.proc.InputWait(), w.from.reader
	woke := !before.Reading || r.PID != before.PID || r.Wakeups > before.Wakeups
	return r.Reading && woke && r.PID == s.proc.Pid() && r.PendingInput == 0 && r.Unread == 0 && s.onScreen()
}

// repeatInterrupt presses the interrupt key once more, and returns the reader as it
// was before (the new baseline for its waiting).
func (s *Session) repeatInterrupt(ctx context.Context) (pty.Waiting, error) {
	before := s.proc.InputWait()
	key := []byte{interruptKey}
	s.tapInput(key, false)
	err := s.writeInput(ctx, key)
	s.log.Debug("interrupt repeated for a line editor that noted it and waits for input", "err", err)
	return before, err
}

// inputLag, when set (by tests, before any session starts), stands for the kernel's
// worker on a loaded machine: hold is given what a call types and returns what the
// line discipline gets now, keeping the rest for later (in order); force is called
// where the session has made the kernel's worker hand over what it holds, and must
// do the same with what the test holds.
var inputLag struct {
	hold  func(b []byte) []byte
	force func()
}
