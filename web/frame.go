package web

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/screen"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// frame is one update of a session page, sent as JSON: the visible rows in full, and
// the scrollback rows the page has not had yet.
type frame struct {
	Cols    int     `json:"cols"`
	Rows    [][]run `json:"rows"`             // visible rows, top to bottom
	Append  [][]run `json:"append,omitempty"` // rows that scrolled off since the last frame
	Cursor  [3]int  `json:"cursor"`           // row, col, visible (1) or not (0)
	Title   string  `json:"title"`
	Alive   bool    `json:"alive"`
	Holder  string  `json:"holder"`  // who holds the keyboard; "" when the agent has it
	Control bool    `json:"control"` // this viewer may take the keyboard
	Gone    bool    `json:"gone,omitempty"`
}

// run is a stretch of one row's cells drawn alike: [text, fg, bg, style], the
// colours as CSS ("" for the page's default), style the letters b i u k (blink) c
// (the cursor is on it).
type run [4]string

// scrollbackCap bounds the scrollback a page is sent at once, with its first
// frame; floodCap the rows a later frame appends. A page that falls behind a
// flood of output gets its newest rows and a line saying how many it skipped,
// not every row: replaying them all, it fell tens of seconds behind, and twenty
// watchers slowed the session itself (probe 11).
const (
	scrollbackCap = 10000
	floodCap      = 500
)

// viewer is one page's state: which scrollback rows it has.
type viewer struct {
	sess    *session.Session
	secrets func(string) []Secret // nil: no redaction
	control bool
	sent    int64 // absolute line of the first row not yet sent as scrollback
	started bool
}

// secretContext is how many rows above those a frame sends are read with them for
// secrets, so that a private key whose first line went in an earlier frame (or
// scrolled off the screen) is still known for one in the rows that follow.
const secretContext = 64

// next builds the frame the page needs now.
func (v *viewer) next() frame {
	extra := 0
	if v.secrets != nil {
		extra = secretContext
	}
	g := v.sess.Grid(extra)
	limit := scrollbackCap
	if v.started {
		limit = floodCap
	}
	skipped := int64(0)
	if n := g.First + int64(g.Scrollback) - v.sent; !v.started || n > 0 {
		want := limit
		if v.started {
			want = int(min(n, int64(limit)))
			skipped = n - int64(want)
		}
		g = v.sess.Grid(want + extra)
	}
	v.started = true
	// Rows before from are context: sent already, or beyond the cap.
	from := max(g.Scrollback-limit, int(min(max(v.sent-g.First, 0), int64(g.Scrollback))))
	texts := v.redactedTexts(g.Rows)
	draw := func(i, cursor int) []run {
		if texts != nil && texts[i] != nil {
			return []run{{*texts[i], "", "", ""}}
		}
		return runs(g.Rows[i], cursor)
	}
	f := frame{Cols: g.Cols, Title: v.sess.Title(), Alive: v.sess.Alive(), Holder: v.sess.Holder(), Control: v.control}
	if skipped > 0 {
		f.Append = append(f.Append, []run{{fmt.Sprintf("[… %d lines of output not shown here: the view fell behind …]", skipped), "", "", "i"}})
	}
	for i := from; i < g.Scrollback; i++ {
		f.Append = append(f.Append, draw(i, -1))
	}
	v.sent = g.First + int64(g.Scrollback)
	for y := range g.Rows[g.Scrollback:] {
		col := -1
		if y == g.Cursor.Row && g.CursorVisible {
			col = g.Cursor.Col
		}
		f.Rows = append(f.Rows, draw(g.Scrollback+y, col))
	}
	f.Cursor = [3]int{g.Cursor.Row, g.Cursor.Col, 0}
	if g.CursorVisible {
		f.Cursor[2] = 1
	}
	return f
}

