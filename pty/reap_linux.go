package pty

import (
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// One reaper serves the whole server. Every child of the server that exits is
// reaped by it: session leaders, whose status it hands to their Process, and the
// orphans the server adopted as child subreaper, as soon as they die, so a session
// that spawns and abandons processes all day (`make -j`, `(cmd &)`) leaves no
// zombies behind. It replaces a goroutine per session blocked in wait4, which held
// an OS thread per session.
//
// A child is the reaper's when it is a registered leader, or when it is in another
// session than the server's own: every session program starts in its own session,
// and nothing a session starts can join the server's. Children the rest of the
// process starts with os/exec stay in the server's session and are left to their
// own Wait.
type reaper struct {
	mu       sync.Mutex
	leaders  map[int]*Process
	starting []forking // Starts between fork and registration
	lives    []life    // sessions' lifetimes, for attributing orphans (see attribute)
	started  bool
	wake     chan os.Signal

	// The kernel's last allocated pid when last read, and how many times it was
	// seen to go down (the pids wrapped past pid_max): see pidOrder.
	lastPid int
	wraps   int
}

// life is when a session's leader started and, once closed, when it was closed, in
// clock ticks since boot (the unit of /proc/<pid>/stat's start time), and the
// kernel's last allocated pid just before the leader was forked and just after the
// session's last process was gone: every process the session started has a pid
// between the two, unless the pids wrapped meanwhile (wraps, as counted at open).
type life struct {
	p               *Process
	start, end      uint64 // end 0: still open
	openPid, endPid int    // endPid 0: still open
	wraps           int
	pidsKnown       bool
}

// forking is a Start between its fork and its registration: the kernel's last
// allocated pid just before the fork (known: it could be read), and the wraps
// counted then. The leader it forks has a later pid, unless the pids wrapped.
type forking struct {
	pid, wraps int
	known      bool
}

// maybeForkingLocked reports whether the session leader pid may be one a Start
// has forked and not registered yet.
func (r *reaper) maybeForkingLocked(pid int) bool {
	for _, f := range r.starting {
		if !f.known || f.wraps != r.wraps || pid > f.pid {
			return true
		}
	}
	return false
}

// maxLives bounds the closed sessions remembered for attribution.
const maxLives = 1024

var collector = &reaper{leaders: map[int]*Process{}}

// launch forks p's program and registers its leader with the reaper, starting the
// reaper on first use. The reaper goroutine lives as long as the process: it
// exists for every child the server will ever have.
//
// The fork is not made under the reaper's lock (under load it has taken seconds,
// and zombies would pile up behind it); instead, while a Start is in flight, a
// zombie that leads its own session may be a leader not registered yet, and is
// left alone until the Start has registered it.
func (p *Process) launch() error {
	r := collector
	r.mu.Lock()
	if !r.started {
		r.started = true
		r.wake = make(chan os.Signal, 1)
		signal.Notify(r.wake, syscall.SIGCHLD)
		go r.run()
	}
	openPid, known := r.pidNowLocked()
	wraps := r.wraps
	me := forking{pid: openPid, wraps: wraps, known: known}
	r.starting = append(r.starting, me)
	r.mu.Unlock()

	err := p.cmd.Start()
	if afterFork != nil && err == nil {
		afterFork(p.cmd.Process.Pid)
	}

	r.mu.Lock()
	if i := slices.Index(r.starting, me); i >= 0 {
		r.starting = slices.Delete(r.starting, i, i+1)
	}
	if err == nil {
		p.pid = p.cmd.Process.Pid
		r.leaders[p.pid] = p
		st, _ := readStat(p.pid)
		r.lives = append(r.lives, life{p: p, start: st.start, openPid: openPid, wraps: wraps, pidsKnown: known})
	}
	r.mu.Unlock()
	select { // look again at what was left alone meanwhile
	case r.wake <- syscall.SIGCHLD:
	default:
	}
	return err
}

// afterFork, when set (by tests only), runs in launch between the fork and the
// registration of the leader: the moment a concurrent Close must not mistake the
// new leader for an orphan of its own.
var afterFork func(pid int)

// run reaps on every SIGCHLD.
func (r *reaper) run() {
	for range r.wake {
		r.pass()
	}
}

// pass reaps every exited child of the reaper's.
func (r *reaper) pass() {
	r.mu.Lock()
	defer r.mu.Unlock()
	self := selfSession()
	for {
		pid := peekExited()
		if pid <= 0 {
			return
		}
		if !r.ownsLocked(pid, self) {
			// A child of someone else's, or one left alone for now, heads the list
			// of exited children: look at ours one by one.
			for _, c := range ourChildren() {
				if r.ownsLocked(c, self) {
					r.collectLocked(c)
				}
			}
			return
		}
		if !r.collectLocked(pid) {
			return
		}
	}
}

func (r *reaper) ownsLocked(pid, self int) bool {
	if r.leaders[pid] != nil {
		return true
	}
	pr, ok := readStat(pid)
	if !ok || pr.sid == self {
		return false
	}
	return len(r.starting) == 0 || pr.sid != pid // see launch
}

// collectLocked reaps pid if it has exited, handing a leader's status to its
// Process, and reports whether it did.
func (r *reaper) collectLocked(pid int) bool {
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	if got != pid || err != nil {
		return false
	}
	if p := r.leaders[pid]; p != nil {
		delete(r.leaders, pid)
		p.status = waitStatus(ws)
		_ = p.cmd.Process.Release() // its pidfd; the pid is reaped
		close(p.done)
	}
	return true
}

// closed records that p's session is over, for attribute.
func (r *reaper) closed(p *Process) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := ticksNow()
	endPid, known := r.pidNowLocked()
	for i := range r.lives {
		if l := &r.lives[i]; l.p == p {
			l.end, l.p = max(now, 1), nil
			l.endPid, l.pidsKnown = endPid, l.pidsKnown && known
		}
	}
	if extra := len(r.lives) - maxLives; extra > 0 {
		kept := r.lives[:0]
		for _, l := range r.lives {
			if l.end == 0 || extra == 0 {
				kept = append(kept, l)
			} else {
				extra--
			}
		}
		r.lives = kept
	}
}

