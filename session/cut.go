package session

import (
	"context"
	"math"
	"os"
	"strings"
	"time"

	"github.com/mcp-terminal/mcp-terminal/detect"
	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// Which output belongs to which input.
//
// A reply is cut out of the screen's history from positions that survive what programs
// do to the screen:
//   - shell integration's C mark (the command's output starts), unless the screen was
//     erased after it;
//   - the top of the screen at the last erase (clear, ESC c), when the input caused one:
//     every older position may point at blank or redrawn rows;
//   - where a full-screen program put the cursor back when it left the alternate screen;
//   - otherwise the cursor at the moment the input was written.
//
// An input typed while the integrated shell was not at its prompt (the previous command
// timed out, or its prompt is slow) is "owed": a prompt (D..B marks) that arrives after it
// is an earlier command's when the shell then reads another command line (a C mark
// follows), and this input's only when the input was taken by the program that was
// running, which then ended (no C follows, and the shell waits at its prompt with nothing
// left unread). The agent is told when a cut cannot be known.

// ignoreClears is a test-only switch (MCP_TERMINAL_TEST_IGNORE_CLEARS=1): cut replies
// as if screens were never erased, so that the attribution test can show it notices.
var ignoreClears = os.Getenv("MCP_TERMINAL_TEST_IGNORE_CLEARS") == "1"

// mark is the state of the terminal at the moment an input was written.
type mark struct {
	pos     screen.Pos
	written uint64
	clears  uint64
	erases  uint64
	alt     bool   // a full-screen program held the alternate screen
	marks   uint64 // newest shell-integration mark
	owed    bool   // typed while a command ran or a prompt was drawn: the next prompts may be earlier inputs
	ahead   int    // lines typed ahead before this one whose commands had not started
	reply   bool   // where a reply ended: what follows is cut by position only
	// shellFront: the integrated shell was the foreground group (not a program it ran)
	shellFront bool
	reader     pty.Waiting
	// wrote is the reader's lifetime count of bytes written (wroteOK: known): what it
	// writes after the input must reach the screen before its waiting counts.
	wrote   uint64
	wroteOK bool
	at      time.Time
	// left is the cursor's row left of the cursor: a line editor that redraws that
	// part (a history search, ctrl+g), or a program that returns to the row's start
	// and overwrites it ("Waiting for your editor..." becoming git's "[main 95e401f]
	// msg"), answers with its whole row, not what lies right of an old column.
	left string
	// belowBlank: keys were typed with nothing on the screen below the cursor's row,
	// so what is there after them is theirs (a completion list drawn under the line).
	belowBlank bool
}

// markNow records the terminal just before an input is written, including who was
// waiting to read it: input-wait evidence later must come from a reader that has
// woken since, or the input may still be unread. keys says the input is keystrokes,
// not a line of text for whoever reads next.
func (s *Session) markNow(keys bool) mark {
	m := s.screenMark()
	// The typed bytes the shell has not taken yet say whether this input comes
	// after a line still to run; that matters only for an integrated shell whose
	// last reply did not show it ready, or with lines typed ahead. Otherwise who
	// reads is enough, and counting them (the slave opened, polled and closed)
	// is spared on every input.
	look := s.proc.Reader
	if s.integrated && !keys {
		s.mu.Lock()
		if !s.seenReady || len(s.ahead) > 0 {
			look = s.proc.InputWait
		}
		s.mu.Unlock()
	}
	m.reader = look()
	if s.integrated && !keys && m.reader.Reading && m.reader.PID == s.proc.Pid() && m.marks > 0 &&
		s.lastMark(m.marks) != 'B' && s.markedShell(m.reader.PID) {
		// The shell edits a command line again, but its prompt is not on the screen:
		// it is on its way (the kernel moves output in a worker). Judged now, its marks
		// would look like this input's.
		if s.awaitPrompt(context.Background(), m.marks, promptFlight) {
			m = s.screenMark()
			m.reader = look()
		} else {
			s.shellReads() // no prompt came: not the line editor that reads
		}
	}
	if m.reader.Reading {
		m.wrote, m.wroteOK = s.proc.Wrote(m.reader.PID)
	}
	m.shellFront = s.integrated && s.shellInFront()
	if keys && !m.alt {
		m.belowBlank = s.scr.BelowCursor() == ""
	}
	if !s.integrated {
		return m
	}
	if keys {
		// Lines typed ahead whose commands have not started take the next prompts:
		// keys typed now come after them, like a line typed now would.
		m.ahead = s.linesAhead(false)
		m.owed = m.ahead > 0
		return m
	}
	s.mu.Lock()
	ready := s.seenReady // the last reply showed the program ready (python's >>> before it reads)
	// A prompt that was the newest mark already when the last line was typed is not
	// one this input is typed at: the shell has that line to take, or has taken it
	// and drawn marks the screen does not show yet.
	stale := s.entered && s.enteredAt == m.marks
	s.mu.Unlock()
	atPrompt := s.lastMark(m.marks) == 'B' && !stale
	// The shell at its prompt with input it has not read yet has a line still to
	// take (typed before, on a machine too loaded to run the shell since): this one
	// comes after that line's command, as if typed while it ran. (Counted above
	// only where it can change owed or ahead: when ready, owed is false whatever it
	// says, and with no lines ahead linesAhead returns 0 either way.)
	// A proxy in front (ssh, tmux's client) waits to pass input on: the input is
	// its, not typed ahead of a command that runs.
	unread := m.reader.Reading && m.reader.PendingInput > 0
	m.owed = !ready && (unread || !m.reader.Reading && !m.reader.Proxy && !atPrompt)
	m.ahead = s.linesAhead(atPrompt && m.reader.PID == s.proc.Pid() && !unread)
	return m
}

// promptFlight bounds how long an input waits for the prompt of a shell already
// reading its next line to reach the screen.
const promptFlight = 20 * time.Millisecond

// screenMark is the screen's part of a mark: where a reply ended needs no reader.
// Its row's left part is kept too: what is written after it may overwrite that.
func (s *Session) screenMark() mark {
	snap := s.scr.Counters()
	pos := screen.Pos{Line: snap.CursorRow, Col: snap.Cursor.Col}
	return mark{
		pos:     pos,
		written: snap.Written,
		clears:  snap.Clears,
		erases:  snap.Erases,
		alt:     snap.AltScreen,
		marks:   snap.MarkSeq,
		at:      time.Now(),
		left:    s.scr.LeftOf(pos),
	}
}

// linesAhead counts the lines typed ahead whose commands have not started (no C mark
// of theirs yet), forgetting the others, and all of them once the shell waits at its
// prompt: then every line typed before has been read.
func (s *Session) linesAhead(idle bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if idle {
		s.ahead = s.ahead[:0]
		return 0
	}
	kept := s.ahead[:0]
	for _, a := range s.ahead {
		if countKind(s.scr.MarksSince(a.marks), 'C') <= a.ahead {
			kept = append(kept, a)
		}
	}
	s.ahead = kept
	return len(kept)
}

// typedAhead records a line, written after m with its Enter: the newest mark then
// is no prompt for the next input (see markNow), and an owed line's command must
// run before those of the lines typed after it.
func (s *Session) typedAhead(m mark) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entered, s.enteredAt = true, m.marks
	if m.owed {
		s.ahead = append(s.ahead, m)
	}
}

