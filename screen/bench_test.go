package screen

import (
	"fmt"
	"strconv"
	"testing"
)

const (
	benchInputBytes = 4 << 20  // like `seq 1 600000`
	benchChunk      = 32 << 10 // what the PTY read loop hands over at a time
)

// seqInput is what `seq 1 N` prints through a PTY (onlcr turns "\n" into "\r\n").
func seqInput() []byte {
	var b []byte
	for i := 1; len(b) < benchInputBytes; i++ {
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, "\r\n"...)
	}
	return b
}

// colourInput is the same numbers as coloured words, the way ls --color or a test
// runner paints them: an SGR before and after every word.
func colourInput() []byte {
	var b []byte
	for i := 1; len(b) < benchInputBytes; i++ {
		b = fmt.Appendf(b, "\x1b[3%dm%d\x1b[0m \x1b[1;32mok\x1b[0m\r\n", i%8, i)
	}
	return b
}

// logInput is long log lines, some of them wrapping on a 120-column screen.
func logInput() []byte {
	var b []byte
	for i := 1; len(b) < benchInputBytes; i++ {
		b = fmt.Appendf(b, "%6d src/pkg/file_%d.go:%d: some log text here with a little more", i, i, i%500)
		if i%7 == 0 {
			b = append(b, " and a long tail that goes past the right margin of the screen and wraps"...)
		}
		b = append(b, "\r\n"...)
	}
	return b
}

func benchmarkWrite(b *testing.B, in []byte) {
	s := New(Options{})
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		for p := in; len(p) > 0; {
			n := min(benchChunk, len(p))
			s.Write(p[:n])
			p = p[n:]
		}
	}
}

func BenchmarkWritePlain(b *testing.B)  { benchmarkWrite(b, seqInput()) }
func BenchmarkWriteColour(b *testing.B) { benchmarkWrite(b, colourInput()) }
func BenchmarkWriteLog(b *testing.B)    { benchmarkWrite(b, logInput()) }
