package session

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcp-terminal/mcp-terminal/detect"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// Pending is what is about to be typed, as Input.Gate sees it inside the session's
// turn: nothing else can type into the terminal between the look and the typing.
type Pending struct {
	// Text is what this call types now: one line of Text without its Enter, or the
	// printable part of keys before an Enter.
	Text string
	// Enter says Enter is pressed after Text: Line is submitted.
	Enter bool
	// Line is the command line Enter submits: read back from the screen at an
	// integrated shell's prompt (it then includes what earlier calls typed, tab
	// completion, line editing and recalled history), else the pieces typed since the
	// last Enter followed by Text. Without Enter it is those pieces too.
	Line string
	// Screen says Line was read from the screen at the shell's prompt.
	Screen bool
	// Pieces is what was typed since the last Enter, Text included: what Line is
	// when the screen cannot say, and a second opinion when it can.
	Pieces string
	// Hidden: the terminal hides what is typed (a password prompt asked for it).
	Hidden bool
	// Program is the foreground program's name ("" when unknown).
	Program string
	// Prompt is the cursor's row up to the cursor before typing: the prompt of a
	// program behind a proxy (ssh, docker exec) says what reads the line.
	Prompt string
	// Index numbers the lines of a multi-line Text from 0.
	Index int
	// Ahead: the program in front was not reading the terminal when the line was
	// typed (it runs, or sleeps): the line waits in the terminal, and whoever reads
	// next takes it, the shell once that program ends. Program's rules alone do
	// not say what it will do.
	Ahead bool
}

// PromptFamily names the program family whose prompt line (the cursor's row up to the
// cursor) ends in, from the prompt library ("psql", "python", "shell"...); "" if none.
func PromptFamily(line string) string {
	name, _ := detect.MatchPrompt(line)
	return name
}

// Refusal is the error Send returns (in Result.Refused) when Gate refused a line.
type Refusal struct {
	Index int    // the refused line
	Line  string // what was judged
	Err   error  // the gate's reason
	// Cleared: the refused line had been typed at the shell's prompt to be read back,
	// and was erased again without running.
	Cleared bool
}

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

// echoSettle bounds the wait for the shell to echo what was typed before its line is
// read back from the screen; echoQuiet is how long the screen must stay unchanged.
const (
	echoSettle = 300 * time.Millisecond
	echoQuiet  = 4 * time.Millisecond
)

// submitKeys are the keys that hand a shell's command line over to be run: Enter,
// ctrl+j and bash's ctrl+o (operate-and-get-next).
const submitKeys = "\r\n\x0f"

// clearLine erases the line a shell's editor holds: end of line, then kill back to its
// start (emacs and vi insert mode alike).
var clearLine = []byte{0x05, 0x15}

// pending is what Gate is asked about text about to be typed, before the command
// line is known: the program in front and the prompt at the cursor.
func (s *Session) pending(text string, enter, hidden bool) Pending {
	st := s.scr.Status()
	return Pending{Text: text, Enter: enter, Hidden: hidden, Program: s.Foreground(), Prompt: detect.CursorLine(&st), Ahead: s.typingAhead}
}

// promptLine returns the command line an integrated shell is editing: the screen from
// its input-start mark to the cursor's row. ok is false when the shell is not at its
// prompt in front of the terminal, or the screen was erased since the mark.
func (s *Session) promptLine() (string, bool) {
	if !s.integrated || !s.shellInFront() {
		return "", false
	}
	st := s.scr.Counters()
	if st.AltScreen || st.MarkSeq == 0 {
		return "", false
	}
	ms := s.scr.MarksSince(st.MarkSeq - 1)
	if len(ms) == 0 || ms[0].Kind != 'B' || ms[0].Erases != st.Erases {
		return "", false
	}
	if ms[0].Seq > s.typedMark.Load() && !s.lineOpen.Load() {
		// Nothing was typed at this prompt, nor left unended before it: what the
		// screen shows after it is output, not a command line. bash draws its
		// prompt over a row a progress line returned to (printf '50%\r') without
		// erasing the rest, and a background job writes after the prompt.
		return "", true
	}
	text, lost := s.scr.TextSince(ms[0].Pos)
	if lost {
		return "", false
	}
	if ms[0].Pos.Line == st.CursorRow && !strings.Contains(text, "\n") {
		text = dropRightPrompt(text, st.Cursor.Col-ms[0].Pos.Col, st.Cols-ms[0].Pos.Col)
	}
	lines := strings.Split(strings.TrimRight(text, " "), "\n")
	for i := 1; i < len(lines); i++ {
		// A command continued over several lines shows the continuation prompt (PS2:
		// bash's "> ", zsh's "for> ") before each; it is not part of the command.
		lines[i] = continuation.ReplaceAllString(lines[i], "")
	}
	return strings.Join(lines, "\n"), true
}

