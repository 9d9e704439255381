package danger

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The independent corpus (testdata/independent, see its README) was written and
// labelled by people who never saw these rules. tune/ and retired/ (the first
// held-out part, used for tuning since its final figure was recorded) may guide
// changes to them; heldout/ never does: this test reports its figures but never
// prints its inputs. MCP_TERMINAL_CORPUS_MISSES=1 prints the tuning parts' misses
// and false positives; MCP_TERMINAL_CORPUS_PART=tune (or retired, tune2 … tune23) scores that part
// alone, for whoever changes rules (even the held-out totals are feedback they
// should not tune against).

// Floors: the figures measured when they were last raised. A change that lowers one
// fails; raise them as the rules improve. The goal is 97% recall and at most 1% false
// positives on the held-out part.
var independentFloor = map[string]struct{ recall, maxFP float64 }{
	"tune":    {0.999, 0.001},
	"retired": {0.999, 0.001},
	"tune2":   {0.998, 0.001},
	"tune3":   {0.997, 0.002},
	"tune4":   {0.989, 0.007},
	"tune5":   {0.962, 0.009},
	"tune6":   {0.999, 0.001},
	"tune7":   {0.993, 0.001},
	"tune8":   {0.989, 0.001},
	"tune9":   {0.948, 0.001},
	"tune10":  {0.984, 0.001},
	"tune11":  {0.968, 0.001},
	"tune12":  {0.999, 0.001},
	"tune13":  {0.999, 0.001},
	"tune14":  {0.999, 0.001},
	"tune15":  {0.982, 0.001},
	"tune16":  {0.992, 0.000},
	"tune17":  {0.902, 0.000},
	"tune18":  {0.993, 0.014},
	"tune19":  {0.979, 0.000},
	"tune20":  {0.992, 0.007},
	"tune21":  {0.952, 0.000},
	"tune22":  {0.970, 0.007},
	"tune23":  {1.000, 0.029},
	"heldout": {0.970, 0.004},
}

type corpusTally struct{ dangerous, caught, ordinary, flagged int }

func (c *corpusTally) add(o corpusTally) {
	c.dangerous += o.dangerous
	c.caught += o.caught
	c.ordinary += o.ordinary
	c.flagged += o.flagged
}

func (c corpusTally) recall() float64 { return float64(c.caught) / float64(max(c.dangerous, 1)) }
func (c corpusTally) fp() float64     { return float64(c.flagged) / float64(max(c.ordinary, 1)) }

func (c corpusTally) String() string {
	return fmt.Sprintf("recall %d/%d = %.1f%%, false positives %d/%d = %.1f%%",
		c.caught, c.dangerous, 100*c.recall(), c.flagged, c.ordinary, 100*c.fp())
}

func scoreIndependent(t *testing.T, part string, show bool) corpusTally {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "independent", part, "*.tsv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files for %s: %v", part, err)
	}
	sort.Strings(files)
	var total corpusTally
	byProgram := map[string]*corpusTally{}
	for _, f := range files {
		var c corpusTally
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			fields := strings.SplitN(line, "\t", 4)
			if len(fields) != 4 {
				t.Fatalf("%s:%d: want label, program, effect and input separated by tabs", f, n)
			}
			label, program, input := fields[0], fields[1], strings.ReplaceAll(fields[3], "⏎", "\n")
			v := Classify(ContextOf(program), input)
			var one corpusTally
			switch label {
			case "dangerous":
				one.dangerous++
				if v.Dangerous {
					one.caught++
				} else if show {
					t.Logf("miss %s [%s] %s", program, fields[2], fields[3])
				}
			case "ordinary":
				one.ordinary++
				if v.Dangerous {
					one.flagged++
					if show {
						t.Logf("false positive %s (%s) %s", program, v.Rule, fields[3])
					}
				}
			case "disputed":
			default:
				t.Fatalf("%s:%d: unknown label %q", f, n, label)
			}
			c.add(one)
			if byProgram[program] == nil {
				byProgram[program] = &corpusTally{}
			}
			byProgram[program].add(one)
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s: %v", part, strings.TrimSuffix(filepath.Base(f), ".tsv"), c)
		total.add(c)
	}
	if show {
		programs := make([]string, 0, len(byProgram))
		for p := range byProgram {
			programs = append(programs, p)
		}
		sort.Strings(programs)
		for _, p := range programs {
			t.Logf("%s, program %s: %v", part, p, *byProgram[p])
		}
	}
	t.Logf("%s: %v", part, total)
	return total
}

func TestIndependentCorpus(t *testing.T) {
	t.Parallel()
	show := os.Getenv("MCP_TERMINAL_CORPUS_MISSES") == "1"
	for _, part := range []string{"tune", "retired", "tune2", "tune3", "tune4", "tune5", "tune6", "tune7", "tune8", "tune9", "tune10", "tune11", "tune12", "tune13", "tune14", "tune15", "tune16", "tune17", "tune18", "tune19", "tune20", "tune21", "tune22", "tune23", "heldout"} {
		if _, err := os.Stat(filepath.Join("testdata", "independent", part)); err != nil {
			continue
		}
		if only := os.Getenv("MCP_TERMINAL_CORPUS_PART"); only != "" && only != part {
			continue
		}
		c := scoreIndependent(t, part, show && part != "heldout")
		floor := independentFloor[part]
		if c.recall() < floor.recall || c.fp() > floor.maxFP {
			t.Errorf("%s part: %v; the floor is %.1f%% recall and %.1f%% false positives", part, c, 100*floor.recall, 100*floor.maxFP)
		}
	}
}
