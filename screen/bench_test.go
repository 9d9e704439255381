package screen

import (
	"fmt"
	"strings"
	"testing"
)

func benchInput(colour bool) []byte {
	var b strings.Builder
	for i := 0; b.Len() < 64<<10; i++ {
		if colour {
			fmt.Fprintf(&b, "\x1b[1;3%dm%6d\x1b[0m \x1b[38;5;%dmsrc/pkg/file_%d.go\x1b[m:%d: some log text here\r\n",
				i%8, i, i%256, i, i%500)
		} else {
			fmt.Fprintf(&b, "%6d src/pkg/file_%d.go:%d: some log text here with a little more\r\n", i, i, i%500)
		}
	}
	return []byte(b.String())
}

func benchmarkWrite(b *testing.B, colour bool) {
	in := benchInput(colour)
	s := New(Options{})
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		s.Write(in)
	}
}

func BenchmarkWritePlain(b *testing.B)  { benchmarkWrite(b, false) }
func BenchmarkWriteColour(b *testing.B) { benchmarkWrite(b, true) }
