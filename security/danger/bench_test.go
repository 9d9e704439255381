package danger

import (
	"strings"
	"testing"
)

// BenchmarkClassify judges every input of the rules' own corpus once per op: the cost
// the gate adds to each typed line is ns/op divided by the inputs.
func BenchmarkClassify(b *testing.B) {
	type input struct {
		ctx Context
		in  string
	}
	var all []input
	for name, ctx := range corpusContexts {
		for _, class := range []string{"dangerous", "ordinary"} {
			for _, in := range readCorpus(b, name+"-"+class+".txt") {
				all = append(all, input{ctx, in})
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, x := range all {
			Classify(x.ctx, x.in)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(all))/1000, "µs/input")
}

// pasteKB is the size of the script BenchmarkClassifyPaste pastes as one input.
const pasteKB = 40

// BenchmarkClassifyPaste: a shell script of pasteKB pasted as one input.
func BenchmarkClassifyPaste(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < pasteKB<<10; i++ {
		sb.WriteString("cd build && make -j4 target" + strings.Repeat("x", i%7) + " && cp out/bin ~/bin/ || echo failed >> log.txt\n")
		sb.WriteString(`for f in src/*.c; do gcc -c "$f" -o "obj/$(basename "$f" .c).o"; done` + "\n")
	}
	script := sb.String()
	b.SetBytes(int64(len(script)))
	for b.Loop() {
		Classify(Shell, script)
	}
}
