package screen

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// renderRow returns row y as text, one string per cell run (wide runes once, placeholders
// dropped), with trailing blanks kept, and whether the row soft-wraps onto the next. The
// row's glyphs stay in s.rowGlyphs for rowRuns.
func (s *Screen) renderRow(y int) (string, bool) {
	if cap(s.rowCells) < s.cols {
		s.rowCells, s.rowGlyphs = make([]rune, s.cols), make([]vt10x.Glyph, s.cols)
	}
	row, glyphs := s.rowCells[:s.cols], s.rowGlyphs[:s.cols]
	for x := range row {
		glyphs[x] = s.vt.Cell(x, y)
		row[x] = glyphs[x].Char
	}
	s.rowText = s.appendCells(s.rowText[:0], row, s.cols)
	return string(s.rowText), glyphs[s.cols-1].Mode&vtAttrWrap != 0
}

// rowRuns returns the attributes of the row renderRow read last, encoded (runs.go) in
// scratch space; nothing if they are all the zero Attr, which most rows are, found
// without reading one.
func (s *Screen) rowRuns() []byte {
	glyphs := s.rowGlyphs[:s.cols]
	plain := true
	for _, g := range glyphs {
		if g.Mode&^(vtAttrWrap|vtAttrGfx) != 0 || g.FG != vt10x.DefaultFG || g.BG != vt10x.DefaultBG {
			plain = false
			break
		}
	}
	if plain {
		return nil
	}
	attrs := s.rowAttrs[:0]
	for _, g := range glyphs {
		attrs = append(attrs, cellAttr(g))
	}
	s.rowAttrs = attrs
	s.rowRunBytes = appendRuns(s.rowRunBytes[:0], attrs)
	return s.rowRunBytes
}

// appendCells renders the first hi cells of a row. The flow renders the rows it sends to
// the scrollback with it too, so they read exactly as rows captured from vt10x. A wide
// rune whose second half was overwritten, or a second half without its first, shows as a
// blank so that every cell still takes exactly its width.
func (s *Screen) appendCells(b []byte, row []rune, hi int) []byte {
	cols := len(row)
	for x := 0; x < hi; x++ {
		r := row[x]
		switch {
		case r >= 0x20 && r < 0x7f:
			b = append(b, byte(r))
		case r == placeholder:
			b = append(b, ' ')
		case r == filler:
			if x != cols-1 {
				b = append(b, ' ')
			}
		case s.cellWidth(r) == 2:
			if x+1 >= cols || row[x+1] != placeholder {
				b = append(b, ' ')
				continue
			}
			b = s.appendCellText(b, r)
			x++
		default:
			b = s.appendCellText(b, r)
		}
	}
	return b
}

// textWidth is the cells s takes.
func textWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

func trimRight(s string) string {
	return strings.TrimRight(s, " ")
}

// cutCols drops the first col cells of a rendered row. If col falls on the second cell of
// a wide rune, the result starts at that rune.
func cutCols(text string, col int) string {
	cell := 0
	for i, r := range text {
		if cell >= col {
			return text[i:]
		}
		w := runeWidth(r)
		if w > 0 && cell+w > col {
			return text[i:]
		}
		cell += w
	}
	return ""
}

// joiner builds text from rows: soft-wrapped rows join into one line, each line is
// right-trimmed, lines are separated by "\n".
type joiner struct {
	b     strings.Builder
	line  []byte // the rows of a line that wraps onto a row not added yet
	open  bool
	lines int
}

func (j *joiner) add(text string, wrapped bool) {
	if !j.open && !wrapped { // most lines are one row: no need to gather them first
		j.sep()
		j.b.WriteString(trimRight(text))
		return
	}
	j.line = append(j.line, text...)
	j.open = wrapped
	if !wrapped {
		j.endLine()
	}
}

func (j *joiner) sep() {
	if j.lines > 0 {
		j.b.WriteByte('\n')
	}
	j.lines++
}

func (j *joiner) endLine() {
	j.sep()
	j.b.Write(bytes.TrimRight(j.line, " "))
	j.line = j.line[:0]
}

func (j *joiner) String() string {
	if j.open {
		j.open = false
		j.endLine()
	}
	return j.b.String()
}

