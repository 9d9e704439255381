package screen

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// Defaults and bounds. The default size is pty's (pty.DefaultCols, pty.DefaultRows), so
// that a session's screen and its terminal agree on it. The bounds keep a hostile or buggy
// resize from allocating gigabytes.
const (
	DefaultCols       = 120
	DefaultRows       = 40
	DefaultScrollback = 10000
	MaxCols           = 1000
	MaxRows           = 500

	maxReplies = 64 << 10 // a program that floods queries nobody drains must not grow us forever
	maxMarks   = 1000
)

// Options configures a Screen.
type Options struct {
	Cols, Rows int // zero means DefaultCols or DefaultRows, each on its own, as in pty.Start
	Scrollback int // lines kept after scrolling off the main screen; zero means 10000; negative means none
}

// Pos is an absolute position in the output stream: Line counts every line that has ever
// scrolled off the main screen plus the row on screen, so it stays valid as output scrolls.
type Pos struct {
	Line int64
	Col  int // cell column
}

// Point is a position on the visible screen.
type Point struct{ Row, Col int }

// Snapshot is an immutable copy of the visible screen and its modes; safe to keep.
type Snapshot struct {
	Status // the cursor, its row, the modes and the counters

	Lines          []string // visible rows top to bottom, right-trimmed, len == Rows, wide chars once, placeholders removed
	Wrapped        []bool   // Wrapped[i]: row i soft-wraps onto row i+1
	CursorVisible  bool
	BracketedPaste bool
	Title          string
}

// Mark is an OSC 133 semantic prompt mark (FinalTerm / iTerm2 shell integration):
// Kind 'A' prompt start, 'B' command start (input begins), 'C' command output start,
// 'D' command end; Arg is the text after "133;X;" (for D: the exit status, then options
// such as n=, see redrawnPrompt). Pos is where the cursor was when the mark arrived. Seq
// numbers marks from 1 upward. A prompt redrawn as it was adds no marks.
type Mark struct {
	Kind byte
	Arg  string
	Pos  Pos
	Seq  uint64
	// Erases is Status.Erases when the mark arrived: a later erase makes Pos stale.
	Erases uint64
	// Above, for a C mark, is the command line as the screen showed it when the mark
	// arrived: the rows from the prompt's B mark (at most a screenful) to the row
	// above Pos, right-trimmed. Overdrawn compares them with the screen now.
	Above []string
}

// Nonce is the n= option of an end mark (D): bash's integration puts there the
// time its prompt was expanded, which a redraw of that prompt repeats. "" when
// the mark has none.
func (m Mark) Nonce() string { return nonce(m.Arg) }

func nonce(arg string) string {
	_, n, _ := strings.Cut(arg, ";n=")
	return n
}

// Screen is a headless terminal screen. The zero value is not usable; call New.
type Screen struct {
	mu sync.Mutex
	vt vt10x.Terminal

	cols, rows  int
	top, bottom int // scroll region (DECSTBM), mirrored because vt10x keeps it unexported

	p     parser
	print printer
	hist  history
	glyph clusters

	lineBase    int64 // lines that have ever scrolled off the main screen
	replies     []byte
	bracketed   bool
	title       string
	written     uint64
	clears      uint64
	erases      uint64 // ED 2 and RIS on the main screen
	eraseTop    int64  // lineBase at the last erase
	altExit     Pos
	altExitLeft string
	// mainCursor is where the main screen's cursor was when 1049 saved it, set
	// while the alternate screen shows: vt10x keeps one saved cursor for both
	// screens, and a DECSC on the alternate one (nano's) replaces the main
	// screen's, which a terminal keeps apart.
	mainCursor *cursorAt
	marks      []Mark
	markSeq    uint64
	promptN    string // the n= of the last prompt's end mark (redrawnPrompt)
	redrawing  bool   // the marks arriving belong to a redrawn prompt

	tabsCustom bool   // a program set or cleared tab stops: TAB leaves the flow
	pend       []byte // output kept back from vt10x by the bulk step (fast.go)
	setup      setup  // what vt10x must do before it gets pend
	flow       flow
	backoff    int    // bytes to feed the slow way before the flow is tried again
	retry      int    // what backoff starts at
	bulks      uint64 // bulk steps done, for tests
	bulkStyled uint64 // rows with attributes the bulk steps sent to the history, for tests
	flowsOn    uint64 // writes the flow went on with where it stopped, for tests
	slowOnly   bool   // tests: never use the flow, to compare against

	seq         []byte // scratch for sequences sent to vt10x
	csi         csiSeq // scratch for the sequence being dispatched
	rowCells    []rune // scratch for renderRow and rowRuns
	rowGlyphs   []vt10x.Glyph
	rowAttrs    []Attr
	rowText     []byte
	rowRunBytes []byte
}

