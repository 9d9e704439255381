package pty

import (
	"slices"
	"testing"
)

func TestWalkTree(t *testing.T) {
	t.Parallel()
	tree := map[int][]int{1: {2, 3}, 2: {4}, 3: {5, 6}, 4: {1}, 7: {8}} // 4 → 1: a reused pid
	children := func(pid int) ([]int, bool) {
		if pid == 99 {
			return nil, false
		}
		return tree[pid], true
	}
	tests := []struct {
		name  string
		roots []int
		limit int
		want  []int
		ok    bool
	}{
		{"whole tree, breadth first, each once", []int{1}, 100, []int{1, 2, 3, 4, 5, 6}, true},
		{"several roots", []int{7, 3}, 100, []int{7, 3, 8, 5, 6}, true},
		{"limit", []int{1}, 3, []int{1, 2, 3}, true},
		{"a root that cannot be read", []int{99}, 100, []int{99}, false},
		{"a child that cannot be read is skipped", []int{10}, 100, []int{10, 99, 11}, true},
	}
	tree[10] = []int{99, 11}
	for _, tt := range tests {
		var got []int
		ok := walkTree(tt.roots, tt.limit, children, func(pid int) { got = append(got, pid) })
		if ok != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("%s: visited %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSessionMembers(t *testing.T) {
	t.Parallel()
	all := []proc{
		{pid: 1, ppid: 0, sid: 1, start: 1},
		{pid: 100, ppid: 1, pgid: 100, sid: 100, start: 50},   // the leader
		{pid: 101, ppid: 100, pgid: 101, sid: 100, start: 51}, // a job
		{pid: 102, ppid: 101, pgid: 102, sid: 102, start: 52}, // setsid: another session, still a descendant
		{pid: 103, ppid: 102, pgid: 102, sid: 102, start: 53}, // its child
		{pid: 200, ppid: 1, pgid: 200, sid: 200, start: 60},   // escaped and orphaned, known from an earlier sweep
		{pid: 300, ppid: 1, pgid: 300, sid: 300, start: 70},   // pid once known, now reused by another process
		{pid: 400, ppid: 1, pgid: 400, sid: 400, start: 80},   // unrelated
	}
	known := map[int]uint64{200: 60, 300: 1}
	var got []int
	for _, pr := range sessionMembers(all, 100, known) {
		got = append(got, pr.pid)
	}
	slices.Sort(got)
	if want := []int{100, 101, 102, 103, 200}; !slices.Equal(got, want) {
		t.Errorf("members %v, want %v", got, want)
	}
	if known[103] != 53 || known[300] != 1 {
		t.Errorf("known not updated with the members: %v", known)
	}
}
