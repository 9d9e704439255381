package danger

import (
	"testing"
	"time"
)

// FuzzClassify: no input, in any context, panics or takes long.
func FuzzClassify(f *testing.F) {
	for _, r := range rules {
		for _, ex := range append(r.match, r.near...) {
			f.Add(uint8(ex.ctx), ex.in)
		}
	}
	f.Fuzz(func(t *testing.T, ctx uint8, input string) {
		start := time.Now()
		v := Classify(Context(ctx%11), input) // every Context, Unknown to Mongo
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Classify took %v on %d bytes", d, len(input))
		}
		if v.Dangerous && (v.Rule == "" || v.Why == "") {
			t.Errorf("dangerous verdict without rule or why: %+v", v)
		}
	})
}
