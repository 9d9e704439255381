package danger

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRules runs every example and near-miss of the rules table as its own test.
func TestRules(t *testing.T) {
	t.Parallel()
	for _, r := range rules {
		for _, ex := range r.match {
			t.Run(fmt.Sprintf("%s/match/%s/%s", r.id, ex.ctx, ex.in), func(t *testing.T) {
				got := Classify(ex.ctx, ex.in)
				if !got.Dangerous || got.Rule != r.id {
					t.Errorf("Classify(%v, %q) = %+v, want rule %q", ex.ctx, ex.in, got, r.id)
				}
			})
		}
		for _, ex := range r.near {
			t.Run(fmt.Sprintf("%s/near/%s/%s", r.id, ex.ctx, ex.in), func(t *testing.T) {
				if got := Classify(ex.ctx, ex.in); got.Dangerous {
					t.Errorf("Classify(%v, %q) = %+v, want not dangerous", ex.ctx, ex.in, got)
				}
			})
		}
	}
}

func TestSafeInputs(t *testing.T) {
	t.Parallel()
	for _, ex := range safeInputs {
		t.Run(fmt.Sprintf("%s/%s", ex.ctx, ex.in), func(t *testing.T) {
			if got := Classify(ex.ctx, ex.in); got.Dangerous {
				t.Errorf("Classify(%v, %q) = %+v, want not dangerous", ex.ctx, ex.in, got)
			}
		})
	}
}

func TestRuleTableShape(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.id] {
			t.Errorf("rule %q appears twice", r.id)
		}
		seen[r.id] = true
		if len(r.match) < 2 || len(r.near) < 1 {
			t.Errorf("rule %q has %d examples and %d near-misses; want >= 2 and >= 1", r.id, len(r.match), len(r.near))
		}
		if r.category == "" || !strings.HasSuffix(r.why, ".") {
			t.Errorf("rule %q needs a category and a one-sentence why", r.id)
		}
	}
}

// TestRuleIDsInCodeAreInTable keeps the ids the analysers name and the table in step.
func TestRuleIDsInCodeAreInTable(t *testing.T) {
	t.Parallel()
	index := ruleIndex()
	check := func(where, id string) {
		if _, ok := index[id]; !ok {
			t.Errorf("%s: %q names no rule in the table", where, id)
		}
	}
	for _, f := range fallbackRules {
		check("fallbackRules", f.rule)
	}
	for _, id := range dynamicRules {
		check("dynamicRules", id)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	hitRe := regexp.MustCompile(`(?:\bhit\(|\bhitIf\([^\n]*, )"([a-z0-9-]+)"\)`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range hitRe.FindAllStringSubmatch(string(src), -1) {
			if !strings.HasSuffix(f, "_test.go") {
				check(f, m[1])
			}
		}
	}
}
