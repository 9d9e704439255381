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
	})
	return s.result(from, nil, v, began, 0)
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
	Alive   bool
	Exit    *pty.ExitStatus
	Screen  screen.Snapshot
	Elapsed time.Duration
}

// Read returns the screen, after optionally waiting for new output to match a pattern.
// It never types and never waits for another call's turn: it is how a long job is
// watched while nothing else happens.
func (s *Session) Read(ctx context.Context, o ReadOptions) ReadResult {
	s.touch()
	began := time.Now()
	var r ReadResult
	if o.WaitFor != nil {
		from := s.markNow()
		v := s.wait(ctx, waitSpec{
			from:     from,
			det:      detect.New(detect.Options{WaitFor: o.WaitFor}),
			deadline: began.Add(o.Timeout),
			output:   func() string { return s.outputSince(from, nil) },
		})
		r.Matched = v.Done && v.Reason == detect.Pattern
	}
	r.Screen = s.scr.Snapshot()
	if o.Full {
		r.Output = s.scr.AllText()
	} else {
		r.Output = visible(r.Screen, len(r.Screen.Lines))
	}
	r.Alive = s.Alive()
	if st, ok := s.proc.Exit(); ok {
		r.Exit = &st
	}
	r.Elapsed = time.Since(began)
	return r
}
