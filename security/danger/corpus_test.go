package danger

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The corpus (testdata/corpus/<context>-<class>.txt) holds inputs written to
// resemble what agents type: one per line, "#" starts a comment line, "⏎"
// stands for a newline inside an input. TestCorpus measures recall on the
// dangerous files and the false-positive rate on the ordinary ones.

const (
	minRecall = 0.99
	maxFPRate = 0.01
)

var corpusContexts = map[string]Context{"shell": Shell, "sql": SQL, "python": Python, "redis": Redis, "mongo": Mongo}

func readCorpus(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, strings.ReplaceAll(line, "⏎", "\n"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

type tally struct{ dangerous, caught, ordinary, flagged int }

func (s tally) recall() float64 { return ratio(s.caught, s.dangerous) }
func (s tally) fpRate() float64 { return ratio(s.flagged, s.ordinary) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func TestCorpus(t *testing.T) {
	t.Parallel()
	var total tally
	for _, name := range []string{"shell", "sql", "python", "redis", "mongo"} {
		ctx := corpusContexts[name]
		var s tally
		for _, in := range readCorpus(t, name+"-dangerous.txt") {
			s.dangerous++
			if Classify(ctx, in).Dangerous {
				s.caught++
			} else {
				t.Logf("missed (%s): %q", name, in)
			}
		}
		for _, in := range readCorpus(t, name+"-ordinary.txt") {
			s.ordinary++
			if v := Classify(ctx, in); v.Dangerous {
				s.flagged++
				t.Logf("false positive (%s): %q -> %s", name, in, v.Rule)
			}
		}
		t.Logf("%-6s dangerous %3d recall %6.2f%% | ordinary %3d false positives %5.2f%%",
			name, s.dangerous, 100*s.recall(), s.ordinary, 100*s.fpRate())
		total.dangerous += s.dangerous
		total.caught += s.caught
		total.ordinary += s.ordinary
		total.flagged += s.flagged
	}
	t.Logf("overall dangerous %3d recall %6.2f%% | ordinary %3d false positives %5.2f%%",
		total.dangerous, 100*total.recall(), total.ordinary, 100*total.fpRate())
	if total.dangerous < 150 || total.ordinary < 250 {
		t.Errorf("corpus too small: %d dangerous, %d ordinary; want >= 150 and >= 250", total.dangerous, total.ordinary)
	}
	if total.recall() < minRecall || total.fpRate() > maxFPRate {
		t.Errorf("recall %.2f%% (want >= %.0f%%), false positives %.2f%% (want <= %.0f%%)",
			100*total.recall(), 100*minRecall, 100*total.fpRate(), 100*maxFPRate)
	}
}
