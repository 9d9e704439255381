//go:build !linux

package pty

import (
	"os"
	"syscall"
)

// launch forks p's program and waits for the leader in a goroutine owned by p: it
// exits when the leader has been reaped, which Close guarantees by killing the
// session and waiting on p.done. Without child subreapers there are no orphans to
// collect.
func (p *Process) launch() error {
	if err := p.cmd.Start(); err != nil {
		return err
	}
	p.pid = p.cmd.Process.Pid
	go func() {
		_ = p.cmd.Wait() // the status is in ProcessState; stdio are files, no copying
		p.status = exitStatus(p.cmd.ProcessState)
		close(p.done)
	}()
	return nil
}

// KillOrphans has nothing to do where the server adopts no orphans.
func KillOrphans() int { return 0 }

// members cannot list a session's processes without /proc; Close then signals
// process groups instead.
func (p *Process) members(known map[int]uint64) ([]proc, bool) { return nil, false }

func (p *Process) reapOrphans() {}

func (p *Process) closedSession() {}

// exitStatus converts what exec.Cmd.Wait left behind.
func exitStatus(ps *os.ProcessState) ExitStatus {
	if ps == nil {
		return ExitStatus{Code: -1}
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok {
		return ExitStatus{Code: ps.ExitCode()}
	}
	return waitStatus(ws)
}
