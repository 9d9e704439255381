package pty

import (
	"os"
	"runtime"
	"strconv"
	"strings"
)

// syscall numbers that mean "waiting for input", per architecture. Reads name the
// descriptor in their first argument; the multiplexers do not, so for them the
// process's open descriptors decide.
type syscallSet struct{ reads, multiplex map[int]bool }

var waitSyscalls = map[string]syscallSet{
	"amd64": {
		reads:     map[int]bool{0: true, 17: true, 19: true, 295: true},                                   // read pread64 readv preadv
		multiplex: map[int]bool{7: true, 23: true, 232: true, 270: true, 271: true, 281: true, 441: true}, // poll select epoll_wait pselect6 ppoll epoll_pwait epoll_pwait2
	},
	"arm64": {
		reads:     map[int]bool{63: true, 65: true, 67: true, 69: true},  // read readv pread64 preadv
		multiplex: map[int]bool{22: true, 72: true, 73: true, 441: true}, // epoll_pwait pselect6 ppoll epoll_pwait2
	},
}

func inputWait(leader, pgid int, tty string) Waiting {
	set, ok := waitSyscalls[runtime.GOARCH]
	if !ok {
		return Waiting{Why: "input-wait detection does not know " + runtime.GOARCH + " system calls"}
	}
	members, ok := groupMembers(leader, pgid)
	if !ok {
		return Waiting{Why: "/proc is not readable"}
	}
	w := Waiting{Known: true}
	for _, pid := range members {
		state, nr, arg0, ok := blockedIn(pid)
		if !ok {
			return Waiting{Why: "/proc/" + strconv.Itoa(pid) + "/syscall is not readable"}
		}
		switch {
		case state == 'R' || state == 'D':
			return Waiting{Known: true} // something in front is working
		case set.reads[nr] && isTerminal(pid, arg0, tty):
			w.Reading, w.PID = true, pid
			w.Wakeups += wakeups(pid)
		case set.multiplex[nr]:
			term, other := descriptors(pid, tty)
			if !term {
				continue
			}
			if other {
				w.Proxy = true
			}
			w.Reading, w.PID = true, pid
			w.Wakeups += wakeups(pid)
		}
	}
	if w.Proxy {
		w.Reading = false
	}
	return w
}

// groupMembers walks the session's process tree from its leader (children files are
// cheap, the whole process table is not) and keeps the processes of group pgid.
func groupMembers(leader, pgid int) ([]int, bool) {
	var members []int
	queue := []int{leader}
	for seen := 0; len(queue) > 0 && seen < 4096; seen++ {
		pid := queue[0]
		queue = queue[1:]
		if pr, ok := readStat(pid); ok && pr.pgid == pgid && !pr.zombie {
			members = append(members, pid)
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

// blockedIn returns the process's state letter and, when it sleeps in a system
// call, the call's number and first argument (/proc/<pid>/syscall: "nr arg0 ...").
func blockedIn(pid int) (state byte, nr int, arg0 uint64, ok bool) {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return 0, 0, 0, true // gone: not a member any more
	}
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		state = stat[i+2]
	}
	b, err := os.ReadFile(dir + "/syscall")
	if err != nil {
		return 0, 0, 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 || f[0] == "running" {
		return 'R', -1, 0, true
	}
	nr, err1 := strconv.Atoi(f[0])
	arg0, err2 := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 64)
	if err1 != nil || err2 != nil {
		return state, -1, 0, true
	}
	return state, nr, arg0, true
}

func isTerminal(pid int, fd uint64, tty string) bool {
	target, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + strconv.FormatUint(fd, 10))
	return err == nil && (target == tty || target == "/dev/tty")
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

// wakeups reads voluntary_ctxt_switches from /proc/<pid>/status.
func wakeups(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
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
