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
// (the shell) was in front, and within interruptLate another process group takes the
// terminal that is the command the key was meant for. That is a group whose leader
// was already the shell's child when the key was written; or, for a shell with
// integration, any group that takes the terminal before the shell has reported a
// command's end (its D mark) since the key: bash may fork the command after the
// interrupt arrived, and its prompt commands, which may run programs in front too,
// come only after the D mark. A group started by a prompt command of a shell
// without integration is never interrupted.

// interruptKey is the key the terminal turns into SIGINT for its foreground group.
const interruptKey = 0x03

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
	kids   []int  // the leader's children when the key was written
	marks  uint64 // the newest shell-integration mark then; for integrated shells
	until  time.Time
}

// interruptsFront reports, just before keys are written, whether they hold an
// interrupt that reaches the session's program itself, in front of the terminal.
func (s *Session) interruptsFront(keys []byte) bool {
	if !bytes.Contains(keys, []byte{interruptKey}) {
		return false
	}
	fg, err := s.proc.Foreground()
	return err == nil && fg == s.proc.Pid()
}

// watchInterrupt starts a watch right after such an interrupt was written.
func (s *Session) watchInterrupt(from mark) *interruptWatch {
	return &interruptWatch{leader: s.proc.Pid(), kids: s.proc.Children(), marks: from.marks,
		until: time.Now().Add(interruptLate)}
}

// pending interrupts the foreground group when it runs the command the key was
// meant for, and reports whether the watch goes on (the caller looks again within
// interruptPoll). A nil watch is over.
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
	if fg == iw.leader {
		return true
	}
	if !slices.Contains(iw.kids, fg) {
		if !s.integrated {
			return true // a prompt command's, or not in front yet
		}
		if !s.onScreen() {
			return true // the shell's marks may be on their way: look again
		}
		if hasKind(s.scr.MarksSince(iw.marks), 'D') {
			iw.leader = 0 // the shell reached its prompt since the key: fg is a prompt command's
			return false
		}
	}
	iw.leader = 0
	err = syscall.Kill(-fg, syscall.SIGINT)
	s.log.Debug("interrupt repeated for a command that took the terminal after it", "pgid", fg, "err", err)
	return false
}
