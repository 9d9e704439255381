package session

import (
	"bytes"
	"context"
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

	// Typed, if set, is told each line just before it is typed, and whether the
	// terminal hides it (a password prompt asked for it): the caller's audit can then
	// record secrets as hidden even when an earlier line of the same input is what
	// asked for them.
	Typed func(line string, hidden bool)
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
	Unsent   int // lines of a multi-line input not typed because an earlier one never finished
}

// enter is what the Enter key sends.
const enter = "\r"

// Send types the input and waits until the program is ready again, the timeout passes
// or ctx ends. A multi-line Text is typed line by line, each line after the previous
// one finished (or went quiet), as a person would; the result is the new output of all
// of them with every echoed input line removed.
func (s *Session) Send(ctx context.Context, in Input) (Result, error) {
	if err := s.acquire(ctx); err != nil {
		return Result{}, err
	}
	defer s.release()
	if !s.Alive() {
		return Result{}, s.exitedErr()
	}
	began := time.Now()
	deadline := began.Add(in.Timeout)
	chunks, echoes, err := s.chunks(in)
	if err != nil {
		return Result{}, err
	}
	first := s.markNow()
	var v detect.Verdict
	unsent := 0
	for i, chunk := range chunks {
		last := i == len(chunks)-1
		from := first
		if i > 0 {
			from = s.markNow()
		}
		hidden := s.InputHidden()
		if in.Typed != nil && in.Keys == "" {
			in.Typed(echoes[i], hidden)
		}
		wctx, cancel := context.WithDeadline(ctx, deadline)
		_, err := s.proc.Write(wctx, chunk)
		cancel()
		if err != nil {
			if !s.Alive() {
				// The program ended before it took this line: report its exit once its
				// last output is in.
				v = s.wait(ctx, waitSpec{from: from, det: detect.New(detect.Options{}), deadline: deadline})
				break
			}
			return Result{}, fmt.Errorf("type into session %s: the program is not reading its input (%w); try send_control ctrl+c", s.ID, err)
		}
		opts := detect.Options{Settle: s.settleDur}
		if last {
			opts.WaitFor = in.WaitFor
		}
		v = s.wait(ctx, waitSpec{
			from:        from,
			det:         detect.New(opts),
			deadline:    deadline,
			allowSettle: !last || in.Keys != "" || !in.AppendNewline,
			output:      func() string { return s.outputSince(from, echoes[i:i+1]) },
			typed:       echoes[i],
			enter:       bytes.HasSuffix(chunk, []byte(enter)),
			hidden:      hidden,
		})
		if !v.Done && !last {
			unsent = len(chunks) - i - 1
			break
		}
	}
	return s.result(first, echoes, v, began, unsent), nil
}

// chunks splits the input into what is written at once, and the echo each produces.
// Keys are encoded now, inside the turn, because the cursor keys' encoding depends on
// the mode the program has set.
func (s *Session) chunks(in Input) (chunks [][]byte, echoes []string, err error) {
	if in.Keys != "" {
		keys, err := Keys(in.Keys, s.scr.Status().AppCursor)
		if err != nil {
			return nil, nil, err
		}
		return [][]byte{keys}, []string{""}, nil
	}
	text := strings.ReplaceAll(in.Text, "\r\n", "\n")
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
		Complete: v.Done,
		Reason:   v.Reason,
		Detail:   v.Detail,
		Code:     v.Code,
		Hidden:   s.InputHidden(),
		Alive:    s.Alive(),
		Elapsed:  time.Since(began),
		Unsent:   unsent,
	}
	if !r.Complete {
		r.Reason = detect.Timeout
	}
	if (r.Reason == detect.Timeout || r.Reason == detect.Settled) && r.Alive {
		if w := s.proc.InputWait(); !w.Known && w.Why != "" {
			r.Detail = "input-wait unavailable: " + w.Why // say why weaker evidence was used
		}
	}
	r.Output, r.Lost = s.outputLost(from, echoes)
	if st, ok := s.proc.Exit(); ok {
		r.Exit = &st
	}
	return r
}

func (s *Session) outputSince(from mark, echoes []string) string {
	out, _ := s.outputLost(from, echoes)
	return out
}