// dropRightPrompt removes a right prompt (zsh's RPROMPT) from a command line that
// fits on the prompt's row: text after the cursor, past blanks, that reaches the
// row's right edge (zsh leaves its last column free). cursor and width count
// cells from where the line starts. Text typed after the cursor (moved back with
// an arrow key) starts at the cursor or does not reach the edge, and stays.
func dropRightPrompt(line string, cursor, width int) string {
	cells, cut := 0, -1
	for i, r := range line {
		if cells == cursor {
			cut = i
			break
		}
		cells += screen.RuneWidth(r)
	}
	if cut < 0 {
		return line
	}
	after := line[cut:]
	right := strings.TrimLeft(after, " ")
	if right == after || strings.TrimSpace(right) == "" {
		return line
	}
	end := cursor + len(after) - len(right)
	for _, r := range strings.TrimRight(right, " ") {
		end += screen.RuneWidth(r)
	}
	if end < width-1 {
		return line
	}
	return line[:cut]
}

// writeInput writes typed input to the terminal, noting for promptLine the
// newest mark as it goes in and whether it ends its line.
func (s *Session) writeInput(ctx context.Context, b []byte) error {
	if len(b) > 0 {
		s.typedMark.Store(s.scr.Counters().MarkSeq)
		last := b[len(b)-1]
		s.lineOpen.Store(last != '\r' && last != '\n' && last != interruptKey)
		s.replyOpen.Store(false)
	}
	_, err := s.proc.Write(ctx, b)
	return err
}

// continuation matches the default continuation prompts of bash and zsh ("> ",
// "for> ", "quote> "; its blank is gone where the line was right-trimmed).
var continuation = regexp.MustCompile(`^[a-z ]*>( |$)`)

// heldWithoutEnter says whether a command line (promptLine's) holds text typed
// without Enter: on its last line. The lines before it of a construct typed over
// several lines (a loop, a heredoc, after continuation prompts) were each ended
// with Enter, and the next line is not added to them but follows them.
func heldWithoutEnter(line string) bool {
	return strings.TrimSpace(line[strings.LastIndexByte(line, '\n')+1:]) != ""
}

// settleEcho waits until what was just written has been echoed: the screen changed
// and then stayed unchanged for a moment, or echoSettle passed.
func (s *Session) settleEcho(ctx context.Context, before uint64) {
	s.settle(ctx, before, true, echoQuiet, echoSettle)
}

// settle waits until no output arrived for quiet, at most limit. With changed, the
// quiet counts only once output arrived after before (the count of bytes written).
func (s *Session) settle(ctx context.Context, before uint64, changed bool, quiet, limit time.Duration) {
	deadline := time.Now().Add(limit)
	last, quietSince := before, time.Now()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		w := s.scr.Counters().Written
		if w != last {
			last, quietSince = w, time.Now()
			continue
		}
		if (w != before || !changed) && time.Since(quietSince) >= quiet {
			return
		}
	}
}

// editsLine reports whether typing s does more than insert it: control characters
// (tab completion, editing keys, escape sequences) make the shell's line differ from
// the text.
func editsLine(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}

// notePieces keeps the text typed since the last Enter, the fallback for judging
// the line an Enter submits where the screen cannot say.
func (s *Session) notePieces(b []byte) {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		switch {
		case strings.ContainsRune(submitKeys, r) || r == 0x03 || r == 0x15: // submitted, ctrl+c, ctrl+u
			s.typedPieces = ""
		case r == 0x7f || r == 0x08:
			if _, size := utf8.DecodeLastRuneInString(s.typedPieces); size > 0 {
				s.typedPieces = s.typedPieces[:len(s.typedPieces)-size]
			}
		case r == 0x1b:
			b = skipEscape(b)
		case r >= 0x20:
			if len(s.typedPieces) < MaxLine {
				s.typedPieces += string(r)
			}
		}
	}
}

// skipEscape drops the rest of an escape sequence (a cursor key's CSI or SS3).
func skipEscape(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	switch b[0] {
	case '[':
		for i := 1; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return b[i+1:]
			}
		}
		return nil
	case 'O':
		return b[min(2, len(b)):]
	}
	return b[1:]
}

// printable is the text keys would insert, for a Pending's Text.
func printable(b []byte) string {
	var out strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		switch {
		case r == 0x1b:
			b = skipEscape(b)
		case r >= 0x20 && r != 0x7f:
			out.WriteRune(r)
		}
	}
	return out.String()
}

