package screen

import (
	"fmt"
	"strconv"
	"syscall"
	"testing"
	"time"
)

const (
	benchInputBytes = 4 << 20  // like `seq 1 600000`
	benchChunk      = 32 << 10 // what the PTY read loop hands over at a time, at most
	// ptyChunk is what it is handed in practice: Linux's line discipline passes at most
	// 4 KiB a read under a flood (`cat` of a big file reads 3.6 KiB on average), and a
	// fast reader gets less.
	ptyChunk = 4 << 10
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

// paintedInput is what `ls --color`, grep and compilers print, and what the
// integration benchmark cats: bold and 256-colour SGR around most words.
func paintedInput() []byte {
	var b []byte
	for i := 0; len(b) < benchInputBytes; i++ {
		b = fmt.Appendf(b, "\x1b[1;3%dm%06d\x1b[0m \x1b[38;5;%dmsrc/pkg/file_%d.go\x1b[0m:%d: \x1b[31merror\x1b[0m: something went wrong here\r\n",
			i%8, i, i%256, i%97, i%1000)
	}
	return b
}

// grepInput is what grep --color=always prints: each coloured part between SGR and EL,
// as GNU grep writes it.
func grepInput() []byte {
	var b []byte
	for i := 0; len(b) < benchInputBytes; i++ {
		b = fmt.Appendf(b, "\x1b[35m\x1b[Ksrc/pkg/file_%d.go\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K%d\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\tif err := \x1b[01;31m\x1b[Kcheck\x1b[m\x1b[K(ctx, %d); err != nil {\r\n",
			i%97, i%1000, i)
	}
	return b
}

// benchmarkWrite feeds in, chunk bytes at a time; every watch chunks (if watch > 0) it
// reads the Status, as the completion detector does while output streams.
func benchmarkWrite(b *testing.B, in []byte, chunk, watch int) {
	s := New(Options{})
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	before := cpuTime()
	for b.Loop() {
		for i, p := 0, in; len(p) > 0; i++ {
			n := min(chunk, len(p))
			s.Write(p[:n])
			p = p[n:]
			if watch > 0 && i%watch == watch-1 {
				s.Status()
			}
		}
	}
	// The process's CPU time per MB: on a shared host, steadier than the wall time.
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/1000/float64(b.N)/(float64(len(in))/1e6), "cpu-ms/MB")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkWritePlain(b *testing.B)  { benchmarkWrite(b, seqInput(), benchChunk, 0) }
func BenchmarkWriteColour(b *testing.B) { benchmarkWrite(b, colourInput(), benchChunk, 0) }
func BenchmarkWriteLog(b *testing.B)    { benchmarkWrite(b, logInput(), benchChunk, 0) }

// The PTY's own pieces, with the detector looking every 32 of them (128 KiB, 2 ms of a
// `cat` at raw speed: its fastest pace).
func BenchmarkWritePTYPlain(b *testing.B)   { benchmarkWrite(b, seqInput(), ptyChunk, 32) }
func BenchmarkWritePTYPainted(b *testing.B) { benchmarkWrite(b, paintedInput(), ptyChunk, 32) }
func BenchmarkWritePTYLog(b *testing.B)     { benchmarkWrite(b, logInput(), ptyChunk, 32) }
func BenchmarkWritePTYGrep(b *testing.B)    { benchmarkWrite(b, grepInput(), ptyChunk, 32) }

// BenchmarkTextSince is what a reply to a flood costs the screen: the text since the
// command began, the full scrollback of it.
func BenchmarkTextSince(b *testing.B) {
	s := New(Options{})
	s.Write(paintedInput())
	b.ReportAllocs()
	for b.Loop() {
		text, lost := s.TextSince(Pos{})
		if !lost || len(text) < 500<<10 {
			b.Fatalf("%d bytes, lost %v", len(text), lost)
		}
	}
}
