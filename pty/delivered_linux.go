package pty

import (
	"syscall"
	"unsafe"
)

// pollFd is struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const pollIn = 0x1 // POLLIN

// outputPending reports whether output waits to be read from the master. Polling
// is what asks: the line discipline's poll first waits for the kernel's worker to
// finish moving what the programs wrote (flushing the terminal's buffer work) when
// nothing is readable yet, where FIONREAD counts only what the worker has moved.
func (p *Process) outputPending() (bool, error) {
	rc, err := p.master.SyscallConn()
	if err != nil {
		return false, p.ioError(err)
	}
	var ready bool
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		pfd := pollFd{fd: int32(fd), events: pollIn}
		var zero syscall.Timespec // return at once
		for {
			var n uintptr
			n, _, errno = syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1,
				uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
			if errno != syscall.EINTR {
				ready = errno == 0 && n == 1 && pfd.revents&pollIn != 0
				return
			}
		}
	}); err != nil {
		return false, p.ioError(err)
	}
	if errno != 0 {
		return false, errno
	}
	return ready, nil
}
