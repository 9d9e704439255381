//go:build !linux

package pty

import (
	"syscall"
	"unsafe"
)

// readable reports whether fd has bytes to read (FIONREAD): no kernel here is
// known to move terminal bytes in a worker the way Linux does.
func readable(fd uintptr) (bool, error) {
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, ioctlUnread, uintptr(unsafe.Pointer(&n))); errno != 0 {
		return false, errno
	}
	return n > 0, nil
}
