package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mcp-terminal/mcp-terminal/detect"
	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// Input is one call that types into the terminal: either Text (send_command) or Keys
// (send_control: key names as Keys accepts them).
type Input struct {
	Text          string
	AppendNewline bool // press Enter after the last line of Text
	Keys          string
	WaitFor       *regexp.Regexp
	Timeout       time.Duration

	// Cols and Rows, when both are positive, resize the terminal before the keys are
	// pressed (send_control may resize without keys).
	Cols, Rows int

	// Typed, if set, is told each line just before it is typed, and whether the
	// terminal hides it (a password prompt asked for it): the caller's audit can then
	// record secrets as hidden even when an earlier line of the same input is what
	// asked for them. It is called only for lines Gate let through.
	Typed func(line string, hidden bool)

	// Gate, if set, is asked inside the turn about each line before it is typed, and
	// about the line each Enter among Keys submits; an error refuses that line, and
	// nothing after it is typed (Result.Refused).
	Gate func(Pending) error
}

// Result is what an input caused.
type Result struct {
	Output   string
	Lost     bool // the beginning of the output scrolled out of the scrollback
	Complete bool
	Reason   detect.Reason
	Detail   string
	Code     *int // the command's exit status, from shell integration
	Hidden   bool // the terminal now reads without echo: the next input is a secret
	Alive    bool
	Exit     *pty.ExitStatus
	Elapsed  time.Duration
	Unsent   int  // lines of a multi-line input not typed because an earlier one never finished
	Reading  bool // not complete, yet the program in front is blocked reading the terminal
	Refused  *Refusal

	// Owed: the input was typed while the shell had not drawn the previous command's
	// prompt; the reply starts after that prompt.
	Owed bool
	// Unseen: output arrived after the last reply and before this input (an earlier
	// command's, after its reply timed out); it is not part of this reply.
	Unseen bool
	// Closed: the session was closed during the call (close_session, the idle
	// reaper, the server stopping); its program ended because of that. Stopping:
	// it was the server stopping.
	Closed, Stopping bool
	// Pending: the integrated shell waits at its prompt with this text on its
	// command line, not run (set after input that did not end with Enter).
	Pending string
	// AddedTo: a line was typed at a shell prompt that already held this text
	// (typed earlier without Enter): they ran as one line.
	AddedTo string
	// WholeScreen: the cursor ended above where the output began, so Output is the
	// whole screen, not the output cut from there.
	WholeScreen bool
	// Cleared: the shell's command line held this text, which no input typed (the
	// terminal's answers to a program's queries), and it was cleared before a line
	// was typed.
	Cleared string
	// Skipped: this input was typed ahead of an earlier command's prompt, and that
	// command's late output came during this call; it is not part of this reply but
	// kept, like Unseen's, for the next read.
	Skipped bool
}

// enterAtPrompt moves where an Enter key's output begins to the row after the
// integrated shell's command line: with the cursor inside the line (ctrl+a, an
// arrow), the text right of it is the line's, not output. A line that runs a
// command is cut at its C mark anyway; one that runs none (a comment, a syntax
// error) was answered with the rest of the line.
func (s *Session) enterAtPrompt(from mark) mark {
	if !s.integrated {
		return from
	}
	if _, ok := s.promptLine(); !ok {
		return from
	}
	end := s.scr.LineEnd(from.pos)
	from.pos, from.left = screen.Pos{Line: end.Line + 1}, ""
	return from
}

// errNoTimeToType: the call's time ran out before a chunk of its input could be
// written at all.
var errNoTimeToType = errors.New("no time left to type")

// noTimeErr says which part of the input went unsent when the time ran out first.
func noTimeErr(id string, i, n int) error {
	what := "the input"
	if n > 1 {
		what = fmt.Sprintf("line %d of %d (and any after it)", i+1, n)
	}
	return fmt.Errorf("type into session %s: the timeout ran out before %s could be typed, so it was not sent (%w); call again with a larger timeout_ms", id, what, errNoTimeToType)
}

// enter is what the Enter key sends.
const enter = "\r"

