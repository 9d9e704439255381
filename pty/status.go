package pty

import (
	"os"
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

// exitStatus converts what exec.Cmd.Wait left behind.
func exitStatus(ps *os.ProcessState) ExitStatus {
	if ps == nil {
		return ExitStatus{Code: -1}
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok {
		return ExitStatus{Code: ps.ExitCode()}
	}
	if ws.Signaled() {
		return ExitStatus{Code: -1, Signal: signalName(ws.Signal())}
	}
	return ExitStatus{Code: ws.ExitStatus()}
}

// signalNames holds the signals that exist on both Linux and macOS.
// syscall.Signal.String gives descriptions ("killed"), not names.
var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP:    "SIGHUP",
	syscall.SIGINT:    "SIGINT",
	syscall.SIGQUIT:   "SIGQUIT",
	syscall.SIGILL:    "SIGILL",
	syscall.SIGTRAP:   "SIGTRAP",
	syscall.SIGABRT:   "SIGABRT",
	syscall.SIGBUS:    "SIGBUS",
	syscall.SIGFPE:    "SIGFPE",
	syscall.SIGKILL:   "SIGKILL",
	syscall.SIGUSR1:   "SIGUSR1",
	syscall.SIGSEGV:   "SIGSEGV",
	syscall.SIGUSR2:   "SIGUSR2",
	syscall.SIGPIPE:   "SIGPIPE",
	syscall.SIGALRM:   "SIGALRM",
	syscall.SIGTERM:   "SIGTERM",
	syscall.SIGCHLD:   "SIGCHLD",
	syscall.SIGCONT:   "SIGCONT",
	syscall.SIGSTOP:   "SIGSTOP",
	syscall.SIGTSTP:   "SIGTSTP",
	syscall.SIGTTIN:   "SIGTTIN",
	syscall.SIGTTOU:   "SIGTTOU",
	syscall.SIGURG:    "SIGURG",
	syscall.SIGXCPU:   "SIGXCPU",
	syscall.SIGXFSZ:   "SIGXFSZ",
	syscall.SIGVTALRM: "SIGVTALRM",
	syscall.SIGPROF:   "SIGPROF",
	syscall.SIGWINCH:  "SIGWINCH",
	syscall.SIGIO:     "SIGIO",
	syscall.SIGSYS:    "SIGSYS",
}

// signalName returns the conventional name of sig, e.g. "SIGKILL", or
// "SIG<number>" for a signal without one (real-time signals).
func signalName(sig syscall.Signal) string {
	if name, ok := signalNames[sig]; ok {
		return name
	}
	return "SIG" + strconv.Itoa(int(sig))
}

// ShellCode is the status as a shell reports it in $?: the exit code, or 128 plus
// the signal's number for a program killed by a signal (129 for SIGHUP).
func (e ExitStatus) ShellCode() int {
	if e.Signal == "" {
		return e.Code
	}
	for sig, name := range signalNames {
		if name == e.Signal {
			return 128 + int(sig)
		}
	}
	if n, err := strconv.Atoi(e.Signal[3:]); err == nil {
		return 128 + n
	}
	return -1
}
