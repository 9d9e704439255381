package session

import (
	"bytes"
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
	err = syscall.Kill(-fg, syscall.SIGINT)
	s.log.Debug("interrupt repeated for a command that took the terminal after it", "pgid", fg, "program", name, "err", err)
	if iw.group == 0 && name == iw.shell && name != "" {
		iw.group = fg
		return true
	}
	iw.leader = 0
	return false
}