// Send types the input and waits until the program is ready again, the timeout passes
// or ctx ends. A multi-line Text is typed line by line, each line after the previous
// one finished (or went quiet), as a person would; the result is the new output of all
// of them with every echoed input line removed.
func (s *Session) Send(ctx context.Context, in Input) (Result, error) {
	began := time.Now()
	deadline := began.Add(in.Timeout)
	// The wait for another call's turn is part of this call's time.
	tctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if key := interruptOnly(in.Keys); key != nil && !s.tryAcquire() {
		// Another call holds the turn, most likely waiting on the command this
		// interrupt is for: it goes in now, as a person's Ctrl+C would, and that
		// call's reply shows what it did. This one answers, once the turn is free,
		// with what follows.
		if err := s.interruptNow(tctx, key); err != nil {
			if errors.Is(err, ErrExited) {
				return Result{}, err
			}
			return Result{}, fmt.Errorf("type into session %s: %w", s.ID, err)
		}
		if err := s.acquire(tctx); err != nil {
			return Result{}, err
		}
		defer s.release()
		return s.afterInterrupt(ctx, began, deadline), nil
	} else if key == nil {
		if err := s.acquire(tctx); err != nil {
			return Result{}, err
		}
	}
	defer s.release()
	defer func() { s.typingAhead = false }() // this call's, not a later Type's
	if !s.Alive() {
		return Result{}, s.exitedErr()
	}
	chunks, echoes, err := s.chunks(in)
	if err != nil {
		return Result{}, err
	}
	keys := in.Keys != "" || !in.AppendNewline || in.Text == ""
	first := s.markNow(keys)
	unseen := s.unseenBefore(first)
	if in.Cols > 0 && in.Rows > 0 {
		// After the mark, so the redraw the program does for it counts as this call's.
		if err := s.Resize(in.Cols, in.Rows); err != nil {
			return Result{}, fmt.Errorf("resize session %s: %w", s.ID, err)
		}
		if s.awaitRedraw(ctx, first) && (in.Keys != "" || in.Text != "") {
			first = s.markNow(keys) // the keys' evidence comes after the redraw's marks
		}
	}
	if gate := in.Gate; gate != nil {
		// Time the gate spends (a person asked to confirm a line) is not the
		// program's: the deadline moves by it.
		in.Gate = func(p Pending) error {
			t0 := time.Now()
			defer func() { deadline = deadline.Add(time.Since(t0)) }()
			return gate(p)
		}
	}
	var v detect.Verdict
	var refused *Refusal
	unsent := 0
	for i, chunk := range chunks {
		last := i == len(chunks)-1
		from := first
		if i > 0 {
			from = s.markNow(keys && last)
		}
		if keys && bytes.IndexByte(chunk, '\r') >= 0 {
			if from = s.enterAtPrompt(from); i == 0 {
				first = from // the reply's output starts there too
			}
		}
		hidden := s.InputHidden()
		withEnter := bytes.HasSuffix(chunk, []byte(enter))
		s.typingAhead = from.reader.Known && !from.reader.Reading && !from.reader.Proxy
		write := func(b []byte) error {
			if s.Holder() != "" {
				// A person took the keyboard while this call waited for its turn, or
				// for a person's answer to a confirmation: the agent types no more.
				return ErrHeld
			}
			if !time.Now().Before(deadline) {
				// Out of time before a byte went in (a loaded machine, a slow gate):
				// that says nothing about whether the program reads its input.
				return errNoTimeToType
			}
			dctx, cancel := context.WithDeadline(ctx, deadline) // as moved by the gate so far
			defer cancel()
			if in.Keys == "" {
				b = s.pasteTabs(b) // text; the tab key is the key that completes
			}
			s.tapInput(b, hidden) // first, so the recording has it before its echo
			if inputLag.hold != nil {
				b = inputLag.hold(b)
			}
			return s.writeInput(dctx, b)
		}
		// Typed ahead of its Enter, a line's echo woke the reader: what counts as
		// evidence for the Enter is taken again just before it.
		rearm := func() {
			from.reader = s.proc.InputWait()
			if from.reader.Reading {
				from.wrote, from.wroteOK = s.proc.Wrote(from.reader.PID)
			}
		}
		var ref *Refusal
		var intr *interruptWatch
		if in.Keys != "" {
			intr = s.interruptWatchFor(chunk)
		}
		switch {
		case in.Gate == nil:
			err = write(chunk)
		case in.Keys != "":
			ref, err = s.gateKeys(ctx, chunk, in.Gate, write, rearm)
		default:
			ref, err = s.gateLine(ctx, chunk, echoes[i], hidden, i, in, write, rearm)
		}
		if ref != nil {
			ref.Index, refused = i, ref
			unsent = len(chunks) - i - 1
			break
		}
		if err == nil {
			// Its echo is not output to a read while this call waits, nor after
			// the call ended without a reply (its client gave up).
			s.mu.Lock()
			s.unseenEchoes = append(s.unseenEchoes, echoes[i])
			s.mu.Unlock()
		}
		if err == nil && withEnter {
			s.typedAhead(from)
		}
		if err == nil {
			intr = intr.start()
		} else {
			intr = nil
		}
		if err != nil {
			if !s.Alive() {
				// The program ended before it took this line: report its exit once its
				// last output is in.
				v = s.wait(ctx, waitSpec{from: from, det: detect.New(detect.Options{}), deadline: deadline})
				break
			}
			if errors.Is(err, errNoTimeToType) {
				return Result{}, noTimeErr(s.ID, i, len(chunks))
			}
			if errors.Is(err, ErrHeld) {
				return Result{}, err
			}
			return Result{}, fmt.Errorf("type into session %s: the program is not reading its input (%w); try send_control ctrl+c", s.ID, err)
		}
		opts := detect.Options{Settle: s.settleDur}
		output := func() string { return s.outputSince(from, echoes[i:i+1]) }
		if last && in.WaitFor != nil {
			opts.WaitFor = in.WaitFor
			if from.alt {
				output = s.newOnFullScreen(echoes[i:i+1], output)
			}
		}
		v = s.wait(ctx, waitSpec{
			from:        from,
			det:         detect.New(opts),
			deadline:    deadline,
			allowSettle: !last || in.Keys != "" || !in.AppendNewline,
			output:      output,
			typed:       echoes[i],
			enter:       withEnter,
			hidden:      hidden,
			keys:        keys && last,
			intr:        intr,
			interrupt:   bytes.IndexByte(chunk, interruptKey) >= 0,
		})
		if !v.Done && !last {
			unsent = len(chunks) - i - 1
			break
		}
	}
	r := s.result(first, echoes, v, began, unsent)
	r.Unseen, r.Refused = unseen, refused
	if first.owed {
		r.Skipped = s.keepSkipped(first, echoes)
	}
	r.AddedTo, s.addedTo = s.addedTo, ""
	r.Cleared, s.cleared = s.cleared, ""
	if keys && s.integrated && r.Alive {
		// Text typed without Enter, or keys a program in front did not take (less
		// quit at the q of "seq"), wait on the shell's command line: echoed, so not
		// in the output, and the next command would be added to them.
		if line, ok := s.promptLine(); ok && heldWithoutEnter(line) {
			r.Pending = line
		}
	}
	s.delivered(r.Complete, echoes)
	return r, nil
}

