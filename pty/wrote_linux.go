package pty

import (
	"bytes"
	"strconv"
)

// wrote reads the bytes pid has passed to write(2) and its kind in all its life
// (wchar in /proc/pid/io): to every file, the terminal included. files may be
// nil.
func wrote(files *leaderFiles, pid int) (uint64, bool) {
	b, err := files.read(pid, leaderIO)
	if err != nil {
		return 0, false
	}
	_, rest, ok := bytes.Cut(b, []byte("wchar:"))
	if !ok {
		return 0, false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	n, err := strconv.ParseUint(string(bytes.TrimSpace(line)), 10, 64)
	return n, err == nil
}
