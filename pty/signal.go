package pty

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
)

// The one table of signal names: SignalName reads it one way, SignalByName and
// ExitStatus.ShellCode the other.
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

// SignalName returns the conventional name of sig, e.g. "SIGKILL", or
// "SIG<number>" for a signal without one (real-time signals).
func SignalName(sig syscall.Signal) string {
	if name, ok := signalNames[sig]; ok {
		return name
	}
	return "SIG" + strconv.Itoa(int(sig))
}

// SignalByName returns the signal a person or an agent names: "SIGTERM", "TERM"
// and "term" alike, or a number from 1 to 31 (the signals Linux and macOS share).
func SignalByName(name string) (syscall.Signal, error) {
	if sig, ok := lookupSignal(name); ok && sig <= 31 {
		return sig, nil
	}
	return 0, fmt.Errorf("unknown signal %q; use a name such as SIGTERM, SIGKILL, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 "+
		"(with or without SIG, in any case) or a number from 1 to 31", name)
}

// lookupSignal reads a name from the table, with or without "SIG" and in any
// case, or a number with or without "SIG" (SignalName's "SIG34"), of any size.
func lookupSignal(name string) (syscall.Signal, bool) {
	n := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(name)), "SIG")
	if n == "" {
		return 0, false
	}
	for sig, known := range signalNames {
		if known[len("SIG"):] == n {
			return sig, true
		}
	}
	if num, err := strconv.Atoi(n); err == nil && num > 0 {
		return syscall.Signal(num), true
	}
	return 0, false
}
