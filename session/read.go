package session

import (
	"context"
	"regexp"
	"time"

	"github.com/mcp-terminal/mcp-terminal/detect"
	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// Startup waits for the program's first moment of readiness (a prompt, its exit, or
// quiet output from a program with no known prompt) and returns its startup screen.
func (s *Session) Startup(ctx context.Context, timeout time.Duration) Result {
	began := time.Now()
	from := mark{at: s.Created}
	v := s.wait(ctx, waitSpec{
		from:        from,
		det:         detect.New(detect.Options{Startup: true, Settle: s.settleDur}),
		deadline:    began.Add(timeout),
		allowSettle: true,
		startup:     true,
	})
	r := s.result(from, nil, v, began, 0)
	s.delivered(r.Complete, nil)
	return r
}

// ReadOptions configures Read.
type ReadOptions struct {
	Full    bool           // include the scrollback
	WaitFor *regexp.Regexp // wait until new output matches
	Timeout time.Duration
}

// ReadResult is the screen as read_output returns it.
type ReadResult struct {
	Output  string
	Matched bool // WaitFor matched before the timeout
	New     bool // Output is the output not given before, not the screen
	Alive   bool
	Exit    *pty.ExitStatus
	Screen  screen.Snapshot
	Elapsed time.Duration
	// Closed: the session was closed (Stopping: by the server stopping) by the
	// time the read returned, as Result's.
	Closed, Stopping bool
}

// Read returns the screen, after optionally waiting for new output to match a pattern.
// It never types and never waits for another call's turn: it is how a long job is
// watched while nothing else happens.
//
// With WaitFor, the pattern is matched against the output the agent has not been
// given yet (everything after the last reply, echoes of the last input removed),
// including what arrived between calls, and that output is the result.
func (s *Session) Read(ctx context.Context, o ReadOptions) ReadResult {
	s.touch()
	began := time.Now()
	var r ReadResult
	if o.WaitFor != nil {
		s.mu.Lock()
		from, echoes, gap := s.seen, s.unseenEchoes, s.gap
		s.mu.Unlock()
		unseen := func() string {
			out := s.unseenSince(from, echoes)
			if gap != "" {
				out = gap + "\n" + out
			}
			return out
		}
		if o.WaitFor.MatchString(gap) {
			r.Matched = true // it came between two replies, and is here already
		} else {
			match := unseen
			if s.scr.Counters().AltScreen {
				// A full screen is the output whole, what it showed before and the
				// lines typed included: only what is new on it from now can match.
				match = s.newOnFullScreen(echoes, unseen)
			}
			v := s.wait(ctx, waitSpec{
				from:     from,
				det:      detect.New(detect.Options{WaitFor: o.WaitFor}),
				deadline: began.Add(o.Timeout),
				output:   match,
			})
			r.Matched = v.Done && v.Reason == detect.Pattern
		}
		r.Screen = s.scr.Snapshot()
		r.Output, r.New = unseen(), true
		s.delivered(false, echoes)
		s.mu.Lock()
		s.gap = ""
		s.mu.Unlock()
	} else {
		r.Screen = s.scr.Snapshot()
		if o.Full {
			r.Output = s.scr.AllText()
		} else {
			r.Output = visible(r.Screen, 0, len(r.Screen.Lines))
		}
	}
	r.Alive = s.Alive()
	if st, ok := s.proc.Exit(); ok {
		r.Exit = &st
	}
	r.Closed, r.Stopping = s.closing.Load(), s.stopping.Load()
	r.Elapsed = time.Since(began)
	return r
}
