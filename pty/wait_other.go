//go:build !linux

package pty

func inputWait(leader, pgid int, tty string) Waiting {
	return Waiting{Why: "input-wait detection needs Linux /proc"}
}