// lastMark is the kind of mark number seq, the newest when a mark was taken; 0 for
// none. Marks that arrived since are not it: an input marked after a command's status
// (D) but before its prompt (B) is not at the prompt.
func (s *Session) lastMark(seq uint64) byte {
	if seq == 0 {
		return 0
	}
	if ms := s.scr.MarksSince(seq - 1); len(ms) > 0 && ms[0].Seq == seq {
		return ms[0].Kind
	}
	return 0
}

// marksFor returns the shell-integration marks that belong to the input written at
// from, among those up to Seq upto (the screen state being judged). For an owed input,
// prompt is the last earlier command's prompt (its B mark) that came after the input,
// and ok says there was one.
func (s *Session) marksFor(from mark, upto uint64) (ms []screen.Mark, prompt screen.Mark, ok bool) {
	ms = s.scr.MarksSince(from.marks)
	for len(ms) > 0 && ms[len(ms)-1].Seq > upto {
		ms = ms[:len(ms)-1]
	}
	if !from.owed {
		return ms, screen.Mark{}, false
	}
	p := 0
	// Lines typed ahead of this one run first: skip each one's command up to the
	// prompt after it.
	for range from.ahead {
		c := indexKind(ms, p, 'C')
		if c < 0 {
			return nil, prompt, ok
		}
		b := indexKind(ms, c+1, 'B')
		if b < 0 {
			return nil, prompt, ok
		}
		p, prompt, ok = b+1, ms[b], true
	}
	for i := p; i < len(ms); i++ {
		if ms[i].Kind != 'B' {
			continue
		}
		if hasKind(ms[i+1:], 'C') {
			p, prompt, ok = i+1, ms[i], true // the shell read a command line after this prompt
			continue
		}
		if !s.lineTaken(from) {
			return ms[p:i], prompt, ok // the prompt may still be an earlier command's
		}
		break
	}
	return ms[p:], prompt, ok
}

