package pty

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ioctlGetTermios reads a terminal's termios.
const ioctlGetTermios = syscall.TCGETS

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

// BecomeSubreaper makes the calling process the reaper of orphaned
// descendants (a double-forked `(cmd &)` inside a session comes back to us
// instead of init), so Close can find, kill and reap them. The server calls it
// once at startup. Elsewhere than Linux it does nothing.
func BecomeSubreaper() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return os.NewSyscallError("prctl(PR_SET_CHILD_SUBREAPER)", errno)
	}
	return nil
}

// proc is one line of the process table.
type proc struct {
	pid, ppid, pgid, sid int
	start                uint64 // start time in clock ticks: with pid, identifies a process
	zombie               bool
	state                byte   // R running, S sleeping, D disk wait, T stopped, Z zombie...
	tty                  uint64 // its controlling terminal's device number, 0 for none
	tpgid                int    // the foreground process group of that terminal
}

// readStat parses /proc/<pid>/stat: "pid (comm) state ppid pgrp session ...";
// comm may hold spaces and parentheses, so fields are counted after the last ')'.
func readStat(pid int) (proc, bool) {
	b, err := readProc("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false // gone meanwhile
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 of proc(5): state, ppid, pgrp, session, ..., starttime (22).
	if len(f) < 20 {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	sid, err3 := strconv.Atoi(f[3])
	start, err4 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return proc{}, false
	}
	tty, _ := strconv.ParseUint(f[4], 10, 64)
	tpgid, _ := strconv.Atoi(f[5])
	zombie := f[0] == "Z" || f[0] == "X"
	return proc{pid: pid, ppid: ppid, pgid: pgid, sid: sid, start: start, zombie: zombie, state: f[0][0], tty: tty, tpgid: tpgid}, true
}

// commLen is the longest name /proc/<pid>/comm shows (TASK_COMM_LEN - 1).
const commLen = 15

// processName prefers comm (it names busybox applets and scripts' interpreters
// the way ps does) and uses the executable's basename when comm was truncated.
func processName(pid int) string {
	if pid <= 0 {
		return ""
	}
	dir := "/proc/" + strconv.Itoa(pid)
	b, _ := readProc(dir + "/comm")
	comm := strings.TrimRight(string(b), "\n")
	if comm != "" && len(comm) < commLen {
		return comm
	}
	if exe, err := os.Readlink(dir + "/exe"); err == nil {
		base := filepath.Base(strings.TrimSuffix(exe, " (deleted)"))
		if comm == "" || strings.HasPrefix(base, comm) {
			return base
		}
	}
	return comm
}

// processArgs returns pid's command line, split at its NULs.
func processArgs(pid int) []string {
	if pid <= 0 {
		return nil
	}
	b, err := readProc("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// processEnv returns key's value in the environment pid was started with.
func processEnv(pid int, key string) string {
	if pid <= 0 {
		return ""
	}
	b, err := readProc("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if k, v, ok := bytes.Cut(kv, []byte("=")); ok && string(k) == key {
			return string(v)
		}
	}
	return ""
}

func processCwd(pid int) string {
	if pid <= 0 {
		return ""
	}
	cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	if err != nil {
		return ""
	}
	return cwd
}
