//go:build !linux

package pty

// ioctlUnread is FIONREAD: bytes waiting to be read, on the master the output the
// program wrote, on the slave the input typed to it.
const ioctlUnread = 0x4004667f // FIONREAD on the BSDs and macOS

func inputWait(_ *leaderFiles, leader, pgid int, tty string) Waiting {
	return Waiting{Why: "input-wait detection needs Linux /proc"}
}