// afterInterrupt answers an interrupt typed while another call held the turn, once
// this one has it: that call's reply showed what the interrupt did, and this one
// says what the program shows now, a prompt at the cursor counting as it does at
// startup.
func (s *Session) afterInterrupt(ctx context.Context, began, deadline time.Time) Result {
	from := s.markNow(true)
	v := s.wait(ctx, waitSpec{
		from:        from,
		det:         detect.New(detect.Options{Startup: true, Settle: s.settleDur}),
		deadline:    deadline,
		allowSettle: true,
		startup:     true,
	})
	r := s.result(from, nil, v, began, 0)
	s.delivered(r.Complete, nil)
	return r
}

// ErrControlInText refuses text that holds a control character while lines are
// judged before they run (see chunks).
var ErrControlInText = errors.New("control character in text")

// controlIn returns the first control character in text other than tab and
// newline (DEL included), and whether there is one.
func controlIn(text string) (byte, bool) {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return c, true
		}
	}
	return 0, false
}

// interruptNow types an interrupt key (interruptOnly's) at once, without the
// session's turn: the call holding it most likely waits on the command the key
// is for, and the key goes in as a person's would.
func (s *Session) interruptNow(ctx context.Context, key []byte) error {
	if !s.Alive() {
		return s.exitedErr()
	}
	s.tapInput(key, false)
	return s.writeInput(ctx, key)
}

// interruptOnly returns the key keys name when it is one that makes the terminal
// signal the program in front (ctrl+c, ctrl+\\), nil otherwise.
func interruptOnly(keys string) []byte {
	if keys == "" {
		return nil
	}
	b, err := Keys(keys, false)
	if err != nil || len(b) != 1 || b[0] != interruptKey && b[0] != quitKey {
		return nil
	}
	return b
}

