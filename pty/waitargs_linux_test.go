package pty

import (
	"bytes"
	"encoding/binary"
	"os"
	"runtime"
	"testing"
	"time"
	"unsafe"
)

func TestRole(t *testing.T) {
	t.Parallel()
	const tty = "/dev/pts/3"
	tests := []struct {
		target string
		want   fdRole
	}{
		{"/dev/pts/3", termFD},
		{"/dev/tty", termFD},
		{"socket:[12345]", proxyFD},
		{"/dev/ptmx", proxyFD},
		{"/dev/pts/ptmx", proxyFD},
		{"pipe:[678]", otherFD},
		{"anon_inode:[eventfd]", otherFD},
		{"anon_inode:[signalfd]", otherFD},
		{"anon_inode:[timerfd]", otherFD},
		{"anon_inode:inotify", otherFD},
		{"/dev/pts/4", otherFD}, // another terminal's slave
		{"/home/u/notes.txt", otherFD},
		{"", otherFD}, // the link could not be read
	}
	for _, tt := range tests {
		if got := role(tt.target, tty); got != tt.want {
			t.Errorf("role(%q) = %v, want %v", tt.target, got, tt.want)
		}
	}
}

func TestMillis(t *testing.T) {
	t.Parallel()
	tests := []struct {
		arg  uint64
		want time.Duration
	}{
		{0xffffffffffffffff, 0}, // -1, sign-extended
		{0x00000000ffffffff, 0}, // -1, zero-extended
		{0, time.Nanosecond},    // a non-blocking poll
		{100, 100 * time.Millisecond},
		{0xdeadbeef000007d0, 2 * time.Second}, // garbage in the upper half
		{0x7fffffff, 2147483647 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := millis(tt.arg); got != tt.want {
			t.Errorf("millis(%#x) = %v, want %v", tt.arg, got, tt.want)
		}
	}
}

func TestSpan(t *testing.T) {
	t.Parallel()
	pair := func(sec, frac int64) []byte {
		b := make([]byte, 16)
		binary.LittleEndian.PutUint64(b, uint64(sec))
		binary.LittleEndian.PutUint64(b[8:], uint64(frac))
		return b
	}
	tests := []struct {
		name string
		b    []byte
		unit time.Duration
		want time.Duration
	}{
		{"NULL", nil, time.Nanosecond, 0},
		{"short read", make([]byte, 8), time.Nanosecond, 0},
		{"zero timespec", pair(0, 0), time.Nanosecond, time.Nanosecond},
		{"zero timeval", pair(0, 0), time.Microsecond, time.Nanosecond},
		{"timespec", pair(1, 500_000_000), time.Nanosecond, 1500 * time.Millisecond},
		{"timeval", pair(0, 300_000), time.Microsecond, 300 * time.Millisecond},
		{"timeval over a second", pair(1, 2_000_000), time.Microsecond, 3 * time.Second},
		{"negative", pair(-1, 0), time.Nanosecond, 0},
		{"huge seconds", pair(1<<62, 0), time.Nanosecond, longest},
		{"huge fraction", pair(0, 1<<62), time.Microsecond, longest},
		{"sum overflows", pair(9_223_372_036, 999_999_999), time.Nanosecond, longest},
	}
	for _, tt := range tests {
		if got := span(tt.b, tt.unit); got != tt.want {
			t.Errorf("%s: span = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestMemoryReads reads this process's own memory both ways: process_vm_readv and
// the /proc/<pid>/mem file it falls back to must agree, and both must answer nil
// for memory that is not mapped.
func TestMemoryReads(t *testing.T) {
	want := []byte("a descriptor set, or a timeout")
	addr := uint64(uintptr(unsafe.Pointer(&want[0])))
	for _, noVM := range []bool{false, true} {
		m := &memory{pid: os.Getpid(), noVM: noVM}
		if got := m.read(addr, len(want)); !bytes.Equal(got, want) {
			t.Errorf("noVM=%v: read %q, want %q", noVM, got, want)
		}
		if got := m.read(8, 8); got != nil { // the first page is never mapped
			t.Errorf("noVM=%v: read of unmapped memory = %q, want nil", noVM, got)
		}
		if !noVM && m.noVM {
			t.Errorf("process_vm_readv was refused for this process's own memory")
		}
		m.close()
	}
	runtime.KeepAlive(want)
}