// TextSince returns the text from `from` up to and including the cursor's line:
// soft-wrapped rows joined into one line, each line right-trimmed, lines joined with "\n",
// no trailing newline. The first line starts at from.Col (on a wide rune's second cell, at
// that rune). If from is older than the oldest retained scrollback line, the text starts
// there and lost is true. If from is beyond the cursor, the text is "".
//
// On the alternate screen, lines at or after the current base refer to the alternate
// screen's rows; older lines still come from the main screen's scrollback.
func (s *Screen) TextSince(from Pos) (text string, lost bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	cursorLine := s.lineBase + int64(s.vt.Cursor().Y)
	if from.Line > cursorLine {
		return "", false
	}
	oldest := s.lineBase - int64(s.hist.len())
	if from.Line < oldest {
		from, lost = Pos{Line: oldest}, true
	}
	var j joiner
	if n := s.lineBase - from.Line; n > 0 { // room for the scrollback's part, at most a line too much
		size := 0
		for i := int(from.Line - oldest); i < s.hist.len(); i++ {
			size += len(s.hist.at(i).text()) + 1
		}
		j.b.Grow(size + s.rows*(s.cols+1))
	}
	prompts := s.promptRows(from.Line)
	row, wrapped := s.lineAt(from.Line, oldest)
	for line := from.Line; line <= cursorLine; line++ {
		soft := wrapped && line < cursorLine
		var next string
		var nextWrapped bool
		if line < cursorLine {
			next, nextWrapped = s.lineAt(line+1, oldest)
		}
		if soft && strings.HasSuffix(row, " ") {
			// A wide character that did not fit in the last column went to the next
			// row, leaving that column blank: no character of the line (python's
			// readline echo was not found with it).
			if r, _ := utf8.DecodeRuneInString(next); runeWidth(r) == 2 && textWidth(row) == s.cols {
				row = row[:len(row)-1]
			}
		}
		if line == from.Line && from.Col > 0 {
			row = cutCols(row, from.Col)
		}
		if soft && prompts[line+1] {
			// zsh's PROMPT_SP after output without a final newline: its end-of-line
			// mark (%, # for root) and blanks past the margin, so that the prompt
			// starts a row of its own. The rows are two lines, the mark no output.
			soft, row = false, trimRight(row)
			if strings.HasSuffix(row, "%") || strings.HasSuffix(row, "#") {
				row = row[:len(row)-1]
			}
		}
		j.add(row, soft)
		row, wrapped = next, nextWrapped
	}
	return j.String(), lost
}

// promptStarts reports whether a prompt starts at the first column of line (an
// A mark there).
func (s *Screen) promptStarts(line int64) bool {
	for i := len(s.marks) - 1; i >= 0 && s.marks[i].Pos.Line >= line; i-- {
		if m := s.marks[i]; m.Kind == 'A' && m.Pos == (Pos{Line: line}) {
			return true
		}
	}
	return false
}

// promptRows returns the lines from line on where a prompt starts at the first
// column (an A mark there).
func (s *Screen) promptRows(line int64) map[int64]bool {
	var rows map[int64]bool
	for i := len(s.marks) - 1; i >= 0 && s.marks[i].Pos.Line >= line; i-- {
		if m := s.marks[i]; m.Kind == 'A' && m.Pos.Col == 0 {
			if rows == nil {
				rows = map[int64]bool{}
			}
			rows[m.Pos.Line] = true
		}
	}
	return rows
}

// LeftOf returns the row of p, an absolute line, up to column p.Col, right-trimmed:
// what a key typed at p sits after ("" once the line left the scrollback, or for
// a line not drawn yet).
func (s *Screen) LeftOf(p Pos) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	oldest := s.lineBase - int64(s.hist.len())
	if p.Line < oldest || p.Line >= s.lineBase+int64(s.rows) {
		return ""
	}
	row, _ := s.lineAt(p.Line, oldest)
	return leftOf(row, p.Col)
}

// LineEnd returns where the line holding p ends: just after its last character,
// on the last row it wraps onto. Enter pressed with the cursor inside a command
// line ends the whole line, and what follows starts there.
func (s *Screen) LineEnd(p Pos) Pos {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	oldest := s.lineBase - int64(s.hist.len())
	last := s.lineBase + int64(s.rows) - 1
	if p.Line < oldest || p.Line > last {
		return p
	}
	start := p.Line
	row, wrapped := s.lineAt(p.Line, oldest)
	for wrapped && p.Line < last {
		p.Line++
		row, wrapped = s.lineAt(p.Line, oldest)
	}
	width := textWidth(trimRight(row))
	if p.Line > start || p.Col < width {
		p.Col = width
	}
	return p
}

// BelowCursor returns the rows below the cursor's down to the last one that shows
// something, soft wraps joined, "" when they are all blank: what a line editor
// draws under its command line and returns from (zsh's and fish's completion
// lists, a menu of candidates).
func (s *Screen) BelowCursor() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	y := s.vt.Cursor().Y
	last := -1
	for r := s.rows - 1; r > y; r-- {
		if row, _ := s.renderRow(r); trimRight(row) != "" {
			last = r
			break
		}
	}
	if last < 0 {
		return ""
	}
	var j joiner
	for r := y + 1; r <= last; r++ {
		row, wrapped := s.renderRow(r)
		j.add(row, wrapped && r < last)
	}
	return j.String()
}

// leftOf is row left of column col, trailing blanks trimmed.
func leftOf(row string, col int) string {
	return strings.TrimRight(strings.TrimSuffix(row, cutCols(row, col)), " ")
}

// lineAt returns an absolute line from the scrollback or the screen.
func (s *Screen) lineAt(line, oldest int64) (string, bool) {
	if line < s.lineBase {
		h := s.hist.at(int(line - oldest))
		return h.text(), h.wrapped
	}
	return s.renderRow(int(line - s.lineBase))
}

// AllText returns the retained scrollback followed by every visible row, trailing blank
// rows dropped, soft-wrapped rows joined.
func (s *Screen) AllText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	var j joiner
	for i := range s.hist.len() {
		h := s.hist.at(i)
		j.add(h.text(), h.wrapped)
	}
	rows := make([]string, s.rows)
	wraps := make([]bool, s.rows)
	last := -1
	for y := range s.rows {
		rows[y], wraps[y] = s.renderRow(y)
		if trimRight(rows[y]) != "" {
			last = y
		}
	}
	for y := 0; y <= last; y++ {
		j.add(rows[y], wraps[y] && y < last)
	}
	return j.String()
}
