package session

import (
	"context"
	"strings"
	"time"

	"github.com/mcp-terminal/mcp-terminal/detect"
	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// mark is the state of the terminal at the moment an input was written.
type mark struct {
	pos     screen.Pos
	written uint64
	clears  uint64
	alt     bool   // a full-screen program held the alternate screen
	marks   uint64 // newest shell-integration mark
	reader  pty.Waiting
	at      time.Time
}

// markNow records the terminal just before an input is written, including who was
// waiting to read it: input-wait evidence later must come from a reader that has
// woken since, or the input may still be unread.
func (s *Session) markNow() mark {
	snap := s.scr.Status()
	return mark{
		pos:     screen.Pos{Line: snap.CursorLine, Col: snap.Cursor.Col},
		written: snap.Written,
		clears:  snap.Clears,
		alt:     snap.AltScreen,
		marks:   snap.MarkSeq,
		reader:  s.proc.InputWait(),
		at:      time.Now(),
	}
}

// waitSpec is one wait for evidence.
type waitSpec struct {
	from        mark
	det         *detect.Detector
	deadline    time.Time
	allowSettle bool
	output      func() string // new output for wait_for; may be nil
	cand        *candidate    // input-wait seen, being confirmed
	// typed is the text line this input typed, whose echo (and the Enter's line
	// break, if enter) must be on the screen before a reader's waiting counts: until
	// then it may not have read it all. Empty for keys.
	typed  string
	enter  bool
	hidden bool
}

// wait blocks until the detector has evidence, the deadline passes or ctx ends. It
// wakes on every output, on the program's exit and when a signal asked to be
// rechecked, so it answers as soon as the evidence exists: no fixed sleeps.
func (s *Session) wait(ctx context.Context, w waitSpec) detect.Verdict {
	w.cand = &candidate{}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		changed, st := s.state(w)
		v := w.det.Check(st)
		if v.Done {
			if v.Reason == detect.Prompt {
				s.setPrompted()
			}
			return v
		}
		remaining := time.Until(w.deadline)
		if remaining <= 0 {
			return detect.Verdict{Reason: detect.Timeout}
		}
		next := remaining
		if v.Recheck > 0 && v.Recheck < next {
			next = v.Recheck
		}
		var done <-chan struct{}
		if s.Alive() {
			done = s.proc.Done()
		} else if !st.Exited {
			next = min(next, exitDrain/4) // draining after exit: look again soon
		}
		timer.Reset(next)
		select {
		case <-changed:
		case <-done:
		case <-timer.C:
		case <-ctx.Done():
			return detect.Verdict{Reason: detect.Timeout, Detail: "cancelled"}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// state assembles the detector's view and returns the channel that will be closed at
// the next change, taken before the view so no change can slip between them.
func (s *Session) state(w waitSpec) (<-chan struct{}, *detect.State) {
	s.mu.Lock()
	changed := s.changed
	lastOut, eof, prompted := s.lastOut, s.eof, s.prompted
	s.mu.Unlock()

	now := time.Now()
	quietFrom := lastOut
	if w.from.at.After(quietFrom) {
		quietFrom = w.from.at
	}
	snap := s.scr.Status()
	st := &detect.State{
		Screen:       snap,
		Start:        w.from.pos,
		StartWritten: w.from.written,
		StartClears:  w.from.clears,
		Output:       w.output,
		Quiet:        now.Sub(quietFrom),
		Since:        now.Sub(w.from.at),
		AllowSettle:  w.allowSettle || !prompted || snap.AltScreen,
		InputWait:    s.inputWait(w, snap.Written),
	}
	if snap.MarkSeq > w.from.marks {
		st.Marks = s.scr.MarksSince(w.from.marks)
	}
	if !s.Alive() {
		// Output may still be in flight after the exit; EOF says it is all here, and
		// a short quiet period covers a background job that keeps the terminal open.
		st.Exited = eof || now.Sub(lastOut) >= exitDrain
		if !st.Exited {
			st.Quiet = 0
		}
	}
	return changed, st
}

// inputWait returns the detector's lazy view of the kernel's answer, read at most
// once per check. A reader counts only once it has woken since the input was
// written (or was not reading then), every byte it printed has reached the screen,
// and the same observation holds a moment later with no output in between: the
// program blocked for good, not between two writes.
func (s *Session) inputWait(ws waitSpec, written uint64) func() detect.Wait {
	before, cand := ws.from.reader, ws.cand
	var cached *detect.Wait
	return func() detect.Wait {
		if cached != nil {
			return *cached
		}
		w := s.proc.InputWait()
		fresh := !before.Reading || w.PID != before.PID || w.Wakeups > before.Wakeups
		d := detect.Wait{Known: w.Known, Why: w.Why, Proxy: w.Proxy}
		if w.Reading && fresh && w.Unread == 0 && !s.markedShell(w.PID) && s.echoed(ws.from, ws.typed, ws.enter, ws.hidden) {
			now := time.Now()
			same := cand.pid == w.PID && cand.wakeups == w.Wakeups && cand.written == written
			if same && now.Sub(cand.at) >= confirmAfter {
				d.Ready = true
				s.log.Debug("input wait", "pid", w.PID, "syscall", w.Syscall, "wakeups", w.Wakeups,
					"before_pid", before.PID, "before_wakeups", before.Wakeups, "before_reading", before.Reading)
			} else {
				if !same {
					*cand = candidate{at: now, pid: w.PID, wakeups: w.Wakeups, written: written}
				}
				d.Pending = true
			}
		}
		cached = &d
		return d
	}
}

// markedShell reports whether pid is the session's own shell editing a command
// line while shell integration is active: its marks say exactly when it is ready,
// and its line editor can sit in select between two pieces of one typed line, which
// input-wait would take for readiness (seen under load with 100 sessions). A builtin
// `read` (line mode) is still judged by input-wait.
func (s *Session) markedShell(pid int) bool {
	if pid != s.proc.Pid() || s.scr.Status().MarkSeq == 0 {
		return false
	}
	canonical, err := s.proc.Canonical()
	return err == nil && !canonical
}

// echoed reports whether the typed line, and the Enter after it, show in the output
// since from. Under load the terminal hands a line to the program in pieces, and a
// reader blocked between two pieces (readline waiting for the Enter that is still
// on its way) is not waiting for the agent. Hidden input echoes nothing and is not
// checked.
func (s *Session) echoed(from mark, typed string, enter, hidden bool) bool {
	if hidden {
		return true
	}
	if st := s.scr.Status(); st.AltScreen != from.alt || st.Clears != from.clears {
		return true // a full-screen program took over, or the screen was cleared: the echo is gone
	}
	typed = strings.TrimSpace(typed)
	if r := []rune(typed); len(r) > 32 {
		typed = string(r[len(r)-32:])
	}
	if enter {
		typed += "\n" // the Enter moved the cursor to the next line
	}
	if typed == "" {
		return true
	}
	text, _ := s.scr.TextSince(from.pos)
	return strings.Contains(text, typed)
}

// confirmAfter is how long a reader must stay blocked, with nothing printed, before
// its waiting counts: long enough for output already read from the terminal to reach
// the screen.
const confirmAfter = time.Millisecond

// candidate is a reader seen waiting, not yet confirmed.
type candidate struct {
	at      time.Time
	pid     int
	wakeups uint64
	written uint64
}

func (s *Session) setPrompted() {
	s.mu.Lock()
	s.prompted = true
	s.mu.Unlock()
}
