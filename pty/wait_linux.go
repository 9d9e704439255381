package pty

import (
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ioctlUnread is FIONREAD: bytes waiting to be read, on the master the output the
// program wrote, on the slave the input typed to it.
const ioctlUnread = syscall.TIOCINQ

// waitSyscalls maps, per architecture, the system calls that wait for input to
// where their descriptors are and how they take their timeout.
var waitSyscalls = map[string]map[int]waitCall{
	"amd64": {
		0: {readFD, noTimeout}, 17: {readFD, noTimeout}, // read pread64
		19: {readFD, noTimeout}, 295: {readFD, noTimeout}, // readv preadv
		23: {selectFD, timevalPtr}, 270: {selectFD, timespecPtr}, // select pselect6
		7: {pollFD, millisArg}, 271: {pollFD, timespecPtr}, // poll ppoll
		232: {epollFD, millisArg}, 281: {epollFD, millisArg}, // epoll_wait epoll_pwait
		441: {epollFD, timespecPtr}, // epoll_pwait2
	},
	"arm64": {
		63: {readFD, noTimeout}, 65: {readFD, noTimeout}, // read readv
		67: {readFD, noTimeout}, 69: {readFD, noTimeout}, // pread64 preadv
		72: {selectFD, timespecPtr},                           // pselect6
		73: {pollFD, timespecPtr},                             // ppoll
		22: {epollFD, millisArg}, 441: {epollFD, timespecPtr}, // epoll_pwait epoll_pwait2
	},
}

// workSyscalls are, per architecture, the calls in which a program is at work
// though not running: waiting for time alone (nanosleep, clock_nanosleep), for a
// child (wait4, waitid), or for a child it starts (clone, fork, vfork, clone3:
// dash's vfork waits for the child's exec; execve, execveat). A shell blocked in
// one between forking a job and handing it the terminal is still in front and
// reads nothing: without them, a prompt-like line the job printed just before
// (printf '$ '; setsid -w sleep 1) was taken for the shell's prompt (probe 9).
var workSyscalls = map[string]map[int]bool{
	"amd64": {35: true, 230: true, 61: true, 247: true, 56: true, 57: true, 58: true, 435: true, 59: true, 322: true},
	"arm64": {101: true, 115: true, 260: true, 95: true, 220: true, 435: true, 221: true, 281: true},
}

func inputWait(files *leaderFiles, leader, pgid int, tty string) Waiting {
	calls, ok := waitSyscalls[runtime.GOARCH]
	if !ok {
		return Waiting{Why: "input-wait detection does not know " + runtime.GOARCH + " system calls"}
	}
	// Fast path: the group's own leader (a shell at its prompt, a REPL, the first
	// program of a job) blocked on the terminal answers without walking the tree.
	// getpgid says it still leads the group without reading /proc/<pid>/stat,
	// the dearest file of a check (the kernel sums the whole thread group's
	// times and memory for it): a quarter of the server's look at the shell
	// before each input. Its state need not be read either: a leader that runs,
	// or is a zombie, shows no blocked system call, so it cannot pass as reading,
	// and the walk below then reads every member as before.
	if g, err := syscall.Getpgid(pgid); err == nil && g == pgid {
		if w := judge(files, []proc{{pid: pgid, pgid: pgid}}, calls, tty, 0); w.Reading || w.Proxy {
			return w
		}
	}
	members, ok := groupMembers(leader, pgid)
	if !ok {
		return Waiting{Why: "/proc is not readable"}
	}
	if len(members) == 0 {
		// The job in front has ended and its shell has not taken the terminal
		// back yet: nobody reads, and whatever it printed last (a prompt-like
		// "$ ") is not a question. The shell's prompt comes next.
		return Waiting{Known: true, Working: true}
	}
	return judge(files, members, calls, tty, 0)
}

// judge decides from the foreground processes' blocked system calls. depth
// counts the relays (relayed) it looks behind.
func judge(files *leaderFiles, members []proc, calls map[int]waitCall, tty string, depth int) Waiting {
	w := Waiting{Known: true}
	works := workSyscalls[runtime.GOARCH]
	busy := false // a member runs, or waits for time or a child alone
	for _, m := range members {
		if m.state == 'R' || m.state == 'D' {
			return Waiting{Known: true, Working: true} // something in front is working
		}
		pid := m.pid
		nr, args, ok := blockedIn(files, pid)
		if !ok {
			return Waiting{Why: "/proc/" + strconv.Itoa(pid) + "/syscall is not readable"}
		}
		if nr < 0 || works[nr] {
			busy = true // running since its state was read, or at work (sleeping, waiting for a child)
			continue
		}
		call, ok := calls[nr]
		if !ok {
			continue
		}
		term, proxy, timeout, idle, master := waitsOn(pid, call, args, tty)
		busy = busy || idle
		if term && master >= 0 && depth < maxRelays {
			if in, ok := relayed(files, pid, master, calls, depth+1); ok {
				// A local relay: what its inner terminal's reader does is the answer.
				busy = busy || in.Working
				w.Proxy = w.Proxy || in.Proxy
				if in.Reading {
					w.noteReader(in.PID, in.Syscall, in.Timeout)
				}
				w.Wakeups += in.Wakeups
				continue
			}
		}
		if !term {
			if proxy && handsOffTerminal(pid) {
				w.Proxy = true
				if !w.Reading {
					w.PID, w.Syscall = pid, nr
				}
			}
			continue
		}
		w.Proxy = w.Proxy || proxy
		w.noteReader(pid, nr, timeout)
		w.Wakeups += wakeups(files, pid)
	}
	if w.Proxy {
		w.Reading = false
	}
	w.Working = busy && !w.Reading && !w.Proxy
	return w
}

// noteReader counts a process blocked reading the terminal. The one that wakes
// first is reported: its redraw is what comes next.
func (w *Waiting) noteReader(pid, nr int, timeout time.Duration) {
	if !w.Reading || (timeout > 0 && (w.Timeout == 0 || timeout < w.Timeout)) {
		w.PID, w.Syscall, w.Timeout = pid, nr, timeout
	}
	w.Reading = true
}

// handsOffTerminal reports whether pid is a tmux client: it sends its terminal to
// the tmux server, which reads it from then on, and waits on its socket alone. It
// is a proxy the terminal's reader is hidden behind (the server is not in the
// foreground group): without this it looked like a program at work, and every
// input typed into tmux waited for its full timeout.
func handsOffTerminal(pid int) bool {
	name := processName(pid)
	return name == "tmux" || strings.HasPrefix(name, "tmux: ")
}

// waitsOn reports whether a blocked call waits on our terminal, whether it also
// waits on a proxy's descriptor (see role), and the timeout it was given; idle
// says it waits on no descriptor at all, for its timeout alone (a sleep). master
// is a pseudo-terminal master it waits on, -1 if none (or unknown).
func waitsOn(pid int, call waitCall, args []uint64, tty string) (term, proxy bool, timeout time.Duration, idle bool, master int) {
	mem := &memory{pid: pid}
	defer mem.close()
	fds := waitSet(mem, call.kind, args)
	idle = fds != nil && len(fds) == 0
	master = -1
	if fds == nil {
		// The set could not be read: judge by everything the process holds open.
		term, proxy = descriptors(pid, tty)
	} else {
		for _, fd := range fds {
			target := fdTarget(pid, fd)
			switch role(target, tty) {
			case termFD:
				term = true
			case proxyFD:
				proxy = true
				if master < 0 && strings.HasSuffix(target, "/ptmx") {
					master = fd
				}
			}
		}
	}
	if term {
		timeout = callTimeout(mem, call, args)
	}
	return term, proxy, timeout, idle, master
}

// What a descriptor beside the terminal says about the reader.
type fdRole int

const (
	otherFD fdRole = iota // pipe, eventfd, timerfd, signalfd, inotify, file: the reader's own business
	termFD                // our terminal
	proxyFD               // a socket or a pseudo-terminal master: input forwarded elsewhere
)

// role classifies a descriptor by its /proc/<pid>/fd link. A master shows as
// /dev/ptmx or /dev/pts/ptmx (in another mount namespace, a longer path to
// pts/ptmx), every master alike.
func role(target, tty string) fdRole {
	switch {
	case target == tty || target == "/dev/tty":
		return termFD
	case strings.HasPrefix(target, "socket:"), strings.HasSuffix(target, "/ptmx"):
		return proxyFD
	}
	return otherFD
}

func fdTarget(pid, fd int) string {
	t, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + strconv.Itoa(fd))
	return t
}

