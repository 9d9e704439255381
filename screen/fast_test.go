package screen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The fast path (flow + bulk step) must be invisible: a screen fed through it must end up
// exactly like one fed the slow way, byte by byte through vt10x — not only in what the API
// shows but in vt10x's cells and cursor, so that nothing can surface later.

// twin feeds the same output and resizes to a screen using the fast path and to one that
// never does.
type twin struct {
	t          *testing.T
	fast, slow *Screen
	fed        strings.Builder // for failure messages
}

func newTwin(t *testing.T, opts Options) *twin {
	w := &twin{t: t, fast: New(opts), slow: New(opts)}
	w.slow.slowOnly = true
	return w
}

func (w *twin) write(p []byte) {
	if w.fed.Len() < 1<<20 {
		fmt.Fprintf(&w.fed, "write %q\n", p)
	}
	w.fast.Write(p)
	w.slow.Write(p)
}

// feed writes in to both screens in chunks of random length, checking the
// Status now and then between them.
func (w *twin) feed(rng *rand.Rand, in []byte) {
	w.t.Helper()
	for len(in) > 0 {
		n := min(len(in), chunkLen(rng))
		w.write(in[:n])
		in = in[n:]
		if rng.IntN(10) == 0 {
			w.status()
		}
	}
}

func (w *twin) resize(cols, rows int) {
	fmt.Fprintf(&w.fed, "resize %d %d\n", cols, rows)
	w.fast.Resize(cols, rows)
	w.slow.Resize(cols, rows)
}

// status checks the Status alone, which leaves output kept back where it is, and
// reports whether there was any.
func (w *twin) status() bool {
	w.t.Helper()
	kept := w.fast.setup.due
	if diff := cmp.Diff(w.slow.Status(), w.fast.Status()); diff != "" {
		w.t.Fatalf("Status differs (-slow +fast):\n%s\nafter:\n%s", diff, w.fed.String())
	}
	if kept && !w.fast.setup.due {
		w.t.Fatalf("Status handed vt10x the output kept back")
	}
	return kept
}

// compare checks everything the API shows and vt10x's state; from picks extra TextSince
// starting points.
func (w *twin) compare(rng *rand.Rand) {
	w.t.Helper()
	check := func(what string, fast, slow any) {
		w.t.Helper()
		if diff := cmp.Diff(slow, fast, cmp.AllowUnexported(histLine{}, lastPrint{})); diff != "" {
			w.t.Fatalf("%s differs (-slow +fast):\n%s\nafter:\n%s", what, diff, w.fed.String())
		}
	}
	// Status first: it is the one look that leaves output kept back where it is.
	check("Status", w.fast.Status(), w.slow.Status())
	check("Snapshot", w.fast.Snapshot(), w.slow.Snapshot())
	// Every cell with its attributes; the whole scrollback, attributes included, is in state.
	check("Grid", w.fast.Grid(64), w.slow.Grid(64))
	check("state", w.fast.state(), w.slow.state())
	check("Status", w.fast.Status(), w.slow.Status())
	check("Cursor", w.fast.Cursor(), w.slow.Cursor())
	check("AllText", w.fast.AllText(), w.slow.AllText())
	check("replies", w.fast.TakeReplies(), w.slow.TakeReplies())
	cur := w.slow.Cursor()
	froms := []Pos{{}, cur, {Line: cur.Line - 1, Col: 3}}
	for range 3 {
		froms = append(froms, Pos{Line: cur.Line - rng.Int64N(40), Col: rng.IntN(30)})
	}
	for _, from := range froms {
		type since struct {
			Text string
			Lost bool
		}
		var f, s since
		f.Text, f.Lost = w.fast.TextSince(from)
		s.Text, s.Lost = w.slow.TextSince(from)
		check(fmt.Sprintf("TextSince(%+v)", from), f, s)
	}
	seq := w.slow.Snapshot().MarkSeq
	for _, from := range []uint64{0, seq / 2, seq} {
		check(fmt.Sprintf("MarksSince(%d)", from), w.fast.MarksSince(from), w.slow.MarksSince(from))
	}
}

// vtState is what the screen and vt10x hold beyond the API: every cell in full (colours
// included), the cursor with its attributes, the history and the internals that steer
// later output.
type vtState struct {
	Cells      []string
	Cursor     string
	LineBase   int64
	Hist       []histLine
	Clusters   []string
	Last       lastPrint
	TabsCustom bool
	Top, Bot   int
}