// lineTaken reports whether the integrated shell waits at its prompt with nothing left
// unread, and has for takenAfter: a line typed ahead was taken by the program that ran
// before, not by the shell. The wait matters: bytes written to the terminal reach its
// input queue a moment later (the kernel moves them in a worker), and until then an
// unread line looks taken.
func (s *Session) lineTaken(from mark) bool {
	w := s.proc.InputWait()
	idle := w.Reading && w.PID == s.proc.Pid() && w.PendingInput == 0 && w.Unread == 0
	s.mu.Lock()
	defer s.mu.Unlock()
	if !idle || s.takenFor != from.at {
		s.takenFor, s.takenAt = from.at, time.Time{}
		if idle {
			s.takenAt = time.Now()
		}
		return false
	}
	if s.takenAt.IsZero() {
		s.takenAt = time.Now()
		return false
	}
	return time.Since(s.takenAt) >= takenAfter
}

// takenAfter is how long the shell must wait idle before a line counts as taken.
const takenAfter = 10 * time.Millisecond

func indexKind(ms []screen.Mark, from int, kind byte) int {
	for i := from; i < len(ms); i++ {
		if ms[i].Kind == kind {
			return i
		}
	}
	return -1
}

func countKind(ms []screen.Mark, kind byte) int {
	n := 0
	for _, m := range ms {
		if m.Kind == kind {
			n++
		}
	}
	return n
}

// lastKind is the index of the last mark of kind in ms, or -1.
func lastKind(ms []screen.Mark, kind byte) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Kind == kind {
			return i
		}
	}
	return -1
}

func hasKind(ms []screen.Mark, kind byte) bool { return indexKind(ms, 0, kind) >= 0 }

// origin is what the marks say about where the output of an input begins.
type origin struct {
	ours      []screen.Mark
	cmd       screen.Mark // the C mark of the first command typed since the input
	hasCmd    bool
	prompt    screen.Mark // for an owed input: the last earlier command's prompt since
	hasPrompt bool
}

// originOf reads the marks of the input written at from once, for one reply.
func (s *Session) originOf(from mark) origin {
	var o origin
	o.ours, o.prompt, o.hasPrompt = s.marksFor(from, math.MaxUint64)
	if i := indexKind(o.ours, 0, 'C'); i >= 0 && !from.reply {
		o.cmd, o.hasCmd = o.ours[i], true
	}
	return o
}

func (s *Session) outputSince(from mark, echoes []string) string {
	out, _, _ := s.outputCut(from, echoes)
	return out
}

// outputCut cuts this input's output out of the screen: from where it began to the
// cursor's line now, echo removed (lost: its start scrolled out of the
// scrollback). A full-screen program's answer is its screen. So is the answer
// of one that left the cursor above where its output began (tput cup, a scroll
// region set, the alternate screen left at a prompt), whole: cut from there to
// the cursor, it was empty, though the program had drawn on the screen (probe 9).
func (s *Session) outputCut(from mark, echoes []string) (out string, lost, whole bool) {
	snap := s.scr.Status()
	if snap.AltScreen {
		return s.screenText(), false, false
	}
	above := func(start screen.Pos) bool {
		return start.Line > snap.CursorRow && snap.Written != from.written && !ignoreClears
	}
	o := s.originOf(from)
	if snap.Erases != from.erases && !ignoreClears && (!o.hasCmd || o.cmd.Erases != snap.Erases) {
		if !from.owed || o.hasCmd {
			return s.sinceErase(snap, echoes), false, false
		}
		// Typed ahead: an erase before this line's command started is an earlier
		// command's, unless a later prompt of that command came after it.
		if !o.hasPrompt || o.prompt.Erases != snap.Erases {
			return "", false, false
		}
	}
	if o.hasCmd {
		// Shell integration marked where the command's own output begins: after the
		// echo, however the line editor drew it; or on the echo's rows, where the
		// command drew over them.
		at := s.scr.Overdrawn(o.cmd)
		if above(at) {
			return s.screenText(), false, true
		}
		text, lost := s.scr.TextSince(at)
		if len(echoes) > 0 {
			echoes = echoes[1:] // the first line's echo is before the mark
		}
		return padCursorLine(dropEchoLines(text, echoes), snap), lost, false
	}
	start, left := from.pos, from.left
	switch {
	case from.owed:
		switch {
		case o.hasPrompt:
			start, left = o.prompt.Pos, "" // our line echoes after the earlier command's prompt
		case indexKind(o.ours, 0, 'B') < 0:
			// Typed ahead, and no prompt since: what came is the earlier command's.
			return "", false, false
		}
	case from.alt:
		// The program left the alternate screen: what followed starts where the main
		// screen's cursor was put back, and the keys typed into it echoed nowhere.
		start, echoes, left = snap.AltExit, nil, snap.AltExitLeft
	}
	if start.Col > 0 && left != "" && !strings.HasPrefix(s.scr.LeftOf(start), left) {
		// The row was redrawn from its start since (see mark.left): a line editor's
		// search, or a program's \r that overwrote its "waiting..." with a result.
		start.Col = 0
	}
	if !from.owed && above(start) {
		return s.screenText(), false, true
	}
	text, lost := s.scr.TextSince(start)
	text = padCursorLine(stripEchoes(text, echoes), snap)
	if from.belowBlank {
		if below := s.scr.BelowCursor(); below != "" {
			text += "\n" + below // drawn under the line, the cursor back on it
		}
	}
	return text, lost, false
}

