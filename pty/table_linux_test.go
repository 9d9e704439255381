package pty

import (
	"os"
	"strconv"
	"sync/atomic"
)

// tableReads counts whole-table reads, which tests keep off the hot paths.
var tableReads atomic.Int64

// procTable reads /proc/<pid>/stat of every process.
func procTable() ([]proc, bool) {
	tableReads.Add(1)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	procs := make([]proc, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pr, ok := readStat(pid); ok {
			procs = append(procs, pr)
		}
	}
	return procs, true
}
