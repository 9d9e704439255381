package pty

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// KillAdopted kills and reaps the processes this process adopted as child
// subreaper (see BecomeSubreaper) whose environment holds envEntry, e.g.
// "MCP_TERMINAL_SESSION=1a2b3c4d", and returns how many there were. Close already
// ends the orphans it can tie to its session (see reaper.attribute); a marker the
// program kept in its environment is one tie more, for a daemon that escaped while
// other sessions were open. An entry ending in "=" matches every value.
func KillAdopted(envEntry string) int {
	var pids []proc
	for _, pr := range collector.orphans(false) {
		if pr.zombie {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pr.pid) + "/environ")
		if err != nil || !hasEnv(env, envEntry) {
			continue
		}
		if syscall.Kill(pr.pid, syscall.SIGKILL) == nil {
			pids = append(pids, pr)
		}
	}
	waitReaped(pids)
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
