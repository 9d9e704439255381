package session

import (
	"bytes"
	"slices"
	"syscall"
	"time"
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
// that for the agent, and only then: the key was typed while the session's program
// was in front and not reading the terminal, and within interruptLate a process
// group that was already its child when the key was written takes the terminal.
// A group started after the key (a prompt command) is never interrupted.

// interruptKey is the key the terminal turns into SIGINT for its foreground group.
const interruptKey = 0x03

// interruptLate bounds how long after the key the command may take the terminal
// and still be interrupted: the shell's fork and hand-over, on a loaded machine.
const interruptLate = time.Second

// interruptPoll is how often a wait looks at the foreground while a watch is on:
// taking the terminal wakes nothing the session can wait on.
const interruptPoll = 2 * time.Millisecond

// interruptWatch is one interrupt key that may have reached the shell instead of
// the command it was meant for.
type interruptWatch struct {
	leader int
	kids   []int // the leader's children when the key was written
	until  time.Time
}

// frontBusy reports, just before keys are written, whether they hold an interrupt
// that would reach the session's program in front while it is not reading the
// terminal: a shell between reading a command line and handing it the terminal.
func (s *Session) frontBusy(keys []byte, from mark) bool {
	if !bytes.Contains(keys, []byte{interruptKey}) {
		return false
	}
	leader := s.proc.Pid()
	if from.reader.Reading && from.reader.PID == leader {
		return false // its line editor takes the key
	}
	fg, err := s.proc.Foreground()
	return err == nil && fg == leader
}

// watchInterrupt starts a watch right after the interrupt was written to a busy
// program in front, when that program has children (a command may be starting).
func (s *Session) watchInterrupt() *interruptWatch {
	kids := s.proc.Children()
	if len(kids) == 0 {
		return nil
	}
	return &interruptWatch{leader: s.proc.Pid(), kids: kids, until: time.Now().Add(interruptLate)}
}

// pending interrupts the foreground group when one of the watched children has
// taken the terminal, and reports whether the watch goes on (the caller looks
// again within interruptPoll). A nil watch is over.
func (iw *interruptWatch) pending(s *Session) bool {
	if iw == nil || iw.leader == 0 {
		return false
	}
	if time.Now().After(iw.until) {
		iw.leader = 0
		return false
	}
	fg, err := s.proc.Foreground()
	if err != nil || fg <= 0 {
		iw.leader = 0
		return false
	}
	if fg == iw.leader || !slices.Contains(iw.kids, fg) {
		return true
	}
	iw.leader = 0
	// fg leads the foreground group and was the leader's child when the key was
	// written: the command that key was meant for.
	err = syscall.Kill(-fg, syscall.SIGINT)
	s.log.Debug("interrupt repeated for a command that took the terminal after it", "pgid", fg, "err", err)
	return false
}
