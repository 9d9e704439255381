package pty

import (
	"os"
	"strconv"
	"sync"
	"syscall"
)

// The leader's /proc files that the look before every input reads.
const (
	leaderSyscall   = iota // what it is blocked in
	leaderSchedstat        // how often it woke
	leaderIO               // how much it wrote
	leaderFileCount
)

var leaderFileNames = [leaderFileCount]string{"syscall", "schedstat", "io"}

// leaderFiles keeps the session leader's hot /proc files open and reads them
// again with pread: each look then spares an open and a close per file, a path
// walk and a permission check in the kernel, on the path every reply takes. A
// descriptor names the process it was opened for, never a later one given the
// same number, and answers ESRCH once that process is gone, as a fresh open of
// a reaped pid answers ENOENT. Other processes' files are read the plain way.
type leaderFiles struct {
	pid    int
	mu     sync.Mutex
	fds    [leaderFileCount]int // -1: not open
	closed bool
	buf    [512]byte // what read reads into, under mu
}

func newLeaderFiles(pid int) *leaderFiles {
	f := &leaderFiles{pid: pid}
	for i := range f.fds {
		f.fds[i] = -1
	}
	return f
}

// read returns /proc/<pid>/<leaderFileNames[file]>. The file is read into the
// buffer kept for it and copied out at its length (tens of bytes), not read
// into a fresh buffer of the most it could hold, on every look.
func (f *leaderFiles) read(pid, file int) ([]byte, error) {
	path := func() string { return "/proc/" + strconv.Itoa(pid) + "/" + leaderFileNames[file] }
	if f == nil || pid != f.pid {
		return readProc(path())
	}
	f.mu.Lock() // held while reading: Close must not reuse the number under a read
	defer f.mu.Unlock()
	if f.closed {
		return readProc(path())
	}
	fd := f.fds[file]
	if fd < 0 {
		var err error
		if fd, err = openProc(path()); err != nil {
			return nil, &os.PathError{Op: "open", Path: path(), Err: err}
		}
		f.fds[file] = fd
	}
	buf := f.buf[:]
	for {
		n, err := syscall.Pread(fd, buf, 0)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path(), Err: err}
		case n == len(buf): // perhaps more: read it whole again
			buf = make([]byte, 2*len(buf))
			continue
		}
		return append([]byte(nil), buf[:n]...), nil
	}
}

// close closes the descriptors; later reads open and close as readProc does.
func (f *leaderFiles) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	for i, fd := range f.fds {
		if fd >= 0 {
			syscall.Close(fd)
			f.fds[i] = -1
		}
	}
}