func (s *Screen) state() vtState {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushPend()
	st := vtState{
		Cursor:     fmt.Sprintf("%+v", s.vt.Cursor()),
		LineBase:   s.lineBase,
		Clusters:   append([]string(nil), s.glyph.text...),
		Last:       s.print.last,
		TabsCustom: s.tabsCustom,
		Top:        s.top,
		Bot:        s.bottom,
	}
	if !st.Last.valid {
		st.Last = lastPrint{} // the rune is only read while valid (REP, marks)
	}
	for y := range s.rows {
		var b strings.Builder
		for x := range s.cols {
			fmt.Fprintf(&b, "%v ", s.vt.Cell(x, y))
		}
		st.Cells = append(st.Cells, b.String())
	}
	for i := range s.hist.len() {
		st.Hist = append(st.Hist, s.hist.at(i))
	}
	return st
}

// TestDifferential runs thousands of random programs' output through both screens, split
// at random points, with resizes and looks at the screen in between.
func TestDifferential(t *testing.T) {
	cases := 3000
	if testing.Short() {
		cases = 300
	}
	var bulks, styled, deferred, cuts, looked, flowsOn uint64
	defer func() {
		// The fast path must actually have run, often, sent rows with attributes to the
		// scrollback, kept output back across writes and answered Status from the flow.
		if bulks < uint64(cases) || styled < uint64(cases) || deferred < uint64(cases)/4 || looked < uint64(cases)/4 || flowsOn < uint64(cases)/4 {
			t.Errorf("%d cases: %d bulk steps, %d rows with attributes, %d writes left output pending, %d Status looks at it, %d writes went on with it",
				cases, bulks, styled, deferred, looked, flowsOn)
		}
		t.Logf("%d cases: %d bulk steps, %d rows with attributes, %d writes left output pending, %d Status looks at it, %d writes went on with it, %d chunks",
			cases, bulks, styled, deferred, looked, flowsOn, cuts)
	}()
	for seed := range uint64(cases) {
		rng := rand.New(rand.NewPCG(seed, 0x5c2ee7))
		opts := Options{Cols: 1 + rng.IntN(24), Rows: 1 + rng.IntN(9)}
		opts.Scrollback = []int{-1, 0, 1, 5, 40}[rng.IntN(5)]
		w := newTwin(t, opts)
		if seed%2 == 0 {
			w.fast.retry = 0 // try the flow after every token, to start it in every state
		}
		in := genOutput(rng, opts.Cols, opts.Rows)
		for len(in) > 0 {
			n := min(len(in), chunkLen(rng))
			w.write(in[:n])
			in = in[n:]
			cuts++
			if len(w.fast.pend) > 0 {
				deferred++
			}
			switch r := rng.IntN(20); {
			case r == 0:
				w.resize(1+rng.IntN(24), 1+rng.IntN(9))
			case r < 4:
				w.compare(rng)
			case r < 12: // the detector looks while output streams
				if w.status() {
					looked++
				}
			}
		}
		w.compare(rng)
		bulks += w.fast.bulks
		styled += w.fast.bulkStyled
		flowsOn += w.fast.flowsOn
	}
}

// TestDifferentialLarge feeds floods at the default size in writes of up to 100 KiB, larger
// than the pieces Write lays out at once, and the benchmarks' inputs in PTY-sized reads.
func TestDifferentialLarge(t *testing.T) {
	inputs := [][]byte{seqInput()[:300<<10], colourInput()[:300<<10], logInput()[:300<<10], paintedInput()[:300<<10]}
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 0x1a76e))
		var b []byte
		for len(b) < 200<<10 {
			b = append(b, genFlood(rng, 120, 40)...)
			b = append(b, genPiece(rng, 120, 40)...)
		}
		inputs = append(inputs, b)
	}
	for i, in := range inputs {
		rng := rand.New(rand.NewPCG(uint64(i), 0x1a76e))
		w := newTwin(t, Options{})
		for len(in) > 0 {
			n := min(len(in), 1+rng.IntN(100<<10))
			if i < 4 { // the read loop's pieces: up to 32 KiB, 4 KiB in a flood, less from a fast reader
				n = min(len(in), []int{benchChunk, ptyChunk, 1 + rng.IntN(ptyChunk)}[rng.IntN(3)])
			}
			w.write(in[:n])
			in = in[n:]
			switch rng.IntN(8) {
			case 0:
				w.compare(rng)
			case 1, 2:
				w.status()
			}
		}
		w.compare(rng)
	}
}

