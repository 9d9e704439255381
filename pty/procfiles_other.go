//go:build !linux

package pty

// leaderFiles is Linux's cache of the leader's /proc files; elsewhere there is
// no /proc to read.
type leaderFiles struct{}

func newLeaderFiles(int) *leaderFiles { return nil }

func (*leaderFiles) close() {}
