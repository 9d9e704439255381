package pty

import "syscall"

// KillAdopted kills and reaps the processes this process adopted as child
// subreaper (see BecomeSubreaper) whose environment sets key to value, e.g.
// MCP_TERMINAL_SESSION=1a2b3c4d, and returns how many there were. Close already
// ends the orphans it can tie to its session (see reaper.attribute); a marker the
// program kept in its environment is one tie more, for a daemon that escaped while
// other sessions were open.
func KillAdopted(key, value string) int {
	var pids []proc
	for _, pr := range collector.orphans(false) {
		if pr.zombie || processEnv(pr.pid, key) != value {
			continue
		}
		if syscall.Kill(pr.pid, syscall.SIGKILL) == nil {
			pids = append(pids, pr)
		}
	}
	waitReaped(pids)
	return len(pids)
}
