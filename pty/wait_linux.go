package pty

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// ioctlUnread is FIONREAD: bytes waiting to be read from the master.
const ioctlUnread = syscall.TIOCINQ

// How a blocked system call says which descriptors it waits on.
type waitKind int

const (
	readFD   waitKind = iota + 1 // read(fd, ...): the first argument
	selectFD                     // select/pselect6(nfds, readfds, ...): a bitmap in memory
	pollFD                       // poll/ppoll(fds, nfds, ...): an array of struct pollfd
	epollFD                      // epoll_wait(epfd, ...): the epoll set, listed in fdinfo
)

// waitSyscalls maps, per architecture, the system calls that wait for input.
var waitSyscalls = map[string]map[int]waitKind{
	"amd64": {
		0: readFD, 17: readFD, 19: readFD, 295: readFD, // read pread64 readv preadv
		23: selectFD, 270: selectFD, // select pselect6
		7: pollFD, 271: pollFD, // poll ppoll
		232: epollFD, 281: epollFD, 441: epollFD, // epoll_wait epoll_pwait epoll_pwait2
	},
	"arm64": {
		63: readFD, 65: readFD, 67: readFD, 69: readFD, // read readv pread64 preadv
		72: selectFD,              // pselect6
		73: pollFD,                // ppoll
		22: epollFD, 441: epollFD, // epoll_pwait epoll_pwait2
	},
}

func inputWait(leader, pgid int, tty string) Waiting {
	calls, ok := waitSyscalls[runtime.GOARCH]
	if !ok {
		return Waiting{Why: "input-wait detection does not know " + runtime.GOARCH + " system calls"}
	}
	// Fast path: the group's own leader (a shell at its prompt, a REPL, the first
	// program of a job) blocked on the terminal answers without walking the tree.
	if pr, ok := readStat(pgid); ok && pr.pgid == pgid && !pr.zombie {
		if w := judge([]proc{pr}, calls, tty); w.Reading || w.Proxy {
			return w
		}
	}
	members, ok := groupMembers(leader, pgid)
	if !ok {
		return Waiting{Why: "/proc is not readable"}
	}
	return judge(members, calls, tty)
}

// judge decides from the foreground processes' blocked system calls.
func judge(members []proc, calls map[int]waitKind, tty string) Waiting {
	w := Waiting{Known: true}
	for _, m := range members {
		if m.state == 'R' || m.state == 'D' {
			return Waiting{Known: true} // something in front is working
		}
		pid := m.pid
		nr, args, ok := blockedIn(pid)
		if !ok {
			return Waiting{Why: "/proc/" + strconv.Itoa(pid) + "/syscall is not readable"}
		}
		kind := calls[nr]
		if kind == 0 {
			continue
		}
		term, other := waitsOn(pid, kind, args, tty)
		if !term {
			continue
		}
		w.Proxy = w.Proxy || other
		w.Reading, w.PID, w.Syscall = true, pid, nr
		w.Wakeups += wakeups(pid)
	}
	if w.Proxy {
		w.Reading = false
	}
	return w
}

// waitsOn reports whether a blocked call waits on our terminal, and whether it also
// waits on a socket or pipe (input that comes from elsewhere).
func waitsOn(pid int, kind waitKind, args []uint64, tty string) (term, other bool) {
	var fds []int
	switch kind {
	case readFD:
		fds = []int{int(args[0])}
	case selectFD:
		fds = selectSet(pid, args[0], args[1])
	case pollFD:
		fds = pollSet(pid, args[0], args[1])
	case epollFD:
		fds = epollSet(pid, args[0])
	}
	if fds == nil {
		// The set could not be read: judge by everything the process holds open.
		return descriptors(pid, tty)
	}
	for _, fd := range fds {
		switch target := fdTarget(pid, fd); {
		case target == tty || target == "/dev/tty":
			term = true
		case strings.HasPrefix(target, "socket:"), strings.HasPrefix(target, "pipe:"):
			other = true
		}
	}
	return term, other
}

func fdTarget(pid, fd int) string {
	t, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + strconv.Itoa(fd))
	return t
}

// readMem reads n bytes of pid's memory at addr.
func readMem(pid int, addr uint64, n int) []byte {
	if addr == 0 || n <= 0 || n > 1<<16 {
		return nil
	}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/mem")
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, int64(addr)); err != nil {
		return nil
	}
	return b
}