// groupMembers walks the session's process tree from its leader (children files are
// cheap, the whole process table is not) and keeps the processes of group pgid.
func groupMembers(leader, pgid int) ([]proc, bool) {
	var members []proc
	ok := walkTree([]int{leader}, maxGroupWalk, children, func(pid int) {
		if pr, ok := readStat(pid); ok && pr.pgid == pgid && !pr.zombie {
			members = append(members, pr)
		}
	})
	if !ok {
		return nil, false
	}
	return members, true
}

// maxGroupWalk bounds the processes one input-wait check reads, since it runs on
// every poll of a call's wait.
const maxGroupWalk = 4096

// children lists pid's children from /proc/<pid>/task/<tid>/children.
func children(pid int) ([]int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	var kids []int
	for _, t := range tasks {
		k, ok := taskChildren(dir + t.Name())
		if !ok {
			return nil, false
		}
		kids = append(kids, k...)
	}
	return kids, true
}

// taskChildren lists the children one thread forked or adopted; task is its
// /proc/<pid>/task/<tid> directory.
func taskChildren(task string) ([]int, bool) {
	b, err := readProc(task + "/children")
	if err != nil {
		return nil, false
	}
	var kids []int
	for _, f := range strings.Fields(string(b)) {
		if k, err := strconv.Atoi(f); err == nil {
			kids = append(kids, k)
		}
	}
	return kids, true
}

