package pty

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// KillAdopted kills and reaps the processes this process adopted as child
// subreaper (see BecomeSubreaper) whose environment holds envEntry, e.g.
// "MCP_TERMINAL_SESSION=1a2b3c4d", and returns how many there were. A program that
// escapes its session with setsid and a double fork is beyond Close's reach; it
// still lands here, still carries the environment it was started with, and so can
// still be ended. An entry ending in "=" matches every value.
func KillAdopted(envEntry string) int {
	self := os.Getpid()
	var pids []int
	procs, ok := procTable()
	if !ok {
		return 0
	}
	for _, pr := range procs {
		if pr.ppid != self || pr.zombie {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pr.pid) + "/environ")
		if err != nil || !hasEnv(env, envEntry) {
			continue
		}
		if syscall.Kill(pr.pid, syscall.SIGKILL) == nil {
			pids = append(pids, pr.pid)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for _, pid := range pids {
		for time.Now().Before(deadline) {
			if reap(pid) {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	return len(pids)
}

func hasEnv(environ []byte, entry string) bool {
	for _, kv := range bytes.Split(environ, []byte{0}) {
		if bytes.HasPrefix(kv, []byte(entry)) && (entry[len(entry)-1] == '=' || len(kv) == len(entry)) {
			return true
		}
	}
	return false
}
