package redact

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The independent corpus (testdata/independent, see its README) was written by
// someone who never saw these rules. tune/ may guide changes; heldout/ never does, and
// its lines are never printed. MCP_TERMINAL_CORPUS_MISSES=1 prints the tune part's
// leaks and mangled lines; MCP_TERMINAL_CORPUS_PART=tune scores the tune part alone,
// for whoever changes the rules.

// Floors: the figures when they were last raised; a change that lowers one fails.
var independentFloor = map[string]struct{ recall, precision float64 }{
	"tune":    {0.99, 1.0},
	"heldout": {0.889, 0.972},
}

// leaked reports whether any piece of secret of 8 or more bytes (or all of a shorter
// one) is still in out.
func leaked(out, secret string) bool {
	n := min(8, len(secret))
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+n]) {
			return true
		}
	}
	return false
}

type redactTally struct{ secrets, hidden, clean, kept int }

func (c redactTally) recall() float64    { return float64(c.hidden) / float64(max(c.secrets, 1)) }
func (c redactTally) precision() float64 { return float64(c.kept) / float64(max(c.clean, 1)) }
func (c redactTally) String() string {
	return fmt.Sprintf("recall %d/%d = %.1f%%, clean lines kept %d/%d = %.1f%%",
		c.hidden, c.secrets, 100*c.recall(), c.kept, c.clean, 100*c.precision())
}

func readTSV(t *testing.T, path string) [][2]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		kind, text, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		out = append(out, [2]string{kind, strings.ReplaceAll(text, "⏎", "\n")})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func scoreRedaction(t *testing.T, part string, show bool) redactTally {
	t.Helper()
	r := NewRedactor(true)
	var c redactTally
	for _, row := range readTSV(t, filepath.Join("testdata", "independent", part, "secrets.tsv")) {
		before, rest, ok1 := strings.Cut(row[1], "«")
		secret, after, ok2 := strings.Cut(rest, "»")
		if !ok1 || !ok2 {
			t.Fatalf("%s: no «secret» in %q", part, row[0])
		}
		c.secrets++
		if out := r.Redact(before + secret + after); !leaked(out, secret) {
			c.hidden++
		} else if show {
			t.Logf("leak [%s] %s", row[0], out)
		}
	}
	for _, row := range readTSV(t, filepath.Join("testdata", "independent", part, "clean.tsv")) {
		c.clean++
		if out := r.Redact(row[1]); out == row[1] {
			c.kept++
		} else if show {
			t.Logf("mangled [%s] %s", row[0], out)
		}
	}
	t.Logf("%s: %v", part, c)
	return c
}

func TestIndependentRedactionCorpus(t *testing.T) {
	t.Parallel()
	show := os.Getenv("MCP_TERMINAL_CORPUS_MISSES") == "1"
	for _, part := range []string{"tune", "heldout"} {
		if only := os.Getenv("MCP_TERMINAL_CORPUS_PART"); only != "" && only != part {
			continue
		}
		c := scoreRedaction(t, part, show && part == "tune")
		floor := independentFloor[part]
		if c.recall() < floor.recall || c.precision() < floor.precision {
			t.Errorf("%s part: %v; the floor is %.1f%% recall and %.1f%% clean lines kept", part, c, 100*floor.recall, 100*floor.precision)
		}
	}
}
