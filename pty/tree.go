package pty

// walkTree visits roots and every process below them, breadth first, each pid
// once and at most limit of them. children lists a process's children; when it
// cannot for a root, the tree cannot be read and walkTree returns false (a
// process below a root may simply have exited meanwhile, and is skipped).
//
// It is the one walker of process trees: Close and input-wait detection give it
// the kernel's per-task children files, the tests' oracle the children recorded
// in a whole process table.
func walkTree(roots []int, limit int, children func(pid int) ([]int, bool), visit func(pid int)) bool {
	seen := make(map[int]bool, len(roots))
	queue := append([]int(nil), roots...)
	isRoot := make(map[int]bool, len(roots))
	for _, r := range roots {
		isRoot[r] = true
	}
	for len(queue) > 0 && len(seen) < limit {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		visit(pid)
		kids, ok := children(pid)
		if !ok && isRoot[pid] {
			return false
		}
		queue = append(queue, kids...)
	}
	return true
}
