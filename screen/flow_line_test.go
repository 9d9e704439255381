package screen

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDifferentialPaintedLines aims at the whole-line step (flow.paintedLine) with what coloured
// output puts in a line: SGR of every form between words, EL (grep --color), trailing
// blanks, lines around the row's width, and now and then something the step does not
// take (a tab, a move, a wide rune, an LF alone), split anywhere. Each screen must end up
// as one fed the slow way, and the step must have laid out most of the lines.
func TestDifferentialPaintedLines(t *testing.T) {
	els := []string{"\x1b[K", "\x1b[0K", "\x1b[1K", "\x1b[2K", "\x1b[00K", "\x1b[;K", "\x1b[X"}
	odd := []string{"\t", "\t", "\x1b[3g\t", "\x1b[5G", "你", "\u0301", "\b", "\a", "\x1b[A", "é", "\x1b[?25l", "\x1b]0;t\x07"}
	var lines, fed uint64
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 0x5a1e7))
		opts := Options{Cols: 2 + rng.IntN(30), Rows: 1 + rng.IntN(6), Scrollback: []int{-1, 0, 3, 40}[rng.IntN(4)]}
		w := newTwin(t, opts)
		if seed%2 == 0 {
			w.fast.retry = 0
		}
		var in []byte
		for range 300 {
			width, target := 0, opts.Cols-2+rng.IntN(5) // around the width: shorter, equal, longer
			if rng.IntN(2) == 0 {
				target = rng.IntN(opts.Cols)
			}
			for width < target {
				switch r := rng.IntN(20); {
				case r < 6:
					in = append(in, pick(rng, sgrs)...)
				case r < 8:
					in = append(in, genSGR(rng)...)
				case r < 10:
					in = append(in, pick(rng, els)...)
				case r == 10 && rng.IntN(4) == 0:
					in = append(in, pick(rng, odd)...)
					width++
				default:
					word := make([]byte, min(1+rng.IntN(8), target-width))
					for k := range word {
						word[k] = byte(' ' + rng.IntN(95))
						if rng.IntN(5) == 0 {
							word[k] = ' '
						}
					}
					in = append(in, word...)
					width += len(word)
				}
			}
			switch rng.IntN(30) {
			case 0:
				in = append(in, '\n')
			case 1:
				in = append(in, "\x1b[20h"...) // LNM: LF returns too
			case 2:
				in = append(in, "\x1b[20l"...)
			}
			in = append(in, "\r\n"...)
			fed++
		}
		w.feed(rng, in)
		w.compare(rng)
		lines += w.fast.flow.lines
	}
	if lines < fed/8 {
		t.Errorf("the whole-line step laid out %d of %d lines", lines, fed)
	}
	t.Logf("the whole-line step laid out %d of %d lines", lines, fed)
}

// TestDifferentialPaintedFlood is the benchmarks' painted flood, and grep's, in pieces as a
// busy read loop gets them (tens of KiB): every line but those a piece cuts must take the
// whole-line step.
func TestDifferentialPaintedFlood(t *testing.T) {
	for i, in := range [][]byte{paintedInput()[:200<<10], colourInput()[:200<<10], grepInput()[:200<<10]} {
		rng := rand.New(rand.NewPCG(uint64(i), 0xf100d))
		w := newTwin(t, Options{})
		rows := uint64(strings.Count(string(in), "\n"))
		for len(in) > 0 {
			n := min(len(in), []int{benchChunk, ptyChunk + rng.IntN(benchChunk)}[rng.IntN(2)])
			w.write(in[:n])
			in = in[n:]
			if rng.IntN(8) == 0 {
				w.status()
			}
		}
		w.compare(rng)
		if got := w.fast.flow.lines; got < rows*9/10 {
			t.Errorf("input %d: the whole-line step laid out %d of %d lines", i, got, rows)
		}
	}
}

// parseSGR must read what parseCSI reads, wherever it takes the parameters at all.
func TestParseSGR(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	raws := []string{"", "0", ";", ";;", "1;", ";1", "38;5;208", "99999999", "0001", strings.Repeat("1;", 31) + "1",
		strings.Repeat("1;", 32) + "5", strings.Repeat(";", 40)}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(80) {
			b.WriteByte("0123456789;;;"[rng.IntN(13)])
		}
		raws = append(raws, b.String())
	}
	var memo sgrMemo
	for range 2 { // the second time, most are remembered
		for _, raw := range raws {
			checkParseSGR(t, raw, &memo)
		}
	}
}

// checkParseSGR holds parseSGR to parseCSI, and memo's apply to reading the SGR afresh.
func checkParseSGR(t *testing.T, raw string, memo *sgrMemo) {
	t.Helper()
	var fast, slow csiSeq
	if !parseCSI([]byte(raw), 'm', &slow) {
		t.Fatalf("parseCSI(%q) failed", raw)
	}
	if !parseSGR([]byte(raw), &fast) {
		if strings.Count(raw, ";") < maxParams-1 {
			t.Fatalf("parseSGR(%q) refused %d parameters", raw, strings.Count(raw, ";")+1)
		}
		return
	}
	if fast.n != slow.n || fast.final != slow.final || fast.prefix != 0 || fast.inter != 0 {
		t.Fatalf("parseSGR(%q): n %d final %q, parseCSI: n %d final %q", raw, fast.n, fast.final, slow.n, slow.final)
	}
	for i := range slow.n {
		if fast.nsub[i] != 1 || fast.sub[i][0] != slow.sub[i][0] {
			t.Fatalf("parseSGR(%q) parameter %d: %d (%d subs), parseCSI: %d (%d subs)", raw, i, fast.sub[i][0], fast.nsub[i], slow.sub[i][0], slow.nsub[i])
		}
	}
	var key uint64
	for _, d := range []byte(raw) {
		key = key<<8 | uint64(d)
	}
	if len(raw) > 8 {
		key = 0
	}
	for _, pen := range []Attr{{}, {FG: IndexedColor(3), Style: Bold | Reverse}, {BG: RGBColor(1, 2, 3), Style: Italic}} {
		want := pen.withSGR(&slow)
		if diff := cmp.Diff(want, pen.withSGR(&fast)); diff != "" {
			t.Fatalf("SGR %q on %+v (-parseCSI +parseSGR):\n%s", raw, pen, diff)
		}
		var c csiSeq
		if got, ok := memo.apply([]byte(raw), key, pen, &c); !ok || got != want {
			t.Fatalf("SGR %q on %+v: remembered %+v (%v), read afresh %+v", raw, pen, got, ok, want)
		}
	}
}

// FuzzParseSGR holds parseSGR to parseCSI on any parameters of digits and semicolons.
func FuzzParseSGR(f *testing.F) {
	f.Add("1;31")
	f.Add("38;5;208;48;2;1;2;3")
	f.Add(strings.Repeat("1;", 33))
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > maxCSIBytes || strings.Trim(raw, "0123456789;") != "" {
			return
		}
		var memo sgrMemo
		checkParseSGR(t, raw, &memo)
		checkParseSGR(t, raw, &memo)
	})
}
