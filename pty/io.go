package pty

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// Read reads what the program wrote to the terminal. It returns io.EOF once no
// process holds the terminal open any more and everything buffered has been
// read (Linux reports EIO only then). A background job that still holds the
// terminal keeps Read blocking after the leader exited: watch Done for the exit.
// After Close, Read returns ErrClosed (or io.EOF).
//
// Read takes everything the terminal holds, up to len(b), not just one piece: a
// program printing fast leaves several pieces waiting (the kernel passes them on a
// few KiB at a time), and each Read costs the caller a pass over its screen and a
// wake-up of its waiters.
func (p *Process) Read(b []byte) (int, error) {
	rc, err := p.master.SyscallConn()
	if err != nil {
		return 0, p.ioError(err)
	}
	n := 0
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		for n < len(b) {
			p.reading.Add(1)
			m, e := syscall.Read(int(fd), b[n:])
			if m > 0 {
				p.got.Add(uint64(m))
			}
			p.reading.Add(-1)
			switch {
			case m > 0:
				n += m
			case e == syscall.EINTR:
			case e == syscall.EAGAIN:
				return n > 0 // nothing yet: wait in the poller, unless we have something
			case e == nil:
				rerr = io.EOF
				return true
			default:
				if n == 0 { // an error after data is reported by the next Read
					rerr = e
				}
				return true
			}
		}
		return true
	})
	if err == nil {
		err = rerr
	}
	if err != nil && n == 0 {
		return 0, p.ioError(err)
	}
	return n, nil
}

// Write writes all of b as typed input unless ctx ends first; then it returns
// how much was written and ctx's error. A program that never reads its input
// fills the terminal's buffer, and Write would otherwise block forever.
func (p *Process) Write(ctx context.Context, b []byte) (int, error) {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	deadline, _ := ctx.Deadline() // zero: no deadline
	if err := p.master.SetWriteDeadline(deadline); err != nil {
		return 0, fmt.Errorf("write: %w", p.ioError(err))
	}
	// Cancellation without a deadline: move the deadline to the past. The
	// callback runs on its own goroutine; it is owned by this call, which waits
	// for it (fired) when stop reports it already started.
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		_ = p.master.SetWriteDeadline(time.Unix(1, 0))
	})
	n, err := p.master.Write(b)
	if !stop() {
		<-fired
	}
	_ = p.master.SetWriteDeadline(time.Time{})
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		if cerr := ctx.Err(); cerr != nil {
			return n, cerr
		}
		return n, context.DeadlineExceeded // the poller's timer beat ctx's by a hair
	}
	return n, fmt.Errorf("write: %w", p.ioError(err))
}
