package pty

import (
	"fmt"
	"os"
	"syscall"
	"time"
	"unsafe"
)

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
	// Proxy: the reader waits, in the same call, on the terminal and on a socket
	// (ssh, nc, docker exec) or on the master of another pseudo-terminal, a
	// descriptor whose target is /dev/ptmx or /dev/pts/ptmx (script, tmux, expect,
	// sudo with use_pty). It passes input on to another program, so its waiting
	// proves nothing about that program; Reading is then false. Pipes, eventfds,
	// signalfds, timerfds, inotify and files beside the terminal do not make a proxy:
	// gdb, less and most event loops wait on those for their own purposes.
	Proxy bool

	// Timeout is the timeout the reader's blocked call was given, as the kernel got
	// it (poll's milliseconds, select's timeval, ppoll's timespec), not what is left
	// of it: /proc does not say when the call began. 0 means the call blocks until
	// input comes (read, a negative or NULL timeout); a zero timeout (a non-blocking
	// poll) is 1ns. A short timeout is no answer yet: vim after Escape waits
	// ttimeoutlen (~100ms) for the rest of a key sequence, then wakes by itself and
	// redraws. A timeout whose struct cannot be read from the reader's memory is
	// reported as 0 and Reading is left as it is, as before timeouts were decoded.
	// With several readers it is the shortest, and PID and Syscall name its reader.
	Timeout time.Duration

	// Working: nobody in front reads the terminal, and a foreground process runs
	// or waits for time alone (nanosleep, or select or poll on no descriptor) or
	// for a child (wait4).
	// The program is at work between two steps, so what it printed last (a
	// line that looks like a prompt) is not a question put to the user.
	Working bool

	// Unread counts output bytes the program wrote that nobody has read from the
	// terminal yet: until they are on the screen, a reader's waiting is no answer.
	Unread int
	// PendingInput counts typed bytes the program has not read yet (see
	// Process.PendingInput); set only when Reading. A reader with input left
	// unread has not caught up with what was typed.
	PendingInput int

	PID     int // the reader
	Syscall int // the system call it is blocked in, for diagnostics
	// Wakeups counts the reader's voluntary context switches. It grows every time the
	// reader wakes to take input and blocks again, which is how a caller tells a
	// reader that consumed its input from one that has not seen it yet.
	Wakeups uint64
}

// InputWait inspects the terminal's foreground process group.
func (p *Process) InputWait() Waiting {
	w := p.Reader()
	if w.Reading {
		if n, err := p.Unread(); err == nil {
			w.Unread = n
		}
		if n, err := p.PendingInput(); err == nil {
			w.PendingInput = n
		}
	}
	return w
}

// Unread returns how many bytes the program wrote that have not been read from
// the terminal yet. One system call: a caller can ask it before InputWait, whose
// answer is no answer while output is still on its way to the screen.
func (p *Process) Unread() (int, error) {
	var n int32
	if err := p.ioctl(ioctlUnread, unsafe.Pointer(&n)); err != nil {
		return 0, fmt.Errorf("unread output: %w", err)
	}
	return int(n), nil
}

// Reader is InputWait without the queues: who waits to read the terminal, with
// Unread and PendingInput left 0. Counting the typed bytes the reader has not
// taken opens the slave, polls it (which may wait for the kernel's worker) and
// closes it again, four system calls a caller that only needs to know who
// reads, and how often it has woken, can do without.
func (p *Process) Reader() Waiting {
	select {
	case <-p.done:
		return Waiting{Known: true}
	default:
	}
	pgid, err := p.Foreground()
	if err != nil || pgid <= 0 {
		return Waiting{Known: true}
	}
	return inputWait(p.files, p.pid, pgid, p.tty)
}

// PendingInput returns how many typed bytes (written to the master) wait in the
// terminal's input queue, not yet read by the program. In canonical (line) mode
// the kernel counts only completed lines: a partly typed line is 0 until its
// newline. After Close the error wraps ErrClosed, after the leader exited
// os.ErrProcessDone.
func (p *Process) PendingInput() (int, error) {
	if p.masterClosed.Load() {
		return 0, fmt.Errorf("pending input: %w", ErrClosed)
	}
	select {
	case <-p.done:
		return 0, fmt.Errorf("pending input: %w", os.ErrProcessDone)
	default:
	}
	rc, err := p.master.SyscallConn()
	if err != nil {
		return 0, fmt.Errorf("pending input: %w", p.ioError(err))
	}
	var n int
	var qerr error
	// Inside Control the master cannot be closed, so the slave's number cannot
	// have passed to another terminal meanwhile.
	if err := rc.Control(func(uintptr) { n, qerr = inputQueue(p.tty) }); err != nil {
		return 0, fmt.Errorf("pending input: %w", p.ioError(err))
	}
	if qerr != nil {
		return 0, fmt.Errorf("pending input: %w", qerr)
	}
	return n, nil
}

// inputQueue asks the slave at path for its input queue's length. Only the slave
// answers that (on the master FIONREAD counts output). It is opened for this one
// question and closed again: a server holding the slave would never see EOF on the
// master once the session's processes are gone. It polls first, so that what was
// typed is counted even while the kernel's worker has not moved it to the slave
// yet (see readable): a shell that looks blocked at its prompt with nothing typed
// may otherwise still have a whole line coming.
func inputQueue(path string) (int, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	if _, err := readable(uintptr(fd)); err != nil {
		return 0, &os.PathError{Op: "poll", Path: path, Err: err}
	}
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), ioctlUnread, uintptr(unsafe.Pointer(&n))); errno != 0 {
		return 0, &os.PathError{Op: "FIONREAD", Path: path, Err: errno}
	}
	return int(n), nil
}
