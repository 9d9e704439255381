//go:build linux

package session

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestTerminalThatFails swaps the session's terminal descriptor for one that reads
// nothing and swallows writes, as a failing PTY would: calls stay bounded and
// truthful, and closing still ends the program and the session's goroutines.
func TestTerminalThatFails(t *testing.T) {
	m := newManager(t, Config{})
	s, err := m.Create(CreateOptions{Command: "cat"})
	if err != nil {
		t.Fatal(err)
	}
	master := ptmxFD(t)
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	// Dup3, not Dup2: arm64 has no dup2, and O_CLOEXEC keeps the replacement from
	// reaching the programs later tests start.
	if err := syscall.Dup3(int(null.Fd()), master, syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	// Losing the master hangs the terminal up, so the program may die of it; either
	// way the answer must be true: an error, a timeout, or the exit.
	start := time.Now()
	r, err := s.Send(t.Context(), Input{Text: "hello", AppendNewline: true, Timeout: 300 * time.Millisecond})
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("a call on a failed terminal took %s", took)
	}
	if err == nil && r.Complete && (r.Reason != "exit" || r.Alive) {
		t.Fatalf("input into a dead terminal looked complete: %+v", r)
	}
	pid := s.PID()
	if _, err := m.Close(t.Context(), s.ID, 0); err != nil {
		t.Logf("close: %v", err) // the descriptor is not a terminal any more; the process must still go
	}
	if syscall.Kill(pid, 0) == nil {
		t.Fatalf("process %d outlived its session", pid)
	}
}

// ptmxFD finds this process's only PTY master descriptor.
func ptmxFD(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc")
	}
	found := -1
	for _, e := range entries {
		if target, _ := os.Readlink("/proc/self/fd/" + e.Name()); target == "/dev/ptmx" {
			if found >= 0 {
				t.Skip("more than one PTY open in this process")
			}
			found, _ = strconv.Atoi(e.Name())
		}
	}
	if found < 0 {
		t.Skip("no PTY master found")
	}
	return found
}