// selectSet decodes the read set of select(nfds, readfds, ...).
func selectSet(pid int, nfds, addr uint64) []int {
	if nfds > 1024 {
		return nil
	}
	b := readMem(pid, addr, int(nfds+7)/8)
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
func pollSet(pid int, addr, nfds uint64) []int {
	if nfds > 4096 {
		return nil
	}
	b := readMem(pid, addr, int(nfds)*8)
	if b == nil {
		return nil
	}
	fds := []int{}
	for i := 0; i < int(nfds); i++ {
		fd := int32(uint32(b[8*i]) | uint32(b[8*i+1])<<8 | uint32(b[8*i+2])<<16 | uint32(b[8*i+3])<<24)
		if fd >= 0 {
			fds = append(fds, int(fd))
		}
	}
	return fds
}

// epollSet lists the descriptors registered in an epoll instance ("tfd: N" lines).
func epollSet(pid int, epfd uint64) []int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/fdinfo/" + strconv.FormatUint(epfd, 10))
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

// groupMembers walks the session's process tree from its leader (children files are
// cheap, the whole process table is not) and keeps the processes of group pgid.
func groupMembers(leader, pgid int) ([]proc, bool) {
	var members []proc
	queue := []int{leader}
	for seen := 0; len(queue) > 0 && seen < 4096; seen++ {
		pid := queue[0]
		queue = queue[1:]
		if pr, ok := readStat(pid); ok && pr.pgid == pgid && !pr.zombie {
			members = append(members, pr)
		}
		kids, ok := children(pid)
		if !ok && pid == leader {
			return nil, false
		}
		queue = append(queue, kids...)
	}
	return members, true
}

func children(pid int) ([]int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	var kids []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			return nil, false
		}
		for _, f := range strings.Fields(string(b)) {
			if k, err := strconv.Atoi(f); err == nil {
				kids = append(kids, k)
			}
		}
	}
	return kids, true
}

// blockedIn returns, when pid sleeps in a system call, the call's number and
// arguments (/proc/<pid>/syscall: "nr arg0 ... arg5 sp pc"); -1 while it runs.
func blockedIn(pid int) (nr int, args []uint64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/syscall")
	if err != nil {
		if os.IsNotExist(err) {
			return -1, nil, true // gone: not a member any more
		}
		return -1, nil, false
	}
	f := strings.Fields(string(b))
	if len(f) < 7 {
		return -1, nil, true // "running"
	}
	nr, err = strconv.Atoi(f[0])
	if err != nil {
		return -1, nil, true
	}
	args = make([]uint64, 6)
	for i := range args {
		args[i], _ = strconv.ParseUint(strings.TrimPrefix(f[i+1], "0x"), 16, 64)
	}
	return nr, args, true
}

// descriptors reports whether pid holds our terminal open and whether it also holds
// a socket or a pipe, something else input could come from.
func descriptors(pid int, tty string) (term, other bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false, false
	}
	for _, fd := range fds {
		target, err := os.Readlink(dir + fd.Name())
		if err != nil {
			continue
		}
		switch {
		case target == tty || target == "/dev/tty":
			term = true
		case strings.HasPrefix(target, "socket:"), strings.HasPrefix(target, "pipe:"):
			other = true
		}
	}
	return term, other
}

// wakeups counts how often pid has been scheduled in (the third field of
// /proc/<pid>/schedstat, cheap to read), or its voluntary context switches from
// /proc/<pid>/status where schedstat is missing. Either grows each time a blocked
// reader wakes.
func wakeups(pid int) uint64 {
	dir := "/proc/" + strconv.Itoa(pid)
	if b, err := os.ReadFile(dir + "/schedstat"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 3 {
			if n, err := strconv.ParseUint(f[2], 10, 64); err == nil {
				return n
			}
		}
	}
	b, err := os.ReadFile(dir + "/status")
	if err != nil {
		return 0
	}
	const key = "voluntary_ctxt_switches:"
	s := string(b)
	i := strings.Index(s, "\n"+key)
	if i < 0 {
		return 0
	}
	rest := strings.TrimSpace(s[i+1+len(key):])
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	n, _ := strconv.ParseUint(strings.TrimSpace(rest), 10, 64)
	return n
}
