package pty

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Bounds of Close: how long the session gets to exit after SIGHUP and SIGTERM,
// and how long we wait for it to be gone after SIGKILL.
const (
	closeGrace = 500 * time.Millisecond
	killWait   = 2 * time.Second
)

// Close ends every process of the session, background jobs in their own
// process groups and double-forked children included, and reaps them:
// SIGHUP, SIGTERM and SIGCONT (so stopped jobs can die) to every process and
// process group of the session; up to closeGrace (less if ctx ends) for them to
// exit; SIGKILL to whatever is left; up to killWait for the leader to be
// reaped. Then the master is closed. The leader's exit status is recorded (a
// program that exited before Close keeps its code).
//
// Close is idempotent and safe to call concurrently: later calls wait for the
// first one and return its result.
func (p *Process) Close(ctx context.Context) error {
	p.closeOnce.Do(func() {
		p.closeErr = p.terminate(ctx)
		p.closedSession()
		p.files.close()
		p.masterClosed.Store(true)
		if err := p.master.Close(); err != nil && p.closeErr == nil {
			p.closeErr = fmt.Errorf("close pty: %w", err)
		}
	})
	return p.closeErr
}

// terminate signals the session gracefully, then by force.
func (p *Process) terminate(ctx context.Context) error {
	grace, cancel := context.WithTimeout(ctx, closeGrace)
	defer cancel()
	known := map[int]uint64{} // every process found in the session, by pid → start time
	graceful := newSignalled()
	if p.waitGone(grace, func() bool {
		return p.sweep(known, graceful, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGCONT)
	}) {
		return nil
	}
	// The force phase does not follow ctx: SIGKILL is sent whatever happens, and
	// waiting a bounded moment for it is what keeps zombies and the wait
	// goroutine from outliving Close.
	force, cancel2 := context.WithTimeout(context.Background(), killWait)
	defer cancel2()
	if p.waitGone(force, func() bool { return p.sweep(known, newSignalled(), syscall.SIGKILL) }) {
		return nil
	}
	return fmt.Errorf("close pid %d: session still running %v after SIGKILL", p.pid, killWait)
}

// waitGone runs sweep, with growing pauses, until it reports nothing alive
// (true) or ctx ends (false). sweep runs at least once.
func (p *Process) waitGone(ctx context.Context, sweep func() (alive bool)) bool {
	pause := 2 * time.Millisecond
	leader := p.done // set to nil once seen, so a closed channel cannot spin the loop
	for {
		if !sweep() {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-leader:
			leader = nil
		case <-time.After(pause):
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// signalled remembers which processes and groups already got the signals of
// a phase, so a process that handles SIGTERM gets it once.
type signalled struct{ pids, groups map[int]bool }

func newSignalled() *signalled {
	return &signalled{pids: map[int]bool{}, groups: map[int]bool{}}
}

// sweep sends sigs to every process and process group of the session that has
// not had them yet (sent), reaps those that were reparented to us and exited,
// and reports whether anything still needs to die or to be reaped. known
// carries the processes found by earlier sweeps, so one that left the session
// (setsid) and was then orphaned is still killed and reaped. Without a process
// tree to walk (macOS) it signals the leader's group and the foreground group.
func (p *Process) sweep(known map[int]uint64, sent *signalled, sigs ...syscall.Signal) bool {
	p.reapOrphans()
	members, ok := p.members(known)
	if !ok {
		return p.sweepGroups(sent, sigs)
	}
	self, ourGroup := os.Getpid(), syscall.Getpgrp()
	alive := p.leaderAlive()
	for _, pr := range members {
		if pr.zombie {
			// A zombie whose parent is not us is reaped by that parent (a member,
			// alive and so counted) or by init; ours by the reaper, just now, or
			// it is still counted. The leader's is reaped for its Process.
			if pr.ppid == self && pr.pid != p.pid {
				alive = true
			}
			continue
		}
		alive = true
		if !sent.pids[pr.pid] && pr.pid != self {
			sent.pids[pr.pid] = true
			kill(pr.pid, sigs)
		}
		if !sent.groups[pr.pgid] && pr.pgid > 1 && pr.pgid != ourGroup {
			sent.groups[pr.pgid] = true
			kill(-pr.pgid, sigs)
		}
	}
	return alive
}

// sweepGroups is sweep without a process tree to walk.
func (p *Process) sweepGroups(sent *signalled, sigs []syscall.Signal) bool {
	var groups []int
	if p.leaderAlive() {
		groups = append(groups, p.pid)
	}
	if fg, err := p.Foreground(); err == nil && fg > 1 && fg != syscall.Getpgrp() {
		groups = append(groups, fg)
	}
	alive := p.leaderAlive()
	for _, g := range groups {
		if !sent.groups[g] {
			sent.groups[g] = true
			kill(-g, sigs)
		}
		if syscall.Kill(-g, 0) == nil {
			alive = true
		}
	}
	return alive
}

func (p *Process) leaderAlive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

func kill(pid int, sigs []syscall.Signal) {
	for _, sig := range sigs {
		_ = syscall.Kill(pid, sig) // ESRCH: already gone, which is the point
	}
}
