package pty

import (
	"strconv"
	"syscall"
)

// ExitStatus is how the session leader ended.
type ExitStatus struct {
	Code   int    // exit code; -1 when killed by a signal
	Signal string // e.g. "SIGKILL"; "" when it exited normally
}

// String says how the program ended: "exit code 3" or "killed by SIGKILL".
func (e ExitStatus) String() string {
	if e.Signal != "" {
		return "killed by " + e.Signal
	}
	return "exit code " + strconv.Itoa(e.Code)
}

// waitStatus converts what wait4 reported.
func waitStatus(ws syscall.WaitStatus) ExitStatus {
	if ws.Signaled() {
		return ExitStatus{Code: -1, Signal: SignalName(ws.Signal())}
	}
	return ExitStatus{Code: ws.ExitStatus()}
}

// ShellCode is the status as a shell reports it in $?: the exit code, or 128 plus
// the signal's number for a program killed by a signal (129 for SIGHUP).
func (e ExitStatus) ShellCode() int {
	if e.Signal == "" {
		return e.Code
	}
	if sig, ok := lookupSignal(e.Signal); ok {
		return 128 + int(sig)
	}
	return -1
}
