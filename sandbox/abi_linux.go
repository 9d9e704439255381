//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// MaxABI is the newest Landlock ABI this package builds rules for. ABI 8 restricts
// what 7 does; 9 would also close pathname unix sockets and 10 UDP, which the
// README says stay open, so they are left for a deliberate change.
const MaxABI = 8

// KernelABI returns the Landlock ABI the running kernel offers, 0 without Landlock.
func KernelABI() int {
	v, _, e := unix.RawSyscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 || int(v) < 0 {
		return 0
	}
	return int(v)
}
