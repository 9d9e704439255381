//go:build !linux

package sandbox

// MaxABI is the newest Landlock ABI this package builds rules for.
const MaxABI = 8

// KernelABI is 0: Landlock is Linux's.
func KernelABI() int { return 0 }
