package pty

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestLeaderFilesReadAgain reads a busy process's schedstat through the kept
// descriptor twice and sees its run time grow (a pread at 0 is a fresh read, not
// a copy), answers ESRCH once the process is gone (never another process's
// file), and reads other pids, and everything after close, the plain way.
func TestLeaderFilesReadAgain(t *testing.T) {
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Skip("sh:", err)
	}
	defer cmd.Process.Kill()
	pid := cmd.Process.Pid
	f := newLeaderFiles(pid)
	ran := func() uint64 {
		t.Helper()
		b, err := f.read(pid, leaderSchedstat)
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.ParseUint(strings.Fields(string(b))[0], 10, 64)
		if err != nil {
			t.Fatalf("schedstat %q: %v", b, err)
		}
		return n
	}
	first := ran()
	fd := f.fds[leaderSchedstat]
	for second := ran(); second == first; second = ran() {
		// spin until the loop has been scheduled again
	}
	if f.fds[leaderSchedstat] != fd {
		t.Errorf("the descriptor was opened again (%d, then %d)", fd, f.fds[leaderSchedstat])
	}
	if b, err := f.read(os.Getpid(), leaderIO); err != nil || !strings.Contains(string(b), "wchar:") {
		t.Errorf("another pid's io: %q, %v", b, err)
	}
	if f.fds[leaderIO] >= 0 {
		t.Error("another pid's file was kept open as the leader's")
	}

	cmd.Process.Kill()
	cmd.Wait()
	if _, err := f.read(pid, leaderSyscall); err == nil {
		t.Error("a fresh read of a reaped leader's syscall file succeeded")
	}
	if _, err := f.read(pid, leaderSchedstat); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the kept schedstat of a reaped leader: %v, want ESRCH", err)
	}
	f.close()
	for i, fd := range f.fds {
		if fd >= 0 {
			t.Errorf("%s still open after close", leaderFileNames[i])
		}
	}
	if _, err := f.read(os.Getpid(), leaderSchedstat); err != nil {
		t.Errorf("a read after close: %v", err)
	}
}

// BenchmarkLeaderFiles compares a kept descriptor's pread with readProc's
// open, read and close, for the file every look reads.
func BenchmarkLeaderFiles(b *testing.B) {
	pid := os.Getpid()
	f := newLeaderFiles(pid)
	defer f.close()
	b.Run("kept", func(b *testing.B) {
		for b.Loop() {
			if _, err := f.read(pid, leaderSyscall); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("readProc", func(b *testing.B) {
		for b.Loop() {
			if _, err := readProc("/proc/" + strconv.Itoa(pid) + "/syscall"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