// chunkLen mixes single bytes (which split every token) with PTY-sized reads.
func chunkLen(rng *rand.Rand) int {
	switch rng.IntN(4) {
	case 0:
		return 1 + rng.IntN(4)
	case 1:
		return 1 + rng.IntN(64)
	}
	return 1 + rng.IntN(4096)
}

// genOutput builds a program's output from pieces, floods of lines included so that the
// bulk step runs often.
func genOutput(rng *rand.Rand, cols, rows int) []byte {
	var b []byte
	for range 1 + rng.IntN(60) {
		b = append(b, genPiece(rng, cols, rows)...)
	}
	return b
}

var (
	words     = []string{"a", "ok", "line", "hello", "0123456789", "src/pkg/file.go:12:", "  ", "x y z"}
	wideRunes = []string{"你", "好", "世界", "😀", "👨\u200d👩", "한"}
	marks     = []string{"\u0301", "\u0302", "\u200d", "\ufe0f", "\u00ad"}
	oddRunes  = []string{"\u0085", "\U00100000", "\U0010fffd", "\ufffd", "é", "\u00a0", "\x80", "\xe4\xbd", "\xff", "\xed\xa0\x80", "\xc0\xaf"}
	sgrs      = []string{"\x1b[m", "\x1b[0m", "\x1b[1;31m", "\x1b[32m", "\x1b[38;5;208m", "\x1b[48;2;1;2;3m",
		"\x1b[38:2::10:20:30m", "\x1b[4:3m", "\x1b[58;2;1;2;3m", "\x1b[7;5;3;4m", "\x1b[22;23;24;25;27m",
		"\x1b[39;49m", "\x1b[38;5m", "\x1b[38;2;300;1;1m", "\x1b[;1m", "\x1b[" + strings.Repeat("1;", 40) + "m",
		"\x1b[95;105m", "\x1b[1:2m", "\x1b[38;5;1;1m", "\x1b[" + strings.Repeat("1;", 32) + "m",
		"\x1b[" + strings.Repeat("1;", 32) + "1m", "\x1b[" + strings.Repeat("0;", 31) + "1m",
		"\x1b[1;7;31;42m", "\x1b[7;44m", "\x1b[1;3;4;5m", "\x1b[1;33m", "\x1b[38;2;0;0;5;48;2;0;0;0m",
		"\x1b[38;5;3;1m", "\x1b[48;2;10;200;30;7m"}
	rowOps = []string{"\x1b[K", "\x1b[1K", "\x1b[2K", "\x1b[0K", "\x1b[3K", "\x1b[X", "\x1b[3X", "\x1b[C", "\x1b[4C",
		"\x1b[D", "\x1b[9D", "\x1b[G", "\x1b[5G", "\x1b[99`", "\x1b[2a", "\x1b[0G", "\x1b[1;2K"}
	other = []string{"\x1b[H", "\x1b[2;3H", "\x1b[A", "\x1b[2B", "\x1b[J", "\x1b[2J", "\x1b[3J", "\x1b[1J",
		"\x1b[2@", "\x1b[P", "\x1b[L", "\x1b[M", "\x1b[S", "\x1b[2T", "\x1bD", "\x1bE", "\x1bM", "\x1b7", "\x1b8",
		"\x1b[s", "\x1b[u", "\x1b[?1049h", "\x1b[?1049l", "\x1b[?47h", "\x1b[?47l", "\x1b[?1047h", "\x1b[?1047l",
		"\x1b[2;4r", "\x1b[r", "\x1b[?6h", "\x1b[?6l", "\x1b[?7l", "\x1b[?7h", "\x1b[4h", "\x1b[4l",
		"\x1b[20h", "\x1b[20l", "\x1b(0", "\x1b(B", "\x1bH", "\x1b[g", "\x1b[3g", "\x1b]0;title\x07",
		"\x1b]2;t\x1b\\", "\x1b]133;A\x07", "\x1b]133;B\x1b\\", "\x1b]133;C\x07", "\x1b]133;D;0\x07",
		"\x1bP+q544e\x1b\\", "\x1b[6n", "\x1b[5n", "\x1b[c", "\x1b[2b", "\x1b[?25l", "\x1b[?25h", "\x1b[?1h",
		"\x1b[?2004h", "\x1b#8", "\x1b[>4;1m", "\x1b[?u", "\x1b[1 q", "\x1b[?2026$p", "\x1bc", "\x1b[18t",
		"\x1b", "\x1b[", "\x1b[3", "\x1b[?"}
	controls = []string{"\r", "\n", "\r\n", "\t", "\b", "\a", "\x00", "\x7f", "\x0e", "\x0f", "\v", "\f", "\x18", "\x1a"}
)

