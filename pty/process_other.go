//go:build !linux

package pty

import "syscall"

// ioctlGetTermios reads a terminal's termios.
const ioctlGetTermios = syscall.TIOCGETA

// BecomeSubreaper does nothing outside Linux, which alone has
// PR_SET_CHILD_SUBREAPER; orphans there go to launchd/init.
func BecomeSubreaper() error { return nil }

// proc is one process of the table Linux reads from /proc.
type proc struct {
	pid, ppid, pgid, sid int
	start                uint64
	zombie               bool
}

func processName(int) string { return "" }

func processCwd(int) string { return "" }

func processEnv(int, string) string { return "" }

func processArgs(int) []string { return nil }