// chunks splits the input into what is written at once, and the echo each produces.
// Keys are encoded now, inside the turn, because the cursor keys' encoding depends on
// the mode the program has set.
func (s *Session) chunks(in Input) (chunks [][]byte, echoes []string, err error) {
	if in.Keys != "" {
		keys, err := Keys(in.Keys, s.scr.Counters().AppCursor)
		if err != nil {
			return nil, nil, err
		}
		return [][]byte{keys}, []string{""}, nil
	}
	// A carriage return ends a line as a newline does: every line editor and
	// terminal takes it for Enter. Split there, each line is judged and waited for
	// on its own, and the bytes typed are the same.
	text := strings.ReplaceAll(strings.ReplaceAll(in.Text, "\r\n", "\n"), "\r", "\n")
	if in.Gate != nil {
		if c, ok := controlIn(text); ok && !s.scr.Counters().AltScreen {
			return nil, nil, fmt.Errorf("%w: the input holds the control character %#02x, which a line editor takes as a key "+
				"(ctrl+o runs the line as Enter does, others edit it), so the line it ends or changes would not be judged as typed. "+
				"Send keys with send_control, where a line that Enter, ctrl+j or ctrl+o submits is judged", ErrControlInText, c)
		}
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		b := line
		if i < len(lines)-1 || in.AppendNewline {
			b += enter
		} else if line == "" {
			continue // nothing to type after the last newline
		}
		chunks = append(chunks, []byte(b))
		echoes = append(echoes, line)
	}
	if len(chunks) == 0 {
		chunks, echoes = [][]byte{{}}, []string{""}
	}
	return chunks, echoes, nil
}

func (s *Session) result(from mark, echoes []string, v detect.Verdict, began time.Time, unsent int) Result {
	r := Result{
		Complete: v.Done && v.Reason != detect.Settled, // quiet is not evidence
		Owed:     from.owed,
		Reason:   v.Reason,
		Detail:   v.Detail,
		Code:     v.Code,
		Hidden:   s.InputHidden(),
		Alive:    s.Alive(),
		Unsent:   unsent,
		Closed:   s.closing.Load(),
		Stopping: s.stopping.Load(),
	}
	if !v.Done {
		r.Reason = detect.Timeout
	}
	if !r.Complete && r.Alive {
		w := s.proc.InputWait()
		if !w.Known && w.Why != "" {
			r.Detail = "input-wait unavailable: " + w.Why // say why weaker evidence was used
		}
		r.Reading = w.Reading || w.Proxy
	}
	r.Output, r.Lost, r.WholeScreen = s.outputCut(from, echoes)
	if st, ok := s.proc.Exit(); ok {
		r.Exit = &st
	}
	r.Elapsed = time.Since(began)
	return r
}

// InputHidden reports whether what is typed next is a secret: the program reads
// without echo in line mode (a local password prompt), or a program that forwards
// input elsewhere (ssh) shows a password-like prompt at the cursor — the far side's
// terminal settings are invisible here, and the local terminal is raw anyway. What is
// typed then must never be logged or shown.
func (s *Session) InputHidden() bool {
	if !s.Alive() {
		return false
	}
	if hidden, err := s.proc.InputHidden(); err == nil && hidden {
		return true
	}
	st := s.scr.Status()
	if st.AltScreen || !secretPrompt.MatchString(detect.CursorLine(&st)) {
		return false
	}
	return s.proc.InputWait().Proxy
}

// Highlighted returns, while a full-screen program is in front, the text it
// shows in reverse video (screen.Highlighted): the item its menu has selected.
func (s *Session) Highlighted() []string {
	if !s.scr.Counters().AltScreen {
		return nil
	}
	return s.scr.Highlighted(maxHighlighted)
}

// maxHighlighted bounds the highlighted runs a reply names.
const maxHighlighted = 5

// SecretExpected reports whether what is typed next is a secret: the terminal
// hides it (InputHidden), or a program asks for one in the open (read -p
// 'Password: '). It is never logged or recorded, as keys or as a line.
func (s *Session) SecretExpected() bool { return s.InputHidden() || s.secretAsked() }

// secretAsked reports whether the cursor shows a program asking for a secret:
// what is typed next is one, shown on the screen or not. The integrated shell at
// its own prompt asks for commands, whatever its prompt says.
func (s *Session) secretAsked() bool {
	st := s.scr.Status()
	if st.AltScreen || !secretPrompt.MatchString(detect.CursorLine(&st)) {
		return false
	}
	_, atShellPrompt := s.promptLine()
	return !atShellPrompt
}