func pick(rng *rand.Rand, from []string) string { return from[rng.IntN(len(from))] }

func genPiece(rng *rand.Rand, cols, rows int) string {
	switch r := rng.IntN(100); {
	case r < 25:
		return genFlood(rng, cols, rows)
	case r < 38:
		return pick(rng, words)
	case r < 47:
		return pick(rng, controls)
	case r < 53:
		return pick(rng, sgrs)
	case r < 56:
		return genSGR(rng)
	case r < 61:
		return pick(rng, wideRunes)
	case r < 65:
		return pick(rng, marks)
	case r < 68:
		return pick(rng, oddRunes)
	case r < 71:
		return genRune(rng)
	case r < 77:
		return pick(rng, rowOps)
	case r < 89:
		return pick(rng, other)
	case r < 92:
		// Back up into rows already written (wrapped ones too) and go on from there.
		return fmt.Sprintf("\x1b[%dA%s", 1+rng.IntN(rows), pick(rng, append(rowOps, words...)))
	case r < 96:
		return strings.Repeat(pick(rng, words), 1+rng.IntN(3*cols)) // a line that wraps
	}
	return strings.Repeat("\r\n", 1+rng.IntN(3*rows))
}

// genSGR is an SGR with random parameters, extended colours and separators included.
func genSGR(rng *rand.Rand) string {
	vals := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "22", "23", "24", "25", "26",
		"27", "28", "30", "37", "38", "39", "40", "47", "48", "49", "5", "2", "90", "97", "100", "107",
		"255", "256", "", "58", "99999"}
	var b strings.Builder
	b.WriteString("\x1b[")
	for i := range rng.IntN(9) {
		if i > 0 {
			b.WriteString(pick(rng, []string{";", ";", ";", ":"}))
		}
		b.WriteString(pick(rng, vals))
	}
	b.WriteString("m")
	return b.String()
}

// genRune is one code point from the ranges where widths and handling differ.
func genRune(rng *rand.Rand) string {
	ranges := [][2]rune{{0x80, 0x100}, {0x300, 0x370}, {0x1100, 0x1200}, {0x2e80, 0x3100},
		{0x4e00, 0x4e40}, {0xfe00, 0xfe10}, {0xff00, 0xff70}, {0x1f300, 0x1f700}, {0x200b, 0x2010},
		{0xe000, 0xe010}, {0x10fff0, 0x110000}, {0, 0x110000}}
	rg := ranges[rng.IntN(len(ranges))]
	r := rg[0] + rng.Int32N(rg[1]-rg[0])
	if r >= 0xd800 && r < 0xe000 {
		r = 0xfffd
	}
	return string(r)
}

// genFlood is many lines of mostly plain output with the odd colour, tab, overwrite, wide
// rune or mark: what the bulk step is for.
func genFlood(rng *rand.Rand, cols, rows int) string {
	var b strings.Builder
	eol := pick(rng, []string{"\r\n", "\n", "\r\n", "\n\r"})
	for i := range rows + rng.IntN(4*rows+8) {
		fmt.Fprintf(&b, "%d", i)
		for range rng.IntN(3) {
			b.WriteString(genFloodPiece(rng, cols))
		}
		b.WriteString(eol)
	}
	return b.String()
}

func genFloodPiece(rng *rand.Rand, cols int) string {
	switch rng.IntN(16) {
	case 0:
		return pick(rng, sgrs)
	case 1:
		return genSGR(rng)
	case 2:
		return pick(rng, wideRunes)
	case 3:
		return pick(rng, marks)
	case 4:
		return genRune(rng)
	case 5:
		return pick(rng, rowOps)
	case 6:
		return strings.Repeat("w", rng.IntN(2*cols+2))
	case 7:
		return "\t" + pick(rng, words) + "\r" + pick(rng, words)
	case 8:
		return pick(rng, controls)
	case 9:
		return "\x1b[A\r" + strings.Repeat("v", cols) // over a row above, to its last column
	case 10:
		return pick(rng, sgrs) + pick(rng, rowOps) + pick(rng, words) // erase with colours
	}
	return " " + pick(rng, words)
}