// orphans lists the live children of the server that are not leaders and are not
// in its own session: what it adopted. The kernel hands an orphan to the main
// thread of its subreaper (the first live thread of the group, and Go's main
// thread never exits), so that thread's children are enough; all lists every
// thread's, for KillOrphans, which must miss nothing.
func (r *reaper) orphans(all bool) []proc {
	self := selfSession()
	kids, ok := []int(nil), false
	if !all {
		kids, ok = taskChildren("/proc/self/task/" + strconv.Itoa(os.Getpid()))
	}
	if !ok {
		kids = ourChildren()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []proc
	for _, c := range kids {
		if r.leaders[c] != nil {
			continue
		}
		if pr, ok := readStat(c); ok && pr.sid != self {
			out = append(out, pr)
		}
	}
	return out
}

// attribute reports whether the orphan o came from p's session. The ties a
// process cannot shed come first: its session id is still the leader's, or the
// walk of p's tree met it (known, pid and start time). A process that called setsid
// has neither; it may still hold p's terminal open (output not redirected). When
// it holds nothing, it is p's if p's session is the only one that could have
// started it: open when it started, by its start time, and by its pid, allocated
// after the session opened and before it closed — and if it is not a leader that
// a Start has forked and not registered yet.
func (r *reaper) attribute(p *Process, o proc, known map[int]uint64) bool {
	if o.sid == p.pid {
		return true
	}
	if start, ok := known[o.pid]; ok && start == o.start {
		return true
	}
	if holds, _ := descriptors(o.pid, p.tty); holds {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pidNowLocked() // notice a wrap that o's own pid may come after
	if o.sid == o.pid && r.maybeForkingLocked(o.pid) {
		// Perhaps a leader another Start has forked and not registered yet, which
		// p, the only session open when it was forked, would otherwise take for
		// one of its own.
		return false
	}
	only := false
	for _, l := range r.lives {
		if l.start > o.start || (l.end != 0 && l.end < o.start) {
			continue // not open when o started
		}
		if r.pidOrderLocked(l) && (o.pid <= l.openPid || (l.endPid != 0 && o.pid > l.endPid)) {
			// Not open when o was forked. Start times count in ticks of 10 ms: a
			// session closed in the tick o started in is told apart by the pid.
			continue
		}
		if l.p != p {
			return false
		}
		only = true
	}
	return only
}

// KillOrphans kills every process the server adopted that is still running and
// waits (bounded) for the reaper to collect them: at shutdown, whatever escaped
// its session ends with the server, whatever its environment.
func KillOrphans() int {
	left := collector.orphans(true)
	for _, o := range left {
		_ = syscall.Kill(o.pid, syscall.SIGKILL)
	}
	waitReaped(left)
	return len(left)
}

// waitReaped waits up to killWait for the orphans in ps to be reaped.
func waitReaped(ps []proc) {
	if len(ps) == 0 {
		return
	}
	deadline := time.Now().Add(killWait)
	for _, o := range ps {
		for {
			collector.pass()
			if pr, ok := readStat(o.pid); !ok || pr.start != o.start || time.Now().After(deadline) {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// peekExited returns the pid of an exited child without reaping it (waitid with
// WNOWAIT), 0 if none has exited, -1 if there are no children.
func peekExited() int {
	var info siginfo
	const pAll, wNowait = 0, 0x01000000
	_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pAll, 0, uintptr(unsafe.Pointer(&info)),
		syscall.WEXITED|syscall.WNOHANG|wNowait, 0, 0)
	if errno != 0 {
		return -1
	}
	return int(info.pid)
}

// siginfo is the beginning of siginfo_t as waitid fills it for SIGCHLD: the union
// of signal details is pointer-aligned after three ints.
type siginfo struct {
	signo, errno, code int32
	_                  [unsafe.Sizeof(uintptr(0)) - 4]byte
	pid                int32
	uid                uint32
	status             int32
	_                  [100]byte
}

// ourChildren lists the server's children, from every thread's children file.
func ourChildren() []int {
	var kids []int
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	for _, t := range tasks {
		k, _ := taskChildren("/proc/self/task/" + t.Name()) // a thread that exited meanwhile had none
		kids = append(kids, k...)
	}
	return kids
}

var (
	selfSidOnce sync.Once
	selfSid     int
)

// selfSession is the server's own session id.
func selfSession() int {
	selfSidOnce.Do(func() {
		pr, _ := readStat(os.Getpid())
		selfSid = pr.sid
	})
	return selfSid
}

// pidNowLocked reads the kernel's last allocated pid, counting a wrap when it went
// down since the last reading; ok is false where it cannot be read.
func (r *reaper) pidNowLocked() (pid int, ok bool) {
	b, err := os.ReadFile("/proc/sys/kernel/ns_last_pid")
	if err != nil {
		return 0, false
	}
	pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0, false
	}
	if pid < r.lastPid {
		r.wraps++
	}
	r.lastPid = pid
	return pid, true
}

// pidOrderLocked reports whether pids tell what l's session could have started:
// both ends were read and no wrap was seen since it opened. The kernel's counter is
// read at every open, close and attribution, so a wrap goes unseen only if more
// than pid_max processes were forked between two of them.
func (r *reaper) pidOrderLocked(l life) bool {
	return l.pidsKnown && l.wraps == r.wraps
}

// ticksNow is the time since boot in clock ticks (USER_HZ, 100 on Linux).
func ticksNow() uint64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	secs, _, _ := strings.Cut(string(b), " ")
	whole, frac, _ := strings.Cut(secs, ".")
	w, _ := strconv.ParseUint(whole, 10, 64)
	f, _ := strconv.ParseUint((frac + "00")[:2], 10, 64)
	return w*100 + f
}

// maxSweep bounds the processes one sweep of Close visits.
const maxSweep = 1 << 16

// members walks p's process tree: from the leader while it lives, from every
// process an earlier sweep met (known, the same pid and start time: a job
// re-parented to us when the leader died), and from the orphans attributed to p.
// Every process visited is added to known.
func (p *Process) members(known map[int]uint64) ([]proc, bool) {
	var roots []int
	if p.leaderAlive() {
		roots = append(roots, p.pid)
	}
	for pid, start := range known {
		if pr, ok := readStat(pid); ok && pr.start == start {
			roots = append(roots, pid)
		}
	}
	for _, o := range collector.orphans(false) {
		if collector.attribute(p, o, known) {
			roots = append(roots, o.pid)
		}
	}
	var members []proc
	walkTree(roots, maxSweep, children, func(pid int) {
		if pr, ok := readStat(pid); ok {
			members = append(members, pr)
			known[pid] = pr.start
		}
	})
	return members, true
}

// reapOrphans collects whatever exited among the server's children now, rather
// than when the SIGCHLD is handled.
func (p *Process) reapOrphans() { collector.pass() }

// closedSession records that p's session is over.
func (p *Process) closedSession() { collector.closed(p) }