// New returns a blank screen of the given size.
func New(opts Options) *Screen {
	cols, rows := opts.Cols, opts.Rows
	if cols == 0 {
		cols = DefaultCols
	}
	if rows == 0 {
		rows = DefaultRows
	}
	cols, rows = clampSize(cols, rows)
	limit := opts.Scrollback
	switch {
	case limit == 0:
		limit = DefaultScrollback
	case limit < 0:
		limit = 0
	}
	s := &Screen{cols: cols, rows: rows, bottom: rows - 1, hist: history{max: limit}, retry: defaultRetry}
	// vt10x never receives a query, so it never writes; io.Discard is a guard, not a sink.
	s.vt = vt10x.New(vt10x.WithWriter(io.Discard), vt10x.WithSize(cols, rows))
	// Its alternate screen starts as black-on-black blanks, cleared before it had set the
	// default colours; leaving that screen clears it with them.
	_, _ = s.vt.Write([]byte("\x1b[?1047h\x1b[?1047l"))
	return s
}

func clampSize(cols, rows int) (int, int) {
	return clampInt(cols, 1, MaxCols), clampInt(rows, 1, MaxRows)
}

func clampInt(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

// Write feeds program output to the screen. It always consumes all of p and never blocks on
// anything but the screen's own lock; query replies are queued for TakeReplies.
func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p)
	s.written += uint64(len(p))
	for len(p) > 0 {
		switch {
		case !s.fastReady():
			p = s.writeSlow(p)
		case !s.worthFlow(p):
			s.flushPend()
			s.replay(p)
			p = nil
		default:
			// In pieces, so that a huge Write does not make the flow keep a huge layout.
			q := p[:min(len(p), maxFlow)]
			rest := s.writeFast(q)
			if p = p[len(q)-len(rest):]; len(rest) > 0 {
				p = s.writeSlow(p)
			}
		}
	}
	s.flushPrint()
	return n, nil
}

// TakeReplies returns the bytes the program must receive back (answers to its queries) and
// clears the queue; nil if there are none.
func (s *Screen) TakeReplies() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.replies) == 0 {
		return nil
	}
	out := s.replies
	s.replies = nil
	return out
}

func (s *Screen) reply(format string, args ...any) {
	if len(s.replies) >= maxReplies {
		return
	}
	s.replies = fmt.Appendf(s.replies, format, args...)
}

// Cursor returns the absolute cursor position.
func (s *Screen) Cursor() Pos {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	cur := s.vt.Cursor()
	return Pos{Line: s.lineBase + int64(cur.Y), Col: cur.X}
}

// Snapshot returns a copy of the visible screen and its modes.
func (s *Screen) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	snap := Snapshot{
		Status:         s.status(),
		Lines:          make([]string, s.rows),
		Wrapped:        make([]bool, s.rows),
		CursorVisible:  s.vt.CursorVisible(),
		BracketedPaste: s.bracketed,
		Title:          s.title,
	}
	for y := range s.rows {
		text, wrapped := s.renderRow(y)
		snap.Lines[y], snap.Wrapped[y] = trimRight(text), wrapped
	}
	return snap
}

// Status is the cheap part of a Snapshot, for callers that look many times a
// second (completion detection): the cursor, its row, the modes and the counters.
type Status struct {
	Cursor    Point  // always inside the screen
	CursorRow int64  // the cursor's Pos.Line: Cursor.Row counted from the first line ever
	Line      string // the cursor's row, right-trimmed, as in Snapshot.Lines
	// WrappedIn is the text of the rows that soft-wrap onto the cursor's row, the
	// first of them first: the start of the line the cursor is on ("" if the row
	// above does not wrap onto it). Like Line, only Status reads it.
	WrappedIn string
	// PendingWrap: the cursor is in the last column with the next character due
	// to wrap, so the cell it is on holds the last character written; the line
	// reads up to and including it.
	PendingWrap bool
	AltScreen   bool
	AppCursor   bool   // DECCKM: arrow keys must be sent as ESC O A..D
	Written     uint64 // total bytes ever fed to Write
	Clears      uint64 // times the visible screen was erased (ED 2 / ED 3 / RIS / alt-screen switch)

	// Erases counts the times the visible main screen was blanked (ED 2, RIS; not ED 3,
	// which leaves the screen as it is, nor the alternate screen). EraseTop is the
	// absolute line of the top row at the last one: output after an erase begins there,
	// because every older position may now point at blank or redrawn rows.
	Erases   uint64
	EraseTop int64

	// AltExit is where the main screen's cursor was put back when a full-screen program
	// last left the alternate screen: where the output after it (the next prompt) begins.
	AltExit Pos
	// AltExitLeft is that row left of the cursor then: a program that overwrites
	// the row from its start afterwards has redrawn it (see session's mark.left).
	AltExitLeft string

	// MarkSeq is the Seq of the newest shell-integration mark (0 before any):
	// MarksSince(MarkSeq) later returns exactly the marks that arrived after this.
	MarkSeq uint64

	Cols, Rows int
}