// FuzzDifferential feeds arbitrary bytes in arbitrary pieces to both screens, with resizes
// and looks in between: ops bytes from 0xc0 resize, from 0xb0 compare, others write op+1
// bytes. The first two ops bytes pick the size, small so that floods are short.
func FuzzDifferential(f *testing.F) {
	f.Add([]byte("hello\r\nworld"), []byte{9, 3, 3, 200, 5})
	f.Add([]byte(strings.Repeat("line\r\n", 30)+"\x1b[31mred\x1b[0m\r\n你好\u0301\t|\r\n"), []byte{7, 2, 90, 0xb0, 40, 0xc9, 0xff})
	f.Add([]byte("\x1b[A\r"+strings.Repeat("ab\x1b[K\n", 20)+"\x1b[?1049h\x1b[2;3r"+strings.Repeat("x\n", 20)), []byte{4, 3, 0xff, 0xb1})
	f.Add([]byte(strings.Repeat("w", 40)+"\x1b[1K\x1b[5G😀\u200d\r\n\x1b[2b\x1b]133;A\x07"+strings.Repeat("\x1b[1;32mok\x1b[m\n", 12)), []byte{5, 2, 13, 0, 0xb2, 0x30})
	f.Add([]byte(strings.Repeat("\x1b[1;31m1\x1b[0m \x1b[38;5;208mab\x1b[K\tc\x1b[m\r\n", 20)+"\x1b[7;44m\x1b[Kx y  \r\n\x1b[0m"), []byte{11, 2, 0xff, 60, 0xb0, 200})
	f.Fuzz(func(t *testing.T, data, ops []byte) {
		if len(ops) < 2 {
			return
		}
		w := newTwin(t, Options{Cols: 1 + int(ops[0]%16), Rows: 1 + int(ops[1]%8), Scrollback: 30})
		w.fast.retry = int(ops[0] / 16)
		rng := rand.New(rand.NewPCG(uint64(len(data)), uint64(len(ops))))
		for _, op := range ops[2:] {
			switch {
			case op >= 0xc0:
				w.resize(1+int(op&0xf), 1+int(op>>4&0x3))
			case op >= 0xb0:
				w.compare(rng)
			default:
				n := min(int(op)+1, len(data))
				w.write(data[:n])
				data = data[n:]
			}
		}
		w.write(data)
		w.compare(rng)
	})
}

// TestDifferentialPlainLines aims at the whole-line step (flow.plainLine): floods of
// plain lines of every length around the row's width, with trailing blanks, painted
// ink, LF-only and LNM mode, bells and tabs between them, split anywhere.
func TestDifferentialPlainLines(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 0x9141e5))
		opts := Options{Cols: 2 + rng.IntN(20), Rows: 1 + rng.IntN(6), Scrollback: []int{-1, 0, 3, 40}[rng.IntN(4)]}
		w := newTwin(t, opts)
		var in []byte
		for range 300 {
			n := max(opts.Cols-2+rng.IntN(5), 0) // around the width: shorter, equal, longer
			if rng.IntN(3) == 0 {
				n = rng.IntN(opts.Cols + 1)
			}
			line := make([]byte, n)
			for k := range line {
				line[k] = byte('a' + rng.IntN(26))
				if rng.IntN(6) == 0 {
					line[k] = ' '
				}
			}
			in = append(in, line...)
			switch rng.IntN(40) {
			case 0:
				in = append(in, "\x1b[41m"...) // ink with a background: cells get painted
			case 1:
				in = append(in, "\x1b[0m"...)
			case 2:
				in = append(in, "\x1b[20h"...) // LNM: LF returns too
			case 3:
				in = append(in, "\x1b[20l"...)
			case 4:
				in = append(in, '\a')
			case 5:
				in = append(in, '\t')
			case 6:
				in = append(in, '\n') // LF alone
				continue
			}
			in = append(in, "\r\n"...)
			switch rng.IntN(30) {
			case 0:
				in = append(in, "\x1b[3b"...) // REP: repeats the last printed, if any
			case 1:
				in = append(in, "\u0301"...) // a combining mark: attaches to the last printed
			}
		}
		w.feed(rng, in)
		w.compare(rng)
	}
}

// TestFlowWrappedIn: a line that wraps onto the cursor's row at the end of a flood,
// and one that ends in the last column, read the same on the fast path, while it
// keeps output back, as on the slow one.
func TestFlowWrappedIn(t *testing.T) {
	for _, n := range []int{76, 77, 80, 157, 500} {
		w := newTwin(t, Options{Cols: 80, Rows: 24})
		w.write([]byte(strings.Repeat("flood line\r\n", 3000) + strings.Repeat("x", n) + ">>> "))
		if !w.status() {
			t.Fatalf("%d columns: no output was kept back", n)
		}
		if st := w.fast.Status(); st.WrappedIn+st.Line == "" || st.PendingWrap != (n == 76) {
			t.Errorf("%d columns: %+v", n, st)
		}
	}
}
