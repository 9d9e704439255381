package pty

import (
	"syscall"
	"testing"
)

func TestSignalNamesRoundTrip(t *testing.T) {
	t.Parallel()
	for sig, name := range signalNames {
		if got := SignalName(sig); got != name {
			t.Errorf("SignalName(%d) = %q, want %q", sig, got, name)
		}
		if got, err := SignalByName(name); err != nil || got != sig {
			t.Errorf("SignalByName(%q) = %d, %v; want %d", name, got, err, sig)
		}
	}
	if got := SignalName(syscall.Signal(40)); got != "SIG40" {
		t.Errorf("SignalName(40) = %q, want SIG40", got)
	}
}

func TestSignalByName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want syscall.Signal
		ok   bool
	}{
		{"SIGINT", syscall.SIGINT, true},
		{"int", syscall.SIGINT, true},
		{" TERM ", syscall.SIGTERM, true},
		{"sigkill", syscall.SIGKILL, true},
		{"WINCH", syscall.SIGWINCH, true},
		{"9", syscall.SIGKILL, true},
		{"31", syscall.Signal(31), true},
		{"SIGFOO", 0, false},
		{"", 0, false},
		{"SIG", 0, false},
		{"0", 0, false},
		{"-9", 0, false},
		{"32", 0, false},
		{"64", 0, false},
	}
	for _, tt := range tests {
		got, err := SignalByName(tt.name)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("SignalByName(%q) = %d, %v; want %d, ok %v", tt.name, got, err, tt.want, tt.ok)
		}
	}
}

func TestShellCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		st   ExitStatus
		want int
	}{
		{ExitStatus{Code: 0}, 0},
		{ExitStatus{Code: 3}, 3},
		{ExitStatus{Code: -1, Signal: "SIGHUP"}, 129},
		{ExitStatus{Code: -1, Signal: "SIGKILL"}, 137},
		{ExitStatus{Code: -1, Signal: "SIG40"}, 168},
		{ExitStatus{Code: -1, Signal: "SIG"}, -1},
		{ExitStatus{Code: -1, Signal: "odd"}, -1},
	}
	for _, tt := range tests {
		if got := tt.st.ShellCode(); got != tt.want {
			t.Errorf("%+v.ShellCode() = %d, want %d", tt.st, got, tt.want)
		}
	}
}