// gateKeys types keys that hold an Enter piece by piece: before each Enter the keys
// before it are typed, the line is read back (or built from the pieces), and Gate is
// asked. rearm is called before an Enter that follows keys already typed: the reader
// woke and wrote for those, which is not evidence about what Enter starts. It returns the refusal, if any, after which nothing more is typed.
func (s *Session) gateKeys(ctx context.Context, keys []byte, gate func(Pending) error, write func([]byte) error, rearm func()) (*Refusal, error) {
	for len(keys) > 0 {
		i := bytes.IndexAny(keys, submitKeys)
		if i < 0 {
			s.notePieces(keys)
			return nil, write(keys)
		}
		pre := keys[:i]
		if len(pre) > 0 {
			before := s.scr.Counters().Written
			if err := write(pre); err != nil {
				return nil, err
			}
			s.notePieces(pre)
			if _, ok := s.promptLine(); ok {
				s.settleEcho(ctx, before)
			}
		}
		hidden := s.InputHidden()
		p := s.pending(printable(pre), true, hidden)
		p.Line, p.Pieces = s.typedPieces, s.typedPieces
		if cur, ok := s.promptLine(); ok && !hidden {
			p.Line, p.Screen = cur, true
		}
		if err := gate(p); err != nil {
			ref := &Refusal{Line: p.Line, Err: err}
			if p.Screen && p.Line != "" {
				ref.Cleared = write(clearLine) == nil
			}
			s.typedPieces = ""
			return ref, nil
		}
		if len(pre) > 0 {
			rearm()
		}
		if err := write(keys[i : i+1]); err != nil {
			return nil, err
		}
		s.typedPieces = ""
		keys = keys[i+1:]
	}
	return nil, nil
}

// clearReplies clears the shell's command line of the terminal's answers to a
// program's queries that the program left unread when it ended (62;22c after
// binary output): no input typed them, and they would run with the next line.
// Answers still on their way (typed, not read yet) are let in first. cur is the
// command line, atPrompt promptLine's ok; it returns them again.
func (s *Session) clearReplies(ctx context.Context, cur string, atPrompt bool, write func([]byte) error) (string, bool, error) {
	if n, err := s.proc.PendingInput(); err == nil && n > 0 {
		s.settleEcho(ctx, s.scr.Counters().Written)
		cur, atPrompt = s.promptLine()
	}
	if !heldWithoutEnter(cur) {
		s.replyOpen.Store(false) // the program that asked read them
		return cur, atPrompt, nil
	}
	before := s.scr.Counters().Written
	if err := write(clearLine); err != nil {
		return "", false, err
	}
	s.settleEcho(ctx, before)
	s.cleared = cur
	cur, atPrompt = s.promptLine()
	return cur, atPrompt, nil
}

// gateLine types one line of Text once Gate lets it through. A line whose Enter would
// submit something the screen must show first (text already at the prompt, editing
// keys) is typed, read back, judged, and then submitted or erased.
func (s *Session) gateLine(ctx context.Context, chunk []byte, line string, hidden bool, index int, in Input, write func([]byte) error, rearm func()) (*Refusal, error) {
	withEnter := bytes.HasSuffix(chunk, []byte(enter))
	p := s.pending(line, withEnter, hidden)
	p.Index = index
	p.Line = s.typedPieces + line
	p.Pieces = p.Line
	ahead := false // the line was typed ahead of its Enter
	cur, atPrompt := s.promptLine()
	if atPrompt && !hidden && s.replyOpen.Load() {
		var err error
		if cur, atPrompt, err = s.clearReplies(ctx, cur, atPrompt, write); err != nil {
			return nil, err
		}
	}
	switch {
	case !atPrompt || hidden:
	case cur == "" && s.typedPieces == "" && !editsLine(line):
		p.Line, p.Screen = line, true // the line holds nothing but what this types
	case withEnter:
		// Text already at the prompt, or keys the line editor acts on (a tab completes):
		// type it, and judge the line the screen shows.
		if heldWithoutEnter(cur) {
			s.addedTo = cur
		}
		if text := chunk[:len(chunk)-len(enter)]; len(text) > 0 {
			before := s.scr.Counters().Written
			if err := write(text); err != nil {
				return nil, err
			}
			s.settleEcho(ctx, before)
			ahead = true
		}
		if cur, ok := s.promptLine(); ok {
			p.Line, p.Screen = cur, true
		}
		chunk = []byte(enter)
	}
	if err := in.Gate(p); err != nil {
		ref := &Refusal{Line: p.Line, Err: err}
		if p.Screen && p.Line != "" && !bytes.Equal(chunk, []byte(line+enter)) {
			ref.Cleared = write(clearLine) == nil
		}
		return ref, nil
	}
	if in.Typed != nil {
		// A line typed where a program asks for a secret is one, shown or not (read -p
		// 'Password: ' echoes it): logged and remembered as hidden input is.
		in.Typed(line, hidden || !atPrompt && secretPrompt.MatchString(p.Prompt))
	}
	if ahead {
		rearm()
	}
	s.notePieces(chunk)
	return nil, write(chunk)
}