// screenText is the visible screen as text, soft wraps joined (on the main
// screen), trailing blank rows dropped.
func (s *Session) screenText() string {
	full := s.scr.Snapshot()
	return visible(full, 0, len(full.Lines))
}

// sinceErase is the output after the screen was erased: everything drawn since, from
// the top of the screen to the cursor or the last row written, whichever is lower (a
// program that paints a whole screen, like top, parks its cursor anywhere).
func (s *Session) sinceErase(snap screen.Status, echoes []string) string {
	text, _ := s.scr.TextSince(screen.Pos{Line: snap.EraseTop})
	full := s.scr.Snapshot()
	last := -1
	for i, l := range full.Lines {
		if strings.TrimSpace(l) != "" {
			last = i
		}
	}
	if last > full.Cursor.Row {
		text += "\n" + visible(full, full.Cursor.Row+1, last+1)
	}
	lines := strings.Split(text, "\n")
	for len(lines) > 1 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:] // ED 2 leaves the cursor where it was: the rows above are blank
	}
	text = strings.Join(lines, "\n")
	return padCursorLine(dropEchoLines(text, echoes), snap)
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

// visible returns rows [from, to) of the screen with soft wraps joined (on the main
// screen) and trailing blank rows but the cursor's dropped.
func visible(snap screen.Snapshot, from, to int) string {
	var b strings.Builder
	end := 0
	for i := from; i < to && i < len(snap.Lines); i++ {
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
//
// Only the first line is looked at here: the text can be the whole scrollback of a
// flood, and one typed line (the usual input) leaves the rest as it is.
func stripEchoes(text string, echoes []string) string {
	if len(echoes) == 0 {
		return text
	}
	line, rest, more := strings.Cut(text, "\n")
	first, echo := tabbed(strings.TrimSpace(line), strings.TrimSpace(echoes[0]))
	if first != "" && first != echo && (echoes[0] == "" || !isEcho(line, echoes[0])) {
		return text // the program wrote before echoing: keep everything
	}
	if !more {
		return ""
	}
	return dropEchoes(rest, echoes[1:], true)
}

// dropEchoLines removes, in order, each typed line's echo: the first line after
// the previous echo that shows a prompt followed by it, until one is not found.
func dropEchoLines(text string, echoes []string) string { return dropEchoes(text, echoes, false) }

// dropEchoes is dropEchoLines that, with bare, takes the typed line alone for its
// echo where no line shows it after a prompt: cat, bc, ed, node's .editor and
// fish's indented blocks echo each line without one (probe 8). Only for output
// cut from where the input began: after a shell's C mark the echoes are all
// above, and a line of output that reads like a typed line (a heredoc's) stays.
func dropEchoes(text string, echoes []string, bare bool) string {
	if len(echoes) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	drop := make([]bool, len(lines))
	from := 0
	find := func(match func(string) bool) int {
		for i := from; i < len(lines); i++ {
			if match(lines[i]) {
				return i
			}
		}
		return -1
	}
	for _, e := range echoes {
		i := find(func(l string) bool { return isEcho(l, e) })
		if i < 0 && bare && strings.TrimSpace(e) != "" {
			i = find(func(l string) bool { return bareEcho(l, e) })
		}
		if i < 0 {
			break // not echoed here (above a C mark, say): nor are the lines after it
		}
		drop[i], from = true, i+1
	}
	kept := make([]string, 0, len(lines))
	for i, line := range lines {
		if !drop[i] {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// bareEcho reports whether line is the typed input alone, indented or not.
func bareEcho(line, input string) bool {
	line, input = tabbed(strings.TrimSpace(line), strings.TrimSpace(input))
	return line == input
}