// secretPrompt matches the cursor line of a prompt that asks for a secret.
var secretPrompt = regexp.MustCompile(`(?i)(password|passphrase|passcode|\bpin\b|\[sudo\]|token|secret|otp|verification code)[^\n]*[:?>]\s*$`)

// MaxLine is the longest line a program reading in line mode receives whole: Linux
// keeps 4096 bytes of a line being typed, the last for its newline.
const MaxLine = 4095

// LineMode reports whether the program in front reads the terminal a line at a time
// (canonical mode), where the kernel cuts lines longer than MaxLine.
func (s *Session) LineMode() bool {
	if !s.Alive() {
		return false
	}
	canonical, err := s.proc.Canonical()
	return err == nil && canonical
}

// pasteTabs brackets text with a tab as a paste where the program asked for that
// (readline, zle, python's REPL while they edit a line): typed, a tab is the key
// that completes, and a heredoc's Makefile recipe lost its tab (or got a file
// name completed into it). The Enter after the text is left outside the paste.
func (s *Session) pasteTabs(b []byte) []byte {
	text := bytes.TrimSuffix(b, []byte(enter))
	if bytes.IndexByte(text, '\t') < 0 || bytes.IndexByte(text, 0x1b) >= 0 || !s.scr.BracketedPaste() {
		return b
	}
	out := make([]byte, 0, len(b)+12)
	out = append(out, "\x1b[200~"...)
	out = append(out, text...)
	out = append(out, "\x1b[201~"...)
	return append(out, b[len(text):]...)
}

// spaced is s with every run of blanks (tabs included) made one space, line
// breaks kept: a tab typed shows on the screen as the blanks up to the next tab
// stop. It is used only where what was typed holds a tab (see tabbed): text
// without one is compared as it is, as before, at no cost.
func spaced(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	blank := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '\t' {
			if !blank {
				b.WriteByte(' ')
			}
			blank = true
			continue
		}
		blank = false
		b.WriteByte(s[i])
	}
	return b.String()
}

// tabbed returns shown and typed as they compare: blanks made one space where
// typed holds a tab, which shows as blanks.
func tabbed(shown, typed string) (string, string) {
	if !strings.ContainsRune(typed, '\t') {
		return shown, typed
	}
	return spaced(shown), spaced(typed)
}

// isEcho reports whether line is a prompt followed by the typed input.
func isEcho(line, input string) bool {
	line, input = tabbed(strings.TrimRight(line, " \t"), strings.TrimRight(input, " \t"))
	if !strings.HasSuffix(line, input) {
		return false
	}
	prompt := strings.TrimRight(line[:len(line)-len(input)], " ")
	_, ok := detect.MatchPrompt(prompt + " ")
	return ok
}

func (s *Session) exitedErr() error {
	st, _ := s.proc.Exit()
	return fmt.Errorf("%w (%s): read_output shows its last screen, close_session removes it", ErrExited, st)
}

// awaitRedraw gives an integrated shell waiting at its prompt a moment to redraw the
// prompt after a resize, and reports whether it did. Its line editor does so on
// SIGWINCH, prompt marks included, and a redraw that arrived after the resize's reply
// would end the next command at once, with the previous command's status.
func (s *Session) awaitRedraw(ctx context.Context, from mark) bool {
	if !s.integrated || s.lastMark(from.marks) != 'B' || !s.shellInFront() || !s.markedShell(s.proc.Pid()) {
		return false
	}
	if s.promptNonced(from.marks) {
		// bash: its prompt carries the time it was expanded, and a redraw, which
		// repeats it, draws no marks (screen.redrawnPrompt). Nothing to wait for:
		// readline does not redraw the whole prompt for a resize, and every resize
		// waited out redrawGrace.
		return false
	}
	return s.awaitPrompt(ctx, from.marks, redrawGrace)
}

// promptNonced reports whether the prompt whose B mark is number seq ended with
// a D mark carrying n= (bash's integration, see screen.Mark).
func (s *Session) promptNonced(seq uint64) bool {
	ms := s.scr.MarksSince(max(seq, 4) - 4)
	for i := len(ms) - 1; i >= 0; i-- {
		if m := ms[i]; m.Seq < seq && m.Kind == 'D' {
			return m.Nonce() != ""
		}
	}
	return false
}

// redrawGrace bounds awaitRedraw: a shell whose editor does not redraw costs this.
const redrawGrace = 250 * time.Millisecond
