package pty

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadProc reads what os.ReadFile reads, files longer than its first buffer
// included, and fails as it does on a process that is gone.
func TestReadProc(t *testing.T) {
	for _, name := range []string{"/proc/self/stat", "/proc/self/status", "/proc/self/environ", "/proc/self/io"} {
		got, err := readProc(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// Counters move between the two reads; the lines' names must not.
		if name == "/proc/self/environ" && !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, os.ReadFile %d", name, len(got), len(want))
		}
		if len(strings.Split(string(got), "\n")) != len(strings.Split(string(want), "\n")) {
			t.Errorf("%s:\n%s\nos.ReadFile:\n%s", name, got, want)
		}
	}
	if _, err := readProc("/proc/0/stat"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a process that is not there: %v, want not-exist", err)
	}
}

// TestHeldProcFiles: a leader's held files read what their paths read while it
// lives, each read afresh, and are let go when it is reaped.
func TestHeldProcFiles(t *testing.T) {
	p, out := shell(t, "echo ready; read line; echo got $line; sleep 1000")
	out.waitFor(t, "ready")
	stat := "/proc/" + strconv.Itoa(p.Pid()) + "/stat"
	held.RLock()
	_, ok := held.fds[stat]
	held.RUnlock()
	if !ok {
		t.Fatalf("%s is not held open", stat)
	}
	if pr, ok := readStat(p.Pid()); !ok || pr.pid != p.Pid() || pr.pgid != p.Pid() {
		t.Errorf("readStat through the held file = %+v, %v", pr, ok)
	}
	before, _ := wrote(p.Pid())
	if _, err := p.Write(t.Context(), []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "got x")
	if after, _ := wrote(p.Pid()); after <= before {
		t.Errorf("wchar through the held io file stayed %d after the shell wrote", after)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	held.RLock()
	_, ok = held.fds[stat]
	held.RUnlock()
	if ok {
		t.Errorf("%s still held after the leader was reaped", stat)
	}
}

// BenchmarkReadProc compares the completion checks' /proc reads with os.ReadFile.
func BenchmarkReadProc(b *testing.B) {
	const name = "/proc/self/schedstat"
	b.Run("readProc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := readProc(name); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("os.ReadFile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := os.ReadFile(name); err != nil {
				b.Fatal(err)
			}
		}
	})
}
