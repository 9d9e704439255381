package pty

// The whole process table, read the slow way: an oracle for what Close must have ended.

// sessionMembers picks from the process table the processes whose session id
// is sid, those in known (same pid and start time), and all their descendants
// (setsid cmd & leaves the session but keeps its parent). It adds them to known.
func sessionMembers(all []proc, sid int, known map[int]uint64) []proc {
	byPid := make(map[int]proc, len(all))
	kids := map[int][]int{}
	var roots []int
	for _, pr := range all {
		byPid[pr.pid] = pr
		kids[pr.ppid] = append(kids[pr.ppid], pr.pid)
		if start, ok := known[pr.pid]; pr.sid == sid || ok && start == pr.start {
			roots = append(roots, pr.pid)
		}
	}
	var members []proc
	walkTree(roots, len(all), func(pid int) ([]int, bool) { return kids[pid], true }, func(pid int) {
		pr := byPid[pid]
		members = append(members, pr)
		if known != nil {
			known[pid] = pr.start
		}
	})
	return members
}

// sessionProcs lists the processes of the session sid and their descendants.
func sessionProcs(sid int) ([]proc, bool) {
	all, ok := procTable()
	if !ok {
		return nil, false
	}
	return sessionMembers(all, sid, nil), true
}
