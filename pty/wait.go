package pty

import "unsafe"

// Waiting is what the kernel says about the program in front of the terminal: is
// it blocked reading the terminal, ready for input?
type Waiting struct {
	// Known is false where the process table cannot answer (no /proc, no permission,
	// an unknown architecture); the caller must rely on other evidence and say so.
	Known bool
	// Why explains an unknown answer, for the agent.
	Why string

	// Reading: a foreground process is blocked reading the terminal and no other
	// foreground process is running.
	Reading bool
	// Proxy: the reader waits on the terminal and on a socket or pipe at once (ssh,
	// nc, docker exec). It forwards input elsewhere, so its waiting proves nothing.
	Proxy bool

	// Unread counts output bytes the program wrote that nobody has read from the
	// terminal yet: until they are on the screen, a reader's waiting is no answer.
	Unread int

	PID     int // the reader
	Syscall int // the system call it is blocked in, for diagnostics
	// Wakeups counts the reader's voluntary context switches. It grows every time the
	// reader wakes to take input and blocks again, which is how a caller tells a
	// reader that consumed its input from one that has not seen it yet.
	Wakeups uint64
}

// InputWait inspects the terminal's foreground process group.
func (p *Process) InputWait() Waiting {
	select {
	case <-p.done:
		return Waiting{Known: true}
	default:
	}
	pgid, err := p.Foreground()
	if err != nil || pgid <= 0 {
		return Waiting{Known: true}
	}
	w := inputWait(p.pid, pgid, p.tty)
	if w.Reading {
		var n int32
		if err := p.ioctl(ioctlUnread, unsafe.Pointer(&n)); err == nil {
			w.Unread = int(n)
		}
	}
	return w
}