// Status returns the cursor's row and the counters without rendering the screen. In a
// flood it does not hand vt10x the output kept back either (fast.go): the detector
// looks every few milliseconds, and the read loop waits while it does.
func (s *Screen) Status() Status { return s.snapshot(true) }

// Counters is Status without Line: the cursor, the modes and the counters, for
// the callers that do not read the cursor's row. Status renders that row cell by
// cell, and a session asks for where things are several times per reply (a third
// of its CPU time per short command went to rendering a row nobody read).
func (s *Screen) Counters() Status { return s.snapshot(false) }

// BracketedPaste reports whether the program asked for pasted text to come
// bracketed (ESC [?2004h): readline, zle and most line editors do while they edit.
func (s *Screen) BracketedPaste() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	return s.bracketed
}

// snapshot is Status, with the cursor's row rendered only when row is set.
func (s *Screen) snapshot(row bool) Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.setup.due {
		if row {
			return s.flowStatus()
		}
		return s.statusAt(Point{Row: s.flow.y, Col: s.flow.x}, s.flow.wrapNext, "")
	}
	s.flushPend()
	if row {
		return s.status()
	}
	cur := s.vt.Cursor()
	return s.statusAt(Point{Row: cur.Y, Col: cur.X}, cur.State&vtCursorWrapNext != 0, "")
}

// status reads the Status; the caller holds s.mu and has flushed pending output.
func (s *Screen) status() Status {
	cur := s.vt.Cursor()
	text, _ := s.renderRow(cur.Y)
	st := s.statusAt(Point{Row: cur.Y, Col: cur.X}, cur.State&vtCursorWrapNext != 0, text)
	st.WrappedIn = s.wrappedInto(cur.Y)
	return st
}

// wrappedInto returns the text of the rows above y that soft-wrap onto it, in order.
func (s *Screen) wrappedInto(y int) string {
	if s.promptStarts(s.lineBase + int64(y)) {
		return "" // a prompt starts the row: zsh's PROMPT_SP wrapped onto it (TextSince)
	}
	top := y
	for top > 0 && s.vt.Cell(s.cols-1, top-1).Mode&vtAttrWrap != 0 {
		top--
	}
	if top == y {
		return ""
	}
	var b strings.Builder
	for r := top; r < y; r++ {
		row, _ := s.renderRow(r)
		b.WriteString(row)
	}
	return b.String()
}

// statusAt is the Status with the cursor at cur (wrap: with a wrap pending) on a
// row that reads text.
func (s *Screen) statusAt(cur Point, wrap bool, text string) Status {
	mode := s.vt.Mode()
	return Status{
		Cursor:      cur,
		PendingWrap: wrap,
		CursorRow:   s.lineBase + int64(cur.Row),
		Line:        trimRight(text),
		AltScreen:   mode&vt10x.ModeAltScreen != 0,
		AppCursor:   mode&vt10x.ModeAppCursor != 0,
		Written:     s.written,
		Clears:      s.clears,
		Erases:      s.erases,
		EraseTop:    s.eraseTop,
		MarkSeq:     s.markSeq,
		AltExit:     s.altExit,
		AltExitLeft: s.altExitLeft,
		Cols:        s.cols,
		Rows:        s.rows,
	}
}

// MarksSince returns the OSC 133 marks with Seq > seq, oldest first. Only the newest
// maxMarks are kept.
func (s *Screen) MarksSince(seq uint64) []Mark {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := len(s.marks)
	for i > 0 && s.marks[i-1].Seq > seq {
		i--
	}
	if i == len(s.marks) {
		return nil
	}
	return append([]Mark(nil), s.marks[i:]...)
}

