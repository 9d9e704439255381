package pty

import (
	"bufio"
	"bytes"
	"strconv"
	"syscall"
)

// maxRelays bounds how many relays in a row input-wait looks behind (script
// running sudo running apt is three).
const maxRelays = 3

// relayed judges the terminal behind a local relay: a program that passes our
// terminal to a pseudo-terminal of its own, whose master it holds (script, apt
// and dpkg, sudo's use_pty, expect, Python's pty.spawn). Unlike ssh's far side,
// the other side is on this machine, among the relay's descendants: the
// foreground group of that terminal is judged as ours would be. ok is false
// where it cannot be found; the relay is then a proxy, as before.
func relayed(files *leaderFiles, pid, master int, calls map[int]waitCall, depth int) (Waiting, bool) {
	n, ok := ttyIndex(pid, master)
	if !ok {
		return Waiting{}, false
	}
	inner := "/dev/pts/" + strconv.Itoa(n)
	var st syscall.Stat_t
	if err := syscall.Stat(inner, &st); err != nil {
		return Waiting{}, false
	}
	var onIt []proc // the descendants whose controlling terminal it is
	walkTree([]int{pid}, maxGroupWalk, children, func(p int) {
		if pr, ok := readStat(p); ok && p != pid && pr.tty == st.Rdev && !pr.zombie {
			onIt = append(onIt, pr)
		}
	})
	if len(onIt) == 0 {
		return Waiting{}, false
	}
	var front []proc
	for _, pr := range onIt {
		if pr.pgid == onIt[0].tpgid {
			front = append(front, pr)
		}
	}
	if len(front) == 0 {
		// Its job in front has ended, and the next has not taken the terminal
		// yet (apt between two runs of dpkg): at work.
		return Waiting{Known: true, Working: true}, true
	}
	return judge(files, front, calls, inner, depth), true
}

// ttyIndex is the number of the pseudo-terminal whose master is pid's
// descriptor fd, from the tty-index line of its /proc fdinfo.
func ttyIndex(pid, fd int) (int, bool) {
	b, err := readProc("/proc/" + strconv.Itoa(pid) + "/fdinfo/" + strconv.Itoa(fd))
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte("tty-index:")); ok {
			n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			return n, err == nil
		}
	}
	return 0, false
}
