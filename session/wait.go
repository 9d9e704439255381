package session

import (
	"context"
	"strings"
	"time"

	"github.com/mcp-terminal/mcp-terminal/detect"
	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// Cancelled is a reply's detail when its call was cancelled: the client gave up on
// it, or the server stopped serving it.
const Cancelled = "cancelled"

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
	// keys: the input was keystrokes (send_control, or text without Enter). Their
	// evidence is that the program took every byte and blocks reading again: a key
	// command echoes nothing, and may change nothing on the screen.
	keys bool
	// startup: the integrated shell's first prompt (its B mark) is the evidence.
	startup bool
	// intr watches for a command that takes the terminal after an interrupt key
	// reached the shell instead (interrupt.go); nil when there is none to watch.
	intr *interruptWatch
	// interrupt: the input held the interrupt key, which may reach the terminal's
	// line discipline after the prompt that seems to answer it (interruptTaken), or
	// be noted by the shell's line editor and not acted on (interruptUnanswered);
	// repeated: the key was pressed once more for the latter.
	interrupt, repeated bool
}

// wait blocks until the detector has evidence, the deadline passes or ctx ends. It
// wakes on every output, on the program's exit and when a signal asked to be
// rechecked, so it answers as soon as the evidence exists: no fixed sleeps.
func (s *Session) wait(ctx context.Context, w waitSpec) detect.Verdict {
	w.cand = &candidate{}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	streamed := 0 // consecutive wakes by output
	var checked time.Time
	for {
		checked = time.Now()
		changed, st := s.state(w)
		v := w.det.Check(st)
		if v.Done && w.interrupt && (v.Reason == detect.ShellMark || v.Reason == detect.Prompt) && !s.interruptTaken() {
			v = detect.Verdict{Recheck: interruptPoll}
		}
		if v.Done && v.Reason == detect.InputWait && w.interrupt && !w.repeated && s.interruptUnanswered(w, st.Marks) {
			w.repeated = true
			if reader, err := s.repeatInterrupt(ctx); err == nil {
				w.from.reader, w.cand = reader, &candidate{} // its waiting counts again once it woke for this key
				v = detect.Verdict{Recheck: interruptPoll}
			}
		}
		if v.Done {
			if v.Reason == detect.Prompt {
				s.setPrompted()
				s.editorMode.Store(false)
				if fg := s.Foreground(); fg != "" && fg != v.Detail {
					v.Detail += " · " + fg // "repl · node": the program, not a guess from "> "
				}
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
		if w.intr.pending(s) {
			next = min(next, interruptPoll)
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
			streamed++
		case <-done:
			streamed = 0
		case <-timer.C:
			streamed = 0
		case <-ctx.Done():
			return detect.Verdict{Reason: detect.Timeout, Detail: Cancelled}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		if streamed > streamChecks {
			// Output is streaming: every piece would cost a look at the kernel's
			// process tables. Look at most every pace, a fiftieth of the time the
			// command has run so far (within bounds); the last piece, a prompt, is
			// then seen at most that late, 2% of the command's time.
			pace := min(max(streamPace, time.Since(w.from.at)/50), maxStreamPace)
			if d := pace - time.Since(checked); d > 0 {
				timer.Reset(min(d, time.Until(w.deadline)))
				select {
				case <-done:
				case <-timer.C:
				case <-ctx.Done():
					return detect.Verdict{Reason: detect.Timeout, Detail: Cancelled}
				}
				timer.Stop() // no stale tick can follow: go.mod's Go has synchronous timers
			}
		}
	}
}

// A wait woken by output more than streamChecks times in a row is watching a
// stream, and checks at most every streamPace to maxStreamPace from then on.
const (
	streamChecks  = 16
	streamPace    = 2 * time.Millisecond
	maxStreamPace = 10 * time.Millisecond
)

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
	// The cursor's row is rendered below, only where a prompt there can count.
	snap := s.scr.Counters()
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
	earlierPrompt := false // an owed input's earlier command has drawn its prompt since
	if snap.MarkSeq > w.from.marks {
		st.Marks, _, earlierPrompt = s.marksFor(w.from, snap.MarkSeq) // the marks the snapshot has seen
	}
	w.cand.builtin = !w.keys && builtinRuns(st.Marks)
	st.MarksOnly, st.ShellInFront = s.shellEvidence(w, snap, st.Marks, earlierPrompt)
	st.ShellContinues = st.MarksOnly && continues(w, st.Marks)
	w.cand.continues = st.ShellContinues
	if !snap.AltScreen && !st.MarksOnly && !st.ShellInFront {
		// A prompt at the cursor can be the evidence (detect.PromptSignal): the
		// detector reads the row. Where it cannot, as while an integrated shell runs
		// a builtin or edits its line, rendering the row on every check was a good
		// part of a short command's cost. The row is read only from the screen
		// the marks above were taken from: output in between (a prompt drawn with
		// its marks) would show a prompt without the marks that prove more, and
		// lose the command's exit code to a "prompt" verdict. It closed changed,
		// so the next check comes at once.
		if full := s.scr.Status(); full.Written == snap.Written && full.MarkSeq == snap.MarkSeq {
			st.Screen = full
		}
	}
	st.Settle = s.settleWindow()
	if !s.Alive() {
		// Output may still be in flight after the exit; EOF says it is all here, and
		// a short quiet period covers a background job that keeps the terminal open.
		// Quiet counts only once what was written is on the screen: a program that
		// printed its last line and exited more than exitDrain after its previous
		// output (or its start) was otherwise taken for drained while that line was
		// still in the kernel's hands (seen under load: sh -c 'echo bye; exit 4'
		// answered with no output).
		st.Exited = eof || now.Sub(lastOut) >= exitDrain && s.onScreen()
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
		if n, err := s.proc.Unread(); err == nil && n > 0 {
			// What it printed has not reached the screen yet, so its waiting would be
			// no answer (see taken below), nor would a prompt at the cursor be its
			// last word. Asked first, one system call spares the
			// walk of the process tables: under load, a pause in what was read is
			// most often output not read yet (50 shells at once, each running echo:
			// 19 of 20 looks, two per line, and a tenth of the server's CPU).
			cached = &detect.Wait{Known: true, Working: true}
			return *cached
		}
		w := s.proc.InputWait()
		fresh := !before.Reading || w.PID != before.PID || w.Wakeups > before.Wakeups
		if w.Reading && cand.firstPID != w.PID {
			cand.firstPID, cand.firstWakeups = w.PID, w.Wakeups
		}
		d := detect.Wait{Known: w.Known, Why: w.Why, Proxy: w.Proxy, Working: w.Working}
		// A wait with a short timeout (vim's escape delay) ends by itself and the
		// program acts then: not evidence yet, look again soon.
		short := w.Timeout > 0 && w.Timeout < shortWait
		taken := w.Unread == 0 && w.PendingInput == 0
		// Keys echo nothing, and a program that reads raw (vim, less, a REPL's line
		// editor) echoes as it likes: that it took every byte is the evidence. In line
		// mode the kernel echoes, and the echo shows the whole line reached the reader.
		// Judged only for a reader that could be the evidence: the echo is looked for
		// in everything printed since the input, which under a stream of output is
		// most of a check's cost.
		unmarked := false // the shell is judged by input-wait because its marks are taken for lost
		consumed := func() bool {
			if ws.keys {
				return true
			}
			if s.markedShell(w.PID) && !cand.builtin {
				if cand.continues {
					// The shell reads again with no mark since the line: it took
					// the line into a command still open. Its echo, Enter
					// included, shows the line editor has the whole line and is
					// not waiting between two pieces of it.
					cand.echoed = cand.echoed || s.echoed(ws.from, ws.typed, ws.enter, ws.hidden)
					return cand.echoed
				}
				if !s.marksLost(ws) {
					return false
				}
				unmarked = true
			}
			if canonical, err := s.proc.Canonical(); err == nil && !canonical {
				return true
			}
			cand.echoed = cand.echoed || s.echoed(ws.from, ws.typed, ws.enter, ws.hidden)
			return cand.echoed
		}
		if (w.Reading || w.Proxy) && ws.enter && !ws.keys && cand.busyReader(w.PID, s.proc.Args) && !s.replEditor(ws, written) {
			// Its waiting is no evidence, nor is a request it awaits a proxy's: the
			// line has run when its prompt is back (eventloop.go).
			d.Proxy = false
			cached = &d
			return d
		}
		if w.Reading && fresh && short && taken {
			d.Pending, d.Polling = true, true
		} else if w.Reading && fresh && taken && consumed() {
			now := time.Now()
			same := cand.pid == w.PID && cand.wakeups == w.Wakeups && cand.written == written
			confirm := confirmAfter
			if !s.proven(ws, w, written) {
				confirm = unprovenAfter
			}
			switch {
			case !same || now.Sub(cand.at) < confirm:
			case !s.onScreen():
				// It blocked having written everything, but not all of that is on the
				// screen yet: in the kernel's hands, or taken by a reader the machine
				// has not run since. Its waiting is the answer once that arrives.
			case unmarked && !s.marksLost(ws):
				// What arrived holds the shell's prompt marks after all: they, with the
				// command's status, are the answer, at the next check.
			case s.scr.Counters().Written != written:
				// Output reached the screen after this check's look at it (a reader
				// the machine had not run let it go): the next check sees it, and a
				// prompt's marks in it, with the command's status, are the answer.
			default:
				d.Ready = true
				if cand.builtin && w.PID == s.proc.Pid() {
					s.shellReads()
				}
				s.log.Debug("input wait", "pid", w.PID, "syscall", w.Syscall, "wakeups", w.Wakeups,
					"before_pid", before.PID, "before_wakeups", before.Wakeups, "before_reading", before.Reading)
			}
			if !d.Ready {
				if !same {
					cand.at, cand.pid, cand.wakeups, cand.written = now, w.PID, w.Wakeups, written
				}
				d.Pending = true
			}
		}
		cached = &d
		return d
	}
}

// proven reports whether reader w shows proof that it has the input and that what it
// printed since is on the screen: it woke since the input was written (or since first
// seen blocked), or something was drawn since; and it has written no more since the
// input than has come out of the terminal. A reader that was busy then and blocks now
// without drawing anything may not have the input yet: the kernel moves bytes between
// the terminal's sides in a worker, so for a moment they are neither pending nor read
// (seen under load: python's prompt answered before its echo). It is asked only of a
// candidate, since it may read the reader's /proc/<pid>/io.
func (s *Session) proven(ws waitSpec, w pty.Waiting, written uint64) bool {
	before, cand := ws.from.reader, ws.cand
	woke := (before.Reading && w.PID == before.PID && w.Wakeups > before.Wakeups) ||
		(w.PID == cand.firstPID && w.Wakeups > cand.firstWakeups)
	if !woke && written == ws.from.written {
		return false
	}
	if ws.from.wroteOK && w.PID == before.PID {
		// More written than has reached the screen: the rest is on its way, or went
		// to a file.
		if n, ok := s.proc.Wrote(w.PID); ok && n-ws.from.wrote > written-ws.from.written {
			return false
		}
	}
	return true
}

// shellReads records that the shell itself reads the terminal in the middle of
// a command, its start (C) the last mark: not at its line editor, whose marks
// would have ended the command first. Inputs after it are judged as any
// program's until the next mark, instead of each waiting promptFlight for a
// prompt that is not coming (27 ms per line after exec python3).
func (s *Session) shellReads() {
	if seq := s.scr.Counters().MarkSeq; s.lastMark(seq) == 'C' {
		s.readsAt.Store(seq)
	}
}

// markedShell reports whether pid is the session's own shell editing a command
// line while shell integration is active: its marks say exactly when it is ready,
// and its line editor can sit in select between two pieces of one typed line, which
// input-wait would take for readiness (seen under load with 100 sessions). A builtin
// `read` (line mode) is still judged by input-wait, and so is the shell once seen
// reading in the middle of a command (shellReads).
func (s *Session) markedShell(pid int) bool {
	seq := s.scr.Counters().MarkSeq
	if pid != s.proc.Pid() || seq == 0 || s.readsAt.Load() == seq {
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
	if st := s.scr.Counters(); st.AltScreen != from.alt || st.Clears != from.clears {
		return true // a full-screen program took over, or the screen was cleared: the echo is gone
	}
	typed = strings.TrimSpace(typed)
	if typed == "" && !enter {
		return true
	}
	text, _ := s.scr.TextSince(from.pos)
	text, typed = tabbed(text, typed)
	if r := []rune(typed); len(r) > 32 {
		typed = string(r[len(r)-32:])
	}
	i := strings.Index(text, typed)
	if i < 0 {
		return false
	}
	// The Enter moved the cursor to the next line. What the line editor shows
	// right of the line may stand before that line break: zsh's RPROMPT ("[0]"),
	// an autosuggestion.
	return !enter || strings.Contains(text[i+len(typed):], "\n")
}

// shortWait: a reader whose wait times out sooner than this is about to wake by
// itself and act: vim after a bare Escape waits ttimeoutlen for the rest of a key
// code before it leaves insert mode, 25 ms by itself and 100 ms with Debian's
// defaults.vim (probe 8: the reply showed ^[ pending and -- INSERT --).
const shortWait = 150 * time.Millisecond

// shellEvidence says what the integrated shell's marks make of the other evidence.
//
// marksOnly: they are the only evidence that can come. The shell is editing its
// command line (its prompt was drawn before the command ran, and its line editor waits
// between keys), or it is starting and has not drawn its first prompt (for a grace
// period: a user's rc file may replace the integration).
//
// noPrompt: a prompt at the cursor is no evidence while the shell itself is in front,
// nor for a line typed ahead whose command has not started: the prompt on screen may
// be an earlier command's, drawn while this line waited (the foreground can change
// before the screen has caught up with what the shell printed). earlierPrompt is
// marksFor's: the prompt after the lines an owed input was typed behind is there.
func (s *Session) shellEvidence(w waitSpec, snap screen.Status, ours []screen.Mark, earlierPrompt bool) (marksOnly, noPrompt bool) {
	if !s.integrated {
		return false, false
	}
	if w.keys {
		// Keys echo nothing and draw no marks while the shell edits its line, so its
		// blocking again is their evidence. But the shell reading again is no evidence
		// until its next prompt's B (which may still be on its way to the screen, behind
		// a flood) when the keys ended the line (Enter: its C mark shows), or when they
		// went to a program in front of the shell that has since handed it back (ctrl+c).
		if snap.MarkSeq == 0 || s.marksLost(w) || !s.shellInFront() || !s.markedShell(s.proc.Pid()) {
			return false, false
		}
		running := indexKind(ours, lastKind(ours, 'B')+1, 'C') >= 0
		returned := !w.from.shellFront && !hasKind(ours, 'B')
		if w.from.owed {
			// Typed while lines typed ahead waited: the prompt after the last of
			// their commands is the shell taking the terminal back, and a prompt on
			// the screen before it is an earlier command's, which a typed-ahead
			// line is about to take.
			return running || returned && !earlierPrompt, !earlierPrompt
		}
		return running || returned, false
	}
	if w.startup {
		return snap.MarkSeq == 0 && time.Since(w.from.at) < startupMarkGrace, false
	}
	if snap.MarkSeq == 0 || s.marksLost(w) {
		return false, false
	}
	front := s.shellInFront()
	return front && s.markedShell(s.proc.Pid()) && !w.cand.builtin, front || (w.from.owed && !hasKind(ours, 'C'))
}

// marksLostAfter is how long a shell may go without drawing a marked prompt (a B
// mark) after an input before its integration is taken for lost (the user replaced
// both PS1 and PROMPT_COMMAND): prompts and input-wait count again. It matters only
// while the shell edits its command line, which it does at a prompt.
const marksLostAfter = time.Second

func (s *Session) marksLost(w waitSpec) bool {
	if w.startup || time.Since(w.from.at) < marksLostAfter {
		return false
	}
	return !hasKind(s.scr.MarksSince(w.from.marks), 'B')
}

// builtinRuns reports whether the marks since a line show its command started
// (C) and has not ended (no D after): the shell in front runs a builtin of it, and
// a builtin that reads the terminal without line mode (read -n 1, read -e, zsh's
// read -k) waits for the agent as any program would: its waiting is evidence.
func builtinRuns(ours []screen.Mark) bool {
	return indexKind(ours, lastKind(ours, 'D')+1, 'C') >= 0
}

// continues reports whether a line the integrated shell is editing may have left
// a command open (a heredoc, a quote, a loop over several lines): it drew no mark
// since the line (a complete command draws C before it runs, and its next prompt
// D, A and B), and the line was not typed ahead of an earlier command. Blocked
// reading again with the line taken, the shell then shows its continuation prompt
// (PS2) and waits for the rest: the next line's turn, which marks alone would
// have taken marksLostAfter to give. The line must have gone to the shell: one
// typed to a program in front of it (exit to a nested sh) hands the terminal back
// to the shell, which then reads with the program's end not yet marked.
func continues(w waitSpec, ours []screen.Mark) bool {
	return w.enter && !w.keys && !w.startup && !w.from.owed && w.from.shellFront && len(ours) == 0
}

// shellInFront reports whether the session's own shell is the foreground group.
func (s *Session) shellInFront() bool {
	pgid, err := s.proc.Foreground()
	return err == nil && pgid == s.proc.Pid()
}

// startupMarkGrace bounds how long create_session waits for an integrated shell's
// first mark before other evidence may count.
const startupMarkGrace = 3 * time.Second

// confirmAfter is how long a reader must stay blocked, with nothing printed, before
// its waiting counts: long enough for what it printed just before blocking to reach
// the screen. The kernel moves a program's output to the terminal's other side in a
// worker, so for a moment it is neither unread there nor on the screen (seen under
// load: python printing after a sleep was answered without its line at 1 ms).
const confirmAfter = 3 * time.Millisecond

// unprovenAfter is how long a reader with no proof that it took the input (it woke,
// or something was drawn, since the input) must stay blocked: long enough for the
// kernel's worker to deliver the bytes, after which it wakes.
const unprovenAfter = 30 * time.Millisecond

// candidate is a reader seen waiting, not yet confirmed.
type candidate struct {
	at      time.Time
	pid     int
	wakeups uint64
	written uint64
	// The first reader seen since the input, and its wakeups then: waking after that
	// is waking since the input.
	firstPID     int
	firstWakeups uint64
	// echoed: the typed line was seen on the screen (or need not be); once seen,
	// it is not looked for again in this wait.
	echoed bool
	// continues: the shell's marks allow a continued command (continues).
	continues bool
	// builtin: the line's command started and has not ended (builtinRuns).
	builtin bool
	// loop: the reader loopPID is an event loop's REPL (eventloop.go).
	loopPID int
	loop    bool
}

func (s *Session) setPrompted() {
	s.mu.Lock()
	s.prompted = true
	s.mu.Unlock()
}

// awaitPrompt waits up to grace for a prompt's B mark newer than seq, and reports
// whether one came.
func (s *Session) awaitPrompt(ctx context.Context, seq uint64, grace time.Duration) bool {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if hasKind(s.scr.MarksSince(seq), 'B') {
			return true
		}
		select {
		case <-changed:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}