// redrawnPrompt reports whether a mark belongs to a prompt redrawn, not drawn anew.
// An end mark (D) whose n= option repeats the last one's starts a redraw (the shell
// integration puts the time its prompt was expanded there; a line editor that
// redraws the prompt repeats it as it was), and its A and B belong to it.
func (s *Screen) redrawnPrompt(kind byte, arg string) bool {
	switch kind {
	case 'D':
		n := nonce(arg)
		s.redrawing = n != "" && n == s.promptN
		if n != "" {
			s.promptN = n
		}
		return s.redrawing
	case 'A':
		return s.redrawing
	case 'B':
		redraw := s.redrawing
		s.redrawing = false
		return redraw
	}
	s.redrawing = false
	return false
}

func (s *Screen) addMark(kind byte, arg string) {
	if s.redrawnPrompt(kind, arg) {
		// The same prompt again: it ends no command, and its marks say nothing new,
		// but the command line now starts where it was redrawn (below a completion
		// listing, at the top after Ctrl+L).
		if n := len(s.marks); kind == 'B' && n > 0 && s.marks[n-1].Kind == 'B' {
			cur := s.vt.Cursor()
			s.marks[n-1].Pos = Pos{Line: s.lineBase + int64(cur.Y), Col: cur.X}
			s.marks[n-1].Erases = s.erases
		}
		return
	}
	cur := s.vt.Cursor()
	s.markSeq++
	if len(s.marks) >= maxMarks {
		// Drop the oldest half at once so adding stays amortised O(1).
		s.marks = append(s.marks[:0], s.marks[maxMarks/2:]...)
	}
	m := Mark{
		Kind:   kind,
		Arg:    arg,
		Pos:    Pos{Line: s.lineBase + int64(cur.Y), Col: cur.X},
		Seq:    s.markSeq,
		Erases: s.erases,
	}
	if kind == 'C' {
		m.Above = s.commandRows(m.Pos.Line)
	}
	s.marks = append(s.marks, m)
}

// commandRows returns the rows above line back to the last B mark's (the command
// line the shell echoed), right-trimmed; only the row above when there is no B
// mark on the screen above line.
func (s *Screen) commandRows(line int64) []string {
	from := line - 1
	if n := len(s.marks); n > 0 {
		if b := s.marks[n-1]; b.Kind == 'B' && b.Erases == s.erases && b.Pos.Line < line && line-b.Pos.Line <= int64(s.rows) {
			from = b.Pos.Line
		}
	}
	from = max(from, s.lineBase)
	if from >= line {
		return nil
	}
	rows := make([]string, 0, line-from)
	for l := from; l < line; l++ {
		row, _ := s.renderRow(int(l - s.lineBase))
		rows = append(rows, trimRight(row))
	}
	return rows
}

// Overdrawn returns where output drawn over a command's line begins: the first
// row of c.Above (c is a C mark) where the screen shows something new, at the
// first column that changed; c.Pos when every row is as it was (or only erased),
// or has left the scrollback.
func (s *Screen) Overdrawn(c Mark) Pos {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	oldest := s.lineBase - int64(s.hist.len())
	first := c.Pos.Line - int64(len(c.Above))
	for i, was := range c.Above {
		line := first + int64(i)
		if line < oldest {
			continue
		}
		if line >= s.lineBase+int64(s.rows) {
			break // the screen shrank since
		}
		row, _ := s.lineAt(line, oldest)
		if now := trimRight(row); now != was {
			col := sameCols(was, now)
			if strings.TrimSpace(cutCols(now, col)) == "" {
				continue // only erased: nothing was drawn there to show
			}
			return Pos{Line: line, Col: col}
		}
	}
	return c.Pos
}

// sameCols is how many cells a (a row as it was, right-trimmed) and b (as it is)
// share from their start; blank cells past a's end were blank before too.
func sameCols(a, b string) int {
	cols := 0
	for i, r := range a {
		if i >= len(b) {
			return cols
		}
		if q, _ := utf8.DecodeRuneInString(b[i:]); q != r {
			return cols
		}
		cols += runeWidth(r)
	}
	return cols + len(b[len(a):]) - len(strings.TrimLeft(b[len(a):], " "))
}

func (s *Screen) altScreen() bool {
	return s.vt.Mode()&vt10x.ModeAltScreen != 0
}

// send hands vt10x one complete sequence (or control byte). Pending printable text goes
// first so the order of the stream is kept.
func (s *Screen) send(seq []byte) {
	s.flushPrint()
	_, _ = s.vt.Write(seq)
}

func (s *Screen) sendf(format string, args ...any) {
	s.seq = fmt.Appendf(s.seq[:0], format, args...)
	s.send(s.seq)
}