// outputLost cuts this input's output out of the screen: from where the cursor was to
// the cursor's line now, echo removed. A full-screen program's answer is its screen; a
// cleared screen's answer is what is on it.
func (s *Session) outputLost(from mark, echoes []string) (string, bool) {
	snap := s.scr.Status()
	if snap.AltScreen {
		full := s.scr.Snapshot()
		return visible(full, len(full.Lines)), false
	}
	start := from.pos
	if c, ok := s.commandStart(from); ok {
		// Shell integration marked where the command's own output begins: after the
		// echo, however the line editor drew it.
		text, lost := s.scr.TextSince(c)
		return padCursorLine(dropEchoLines(text, echoes[1:]), snap), lost
	}
	if from.alt {
		// The program left the alternate screen: what followed starts where the main
		// screen's cursor was put back, and the keys typed into it echoed nowhere.
		start, echoes = snap.AltExit, nil
	} else if snap.Clears != from.clears && snap.CursorLine <= from.pos.Line {
		full := s.scr.Snapshot()
		return visible(full, full.Cursor.Row+1), false
	}
	text, lost := s.scr.TextSince(start)
	return padCursorLine(stripEchoes(text, echoes), snap), lost
}

// padCursorLine restores the blanks between the end of the text and the cursor on its
// line, which the screen trims: a prompt is "$ ", not "$".
func padCursorLine(text string, snap screen.Status) string {
	line := detect.CursorLine(&snap)
	trimmed := strings.TrimRight(line, " ")
	if len(line) > len(trimmed) && strings.HasSuffix(text, trimmed) {
		return text + line[len(trimmed):]
	}
	return text
}

// visible returns the first n rows of the screen with soft wraps joined (on the main
// screen) and trailing blank rows dropped.
func visible(snap screen.Snapshot, n int) string {
	var b strings.Builder
	end := 0
	for i := 0; i < n && i < len(snap.Lines); i++ {
		b.WriteString(snap.Lines[i])
		if i < len(snap.Wrapped) && snap.Wrapped[i] && !snap.AltScreen {
			continue
		}
		if strings.TrimSpace(snap.Lines[i]) != "" || i == snap.Cursor.Row {
			end = b.Len()
		}
		b.WriteByte('\n')
	}
	return b.String()[:end]
}

// stripEchoes removes the terminal's echo of each typed line. The first line of the
// text is what follows the prompt the input was typed at: the echo of the first line,
// or nothing when echo was off. Each later input line echoes after a prompt of its own
// ("$ ", "... ", "> "), and only that exact line is removed, in order.
func stripEchoes(text string, echoes []string) string {
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || len(echoes) == 0 {
		return text
	}
	first := strings.TrimSpace(lines[0])
	if first != "" && first != strings.TrimSpace(echoes[0]) && (echoes[0] == "" || !isEcho(lines[0], echoes[0])) {
		return text // the program wrote before echoing: keep everything
	}
	if len(lines) == 1 {
		return ""
	}
	return dropEchoLines(strings.Join(lines[1:], "\n"), echoes[1:])
}

// dropEchoLines removes, in order, the lines that show a prompt followed by the next
// typed line.
func dropEchoLines(text string, echoes []string) string {
	if len(echoes) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	kept := make([]string, 0, len(lines))
	next := 0
	for _, line := range lines {
		if next < len(echoes) && isEcho(line, echoes[next]) {
			next++
			continue
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}

// commandStart finds shell integration's "command output starts" mark for the first
// command typed since from.
func (s *Session) commandStart(from mark) (screen.Pos, bool) {
	for _, m := range s.scr.MarksSince(from.marks) {
		if m.Kind == 'C' {
			return m.Pos, true
		}
	}
	return screen.Pos{}, false
}

// InputHidden reports whether the program reads without echo in line mode now: a
// password prompt. What is typed then must never be logged or shown.
func (s *Session) InputHidden() bool {
	if !s.Alive() {
		return false
	}
	hidden, err := s.proc.InputHidden()
	return err == nil && hidden
}

// isEcho reports whether line is a prompt followed by the typed input.
func isEcho(line, input string) bool {
	input = strings.TrimRight(input, " \t")
	line = strings.TrimRight(line, " \t")
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