// redactedTexts looks for secrets in rows read as the text they show (a row that
// soft-wraps runs on into the next), so that a token wrapped over two rows or a key
// over many is found as a whole. It returns, for each row holding part of a secret,
// the row's text with that part replaced by "[REDACTED:<kind>]" (drawn plain), and
// nil for the others; nil when nothing is redacted.
func (v *viewer) redactedTexts(rows []screen.Row) []*string {
	if v.secrets == nil || len(rows) == 0 {
		return nil
	}
	var text strings.Builder
	starts := make([]int, len(rows)+1)
	for i, row := range rows {
		starts[i] = text.Len()
		for _, c := range row.Cells {
			text.WriteString(c.Text)
		}
		if !row.Wrapped {
			text.WriteByte('\n')
		}
	}
	starts[len(rows)] = text.Len()
	all := text.String()
	spans := ordered(v.secrets(all))
	if len(spans) == 0 {
		return nil
	}
	out := make([]*string, len(rows))
	k := 0
	for i := range rows {
		lo, hi := starts[i], starts[i+1]
		for k < len(spans) && spans[k].End <= lo {
			k++
		}
		if k == len(spans) {
			break
		}
		var b strings.Builder
		last := lo
		for j := k; j < len(spans) && spans[j].Start < hi; j++ {
			b.WriteString(all[last:max(last, spans[j].Start)])
			b.WriteString(fmt.Sprintf("[REDACTED:%s]", spans[j].Kind))
			last = min(hi, spans[j].End)
		}
		if last == lo && b.Len() == 0 {
			continue // the next secret starts after this row
		}
		b.WriteString(all[last:hi])
		row := strings.TrimSuffix(b.String(), "\n")
		out[i] = &row
	}
	return out
}

// ordered sorts spans by where they start and merges those that overlap (a
// token the patterns found inside a secret typed at a prompt), as redactedTexts
// walks them.
func ordered(spans []Secret) []Secret {
	slices.SortFunc(spans, func(a, b Secret) int { return a.Start - b.Start })
	out := spans[:0]
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, sp.End)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// runs groups a row's cells by how they are drawn; cursor, when not negative, is
// the cursor's column, drawn as a run of its own (blanks added up to it).
func runs(row screen.Row, cursor int) []run {
	cells := row.Cells
	for len(cells) <= cursor {
		cells = append(cells, screen.Cell{Text: " ", Width: 1})
	}
	var out []run
	var text []byte
	var cur run
	flush := func() {
		if len(text) > 0 {
			r := cur
			r[0] = string(text)
			out = append(out, r)
			text = text[:0]
		}
	}
	for x, c := range cells {
		r := look(c.Attr, x == cursor)
		if r != cur || x == cursor {
			flush()
			cur = r
		}
		text = append(text, c.Text...)
		if x == cursor {
			flush()
			cur = run{}
		}
	}
	flush()
	return out
}

// look is how cells with attribute a are drawn, with an empty text.
func look(a screen.Attr, cursor bool) run {
	fg, bg := css(a.FG), css(a.BG)
	if a.Style&screen.Reverse != 0 {
		fg, bg = bg, fg
		if fg == "" {
			fg = "bg" // the page's background colour, named so it stays swapped
		}
		if bg == "" {
			bg = "fg"
		}
	}
	style := ""
	for _, s := range []struct {
		bit    screen.Style
		letter string
	}{{screen.Bold, "b"}, {screen.Italic, "i"}, {screen.Underline, "u"}, {screen.Blink, "k"}} {
		if a.Style&s.bit != 0 {
			style += s.letter
		}
	}
	if cursor {
		style += "c"
	}
	return run{"", fg, bg, style}
}

// css is a colour as CSS, "" for the default.
func css(c screen.Color) string {
	if r, g, b, ok := c.RGB(); ok {
		return fmt.Sprintf("#%02x%02x%02x", r, g, b)
	}
	n, ok := c.Index()
	if !ok {
		return ""
	}
	r, g, b := xterm(n)
	return fmt.Sprintf("#%02x%02x%02x", r, g, b)
}

// ansi16 are the 16 ANSI colours as xterm draws them.
var ansi16 = [16][3]uint8{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

// xterm is colour n of xterm's 256-colour palette.
func xterm(n uint8) (r, g, b uint8) {
	switch {
	case n < 16:
		c := ansi16[n]
		return c[0], c[1], c[2]
	case n < 232:
		n -= 16
		level := func(v uint8) uint8 {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return level(n / 36), level(n / 6 % 6), level(n % 6)
	default:
		v := 8 + 10*(n-232)
		return v, v, v
	}
}
