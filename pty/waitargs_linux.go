package pty

import (
	"encoding/binary"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Decoding a blocked system call's arguments: which descriptors it waits on and
// for how long. Pointers are read from the process (see memory); structs are
// those of 64-bit little-endian Linux (amd64, arm64).

// How a blocked system call says which descriptors it waits on.
type waitKind int

const (
	readFD   waitKind = iota + 1 // read(fd, ...): the first argument
	selectFD                     // select/pselect6(nfds, readfds, ...): a bitmap in memory
	pollFD                       // poll/ppoll(fds, nfds, ...): an array of struct pollfd
	epollFD                      // epoll_wait(epfd, ...): the epoll set, listed in fdinfo
)

// How a blocked system call takes its timeout.
type timeoutForm int

const (
	noTimeout   timeoutForm = iota // read: waits until input comes
	millisArg                      // an int of milliseconds, negative for none (poll, epoll_wait)
	timespecPtr                    // a struct timespec *, NULL for none (ppoll, pselect6, epoll_pwait2)
	timevalPtr                     // a struct timeval *, NULL for none (select)
)

// waitCall is one system call that waits for input.
type waitCall struct {
	kind    waitKind
	timeout timeoutForm
}

// timeoutArg is the argument holding the timeout, the same for every call of a kind:
// poll(fds, nfds, t), select(nfds, r, w, e, t), epoll_wait(epfd, events, max, t).
var timeoutArg = map[waitKind]int{pollFD: 2, selectFD: 4, epollFD: 3}

// memory reads a process's memory: with process_vm_readv, one system call per
// read and no file to open (a call's descriptor set and its timeout are two reads,
// on a path every completion check can take); where the kernel refuses that call,
// through /proc/<pid>/mem, opened at the first read.
type memory struct {
	pid  int
	noVM bool // process_vm_readv is refused: read the file
	f    *os.File
	err  error
}

// read returns n bytes at addr, nil for a NULL pointer or unreadable memory.
func (m *memory) read(addr uint64, n int) []byte {
	if addr == 0 || n <= 0 || n > 1<<16 || addr > math.MaxInt64 {
		return nil
	}
	b := make([]byte, n)
	if !m.noVM {
		local := []unix.Iovec{{Base: &b[0]}}
		local[0].SetLen(n)
		got, err := unix.ProcessVMReadv(m.pid, local, []unix.RemoteIovec{{Base: uintptr(addr), Len: n}}, 0)
		switch {
		case err == nil && got == n:
			return b
		case err == nil, err == unix.EFAULT, err == unix.ESRCH:
			return nil // partly or not mapped, or gone: as the file would say
		}
		m.noVM = true // ENOSYS, EPERM (seccomp, a security module): the file may still answer
	}
	if m.f == nil && m.err == nil {
		m.f, m.err = os.Open("/proc/" + strconv.Itoa(m.pid) + "/mem")
	}
	if m.err != nil {
		return nil
	}
	if _, err := m.f.ReadAt(b, int64(addr)); err != nil {
		return nil
	}
	return b
}

func (m *memory) close() {
	if m.f != nil {
		m.f.Close()
	}
}

// waitSet lists the descriptors a blocked call waits on; nil if they cannot be read.
func waitSet(mem *memory, kind waitKind, args []uint64) []int {
	switch kind {
	case readFD:
		return []int{int(args[0])}
	case selectFD:
		return selectSet(mem, args[0], args[1])
	case pollFD:
		return pollSet(mem, args[0], args[1])
	case epollFD:
		return epollSet(mem.pid, args[0])
	}
	return nil
}

// selectSet decodes the read set of select(nfds, readfds, ...). No descriptors, or
// no read set, is an empty set, not an unknown one: select(0, NULL, NULL, NULL, t)
// is how tclsh's `after` and perl's four-argument select sleep, holding the
// terminal open all the while.
func selectSet(mem *memory, nfds, addr uint64) []int {
	if nfds > 1024 {
		return nil
	}
	if nfds == 0 || addr == 0 {
		return []int{}
	}
	b := mem.read(addr, int(nfds+7)/8)
	if b == nil {
		return nil
	}
	fds := []int{}
	for fd := 0; fd < int(nfds); fd++ {
		if b[fd/8]&(1<<(fd%8)) != 0 {
			fds = append(fds, fd)
		}
	}
	return fds
}

// pollSet decodes poll's array of struct pollfd {int fd; short events, revents}.
func pollSet(mem *memory, addr, nfds uint64) []int {
	if nfds > 4096 {
		return nil
	}
	if nfds == 0 {
		return []int{} // poll(NULL, 0, t): a sleep
	}
	b := mem.read(addr, int(nfds)*8)
	if b == nil {
		return nil
	}
	fds := []int{}
	for i := 0; i < int(nfds); i++ {
		if fd := int32(binary.LittleEndian.Uint32(b[8*i:])); fd >= 0 {
			fds = append(fds, int(fd))
		}
	}
	return fds
}

// epollSet lists the descriptors registered in an epoll instance ("tfd: N" lines).
func epollSet(pid int, epfd uint64) []int {
	b, err := readProc("/proc/" + strconv.Itoa(pid) + "/fdinfo/" + strconv.FormatUint(epfd, 10))
	if err != nil {
		return nil
	}
	fds := []int{}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "tfd:" {
			if fd, err := strconv.Atoi(f[1]); err == nil {
				fds = append(fds, fd)
			}
		}
	}
	return fds
}

// callTimeout decodes the timeout a blocked call was given; 0 means none. The
// kernel copies select's and ppoll's struct in at entry and writes what is left
// back only on return, so while the call blocks memory holds what it was given.
func callTimeout(mem *memory, call waitCall, args []uint64) time.Duration {
	arg := args[timeoutArg[call.kind]]
	switch call.timeout {
	case millisArg:
		return millis(arg)
	case timespecPtr:
		return span(mem.read(arg, 16), time.Nanosecond)
	case timevalPtr:
		return span(mem.read(arg, 16), time.Microsecond)
	}
	return 0
}

// millis decodes an int timeout in milliseconds. The register holds a C int whose
// upper half is whatever the caller left there, so only the lower 32 bits count.
func millis(arg uint64) time.Duration {
	ms := int32(uint32(arg))
	if ms < 0 {
		return 0
	}
	return max(time.Duration(ms)*time.Millisecond, time.Nanosecond)
}

// longest stands for a timeout too long for a Duration (292 years): as good as
// none, but a timeout the caller asked for.
const longest = time.Duration(math.MaxInt64)

// span decodes struct timespec or timeval, {int64 seconds; int64 fraction} in
// units of unit. nil (NULL, or memory that cannot be read) is 0: no timeout. Zero
// (a non-blocking poll) is 1ns, never 0. Negative values, which the kernel
// rejects, are 0.
func span(b []byte, unit time.Duration) time.Duration {
	if len(b) < 16 {
		return 0
	}
	sec := int64(binary.LittleEndian.Uint64(b))
	frac := int64(binary.LittleEndian.Uint64(b[8:]))
	if sec < 0 || frac < 0 {
		return 0
	}
	if sec > int64(longest/time.Second) || frac > int64(longest/unit) {
		return longest
	}
	// select takes more than a second of microseconds (the kernel carries them over).
	d, f := time.Duration(sec)*time.Second, time.Duration(frac)*unit
	if d > longest-f {
		return longest
	}
	return max(d+f, time.Nanosecond)
}
