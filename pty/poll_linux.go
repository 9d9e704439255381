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

// readable reports whether fd, a side of the terminal, has bytes to read. Asking by
// poll, not FIONREAD, is the point: when nothing is readable yet, the line
// discipline's poll first waits for the kernel's worker to finish moving what was
// written to the other side (it flushes the terminal's buffer work), where FIONREAD
// counts only what the worker has already moved. On a loaded machine the worker may
// not run for a long while.
func readable(fd uintptr) (bool, error) {
	pfd := pollFd{fd: int32(fd), events: pollIn}
	var zero syscall.Timespec // return at once
	for {
		n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1,
			uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
		switch errno {
		case 0:
			return n == 1 && pfd.revents&pollIn != 0, nil
		case syscall.EINTR:
		default:
			return false, errno
		}
	}
}
