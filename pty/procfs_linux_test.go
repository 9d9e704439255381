package pty

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
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
