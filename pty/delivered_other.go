//go:build !linux

package pty

import "unsafe"

// outputPending reports whether output waits to be read from the master.
func (p *Process) outputPending() (bool, error) {
	var n int32
	if err := p.ioctl(ioctlUnread, unsafe.Pointer(&n)); err != nil {
		return false, err
	}
	return n > 0, nil
}
