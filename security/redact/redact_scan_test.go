package redact

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestAnchorsFindWhatASearchFinds: the automaton reports every occurrence of
// every anchor, folded or exact as the anchor says, and nothing else, in
// order of where they end, on text made of anchors' pieces and other bytes.
func TestAnchorsFindWhatASearchFinds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	var pieces []string
	for _, w := range scanner.words {
		for i := 1; i <= len(w.text); i++ {
			pieces = append(pieces, w.text[:i], strings.ToUpper(w.text[:i]), strings.ToLower(w.text[i-1:]))
		}
	}
	pieces = append(pieces, " ", "\n", "=", ":", "é", "\x00", "\xff", "_", "9")
	type found struct{ end, word int }
	wordIndex := func(w *anchorWord) int {
		for k := range scanner.words {
			if &scanner.words[k] == w {
				return k
			}
		}
		return -1
	}
	for range 2000 {
		var b strings.Builder
		for b.Len() < rng.Intn(300) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		var got, want []found
		scanner.scan(s, func(start int, w *anchorWord) {
			got = append(got, found{start + len(w.text), wordIndex(w)})
		})
		for end := 1; end <= len(s); end++ {
			for k, w := range scanner.words {
				if start := end - len(w.text); start >= 0 && (w.exact && s[start:end] == w.text || !w.exact && strings.EqualFold(s[start:end], w.text)) {
					want = append(want, found{end, k})
				}
			}
		}
		if !slices.IsSortedFunc(got, func(a, b found) int { return a.end - b.end }) {
			t.Fatalf("%q: hits out of order: %v", s, got)
		}
		slices.SortFunc(got, func(a, b found) int { return (a.end-b.end)*1000 + a.word - b.word })
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\n got  %v\n want %v", s, got, want)
		}
	}
}
