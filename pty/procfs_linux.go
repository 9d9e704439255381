package pty

import (
	"os"
	"strconv"
	"sync"
	"syscall"
)

// readProc reads a small /proc file with plain system calls: open, read until
// the end, close. os.ReadFile would also stat it, make it non-blocking and try
// to register it with the network poller (which refuses), twice the system calls
// on a path that every completion check takes several times per reply. A file
// of a session's leader that is held open (see holdProc) is read in one pread.
func readProc(path string) ([]byte, error) {
	if b, ok, err := readHeld(path); ok {
		return b, err
	}
	fd, err := openProc(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grow
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

func openProc(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// heldFiles are the /proc files of a session's leader that every send_command
// reads, some twice, before it types (is the shell blocked reading the terminal,
// how often has it woken, what has it written, what is its name). Held open from
// start to reaping, each is one pread instead of a path lookup, open, two reads
// and close. They are files the kernel writes out afresh on every read from
// offset 0, whole in one read, and bound to the process, not its number: once
// it is gone they answer ESRCH, never another process's figures.
var heldFiles = []string{"stat", "syscall", "schedstat", "io", "comm"}

// maxHeld bounds the descriptors held, so that thousands of sessions cannot
// take a process's share of them: leaders beyond it are read by path.
const maxHeld = 2048

// held maps the held files' paths to their descriptors.
var held = struct {
	sync.RWMutex
	fds map[string]int
}{fds: map[string]int{}}

// holdProc opens pid's heldFiles, if there is room, until releaseProc.
func holdProc(pid int) {
	held.Lock()
	defer held.Unlock()
	if len(held.fds)+len(heldFiles) > maxHeld {
		return
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	for _, name := range heldFiles {
		if fd, err := openProc(dir + name); err == nil {
			held.fds[dir+name] = fd
		}
	}
}

// releaseProc closes what holdProc opened for pid.
func releaseProc(pid int) {
	held.Lock()
	defer held.Unlock()
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	for _, name := range heldFiles {
		if fd, ok := held.fds[dir+name]; ok {
			syscall.Close(fd)
			delete(held.fds, dir+name)
		}
	}
}

// readHeld reads path if it is held open; ok is false if it is not. The read
// lock keeps releaseProc from closing the descriptor during the read.
func readHeld(path string) (b []byte, ok bool, err error) {
	held.RLock()
	defer held.RUnlock()
	fd, ok := held.fds[path]
	if !ok {
		return nil, false, nil
	}
	buf := make([]byte, 512)
	for {
		n, err := syscall.Pread(fd, buf, 0)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, true, &os.PathError{Op: "read", Path: path, Err: err}
		case n == len(buf):
			buf = make([]byte, 2*len(buf)) // may not be all of it: read it again, whole
			continue
		}
		return buf[:n], true, nil
	}
}
