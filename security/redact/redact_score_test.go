package redact

import (
	"strings"
	"testing"
)

// TestRedactCorpus: every secret in secretCorpus vanishes and every line of
// cleanCorpus comes back unchanged; the score is logged (go test -v).
func TestRedactCorpus(t *testing.T) {
	t.Parallel()
	r := NewRedactor(true)
	caught, kept := 0, 0
	for _, c := range secretCorpus {
		if got := r.Redact(c.in); strings.Contains(got, c.secret) {
			t.Errorf("%s: secret left in %q", c.name, got)
		} else {
			caught++
		}
	}
	for _, in := range cleanCorpus {
		if got := r.Redact(in); got != in {
			t.Errorf("clean line changed: %q -> %q", in, got)
		} else {
			kept++
		}
	}
	t.Logf("recall %d/%d (%.1f%%), clean lines kept %d/%d (%.1f%%)", caught, len(secretCorpus),
		100*float64(caught)/float64(len(secretCorpus)), kept, len(cleanCorpus), 100*float64(kept)/float64(len(cleanCorpus)))
}