// blockedIn returns, when pid sleeps in a system call, the call's number and
// arguments (/proc/<pid>/syscall: "nr arg0 ... arg5 sp pc"); -1 while it runs.
func blockedIn(files *leaderFiles, pid int) (nr int, args []uint64, ok bool) {
	b, err := files.read(pid, leaderSyscall)
	if err != nil {
		if os.IsNotExist(err) || errors.Is(err, syscall.ESRCH) {
			// Gone: not a member any more. A process that exits between the open and
			// the read answers ESRCH; taken for "unreadable", it made input-wait
			// unknown for one check, and quiet output counted as evidence.
			return -1, nil, true
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

// descriptors reports whether pid holds our terminal open and whether it also
// holds a proxy's descriptor (see role), by the same rule as a decoded wait set.
func descriptors(pid int, tty string) (term, proxy bool) {
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
		switch role(target, tty) {
		case termFD:
			term = true
		case proxyFD:
			proxy = true
		}
	}
	return term, proxy
}

// wakeups counts how often pid has been scheduled in (the third field of
// /proc/<pid>/schedstat, cheap to read), or its voluntary context switches from
// /proc/<pid>/status where schedstat is missing. Either grows each time a blocked
// reader wakes.
func wakeups(files *leaderFiles, pid int) uint64 {
	if b, err := files.read(pid, leaderSchedstat); err == nil {
		if f := strings.Fields(string(b)); len(f) == 3 {
			if n, err := strconv.ParseUint(f[2], 10, 64); err == nil {
				return n
			}
		}
	}
	b, err := readProc("/proc/" + strconv.Itoa(pid) + "/status")
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
