package danger

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// inShell judges line again as the shell would run it now, where what an
// earlier line did changes it: with the variables it uses set as they were
// set at the prompt before, and, for a command whose relative paths a cd moves,
// in the shell's working directory (Memory.Dir). v is its verdict as typed.
func (m *Memory) inShell(ctx Context, line string, v Verdict) Verdict {
	m.mu.Lock()
	vars, names := m.assignments(line)
	m.mu.Unlock()
	var cd, where string
	if m.Dir != nil && namesDirCommand().MatchString(line) {
		dir := m.Dir()
		if c, ok := cdLine(dir); ok {
			cd, where = c+"\n", "typed in "+dir
		}
	}
	if cd == "" && vars == "" {
		return v
	}
	d := Classify(ctx, cd+vars+line)
	if !d.Dangerous {
		return v
	}
	if len(names) > 0 {
		sort.Strings(names)
		if where != "" {
			where += ", "
		}
		where += "with " + strings.Join(names, ", ") + " as set earlier"
	}
	d.Why = strings.TrimSuffix(d.Why, ".") + " (" + where + ")."
	return d
}

// cdLine is the cd to dir.
func cdLine(dir string) (string, bool) {
	q, ok := quotePath(dir)
	return "cd " + q, ok && dir != ""
}

// quotePath quotes s so that the shell parser reads it back exactly, a leading
// "~" left to mean the home directory.
func quotePath(s string) (string, bool) {
	home, rest := "", s
	if s == "~" || strings.HasPrefix(s, "~/") {
		home, rest = "~", strings.TrimPrefix(s[1:], "/")
		if rest == "" {
			return "~", true
		}
		home += "/"
	}
	q, err := syntax.Quote(rest, syntax.LangBash)
	return home + q, err == nil // no NUL or invalid UTF-8 in a value the shell has
}

// namesDirCommand matches a line that names one of the commands whose
// relative paths checkAfterCd judges in the directory a cd went to (built
// once the package's init functions have added theirs).
var namesDirCommand = sync.OnceValue(func() *regexp.Regexp {
	var names []string
	for n := range cwdDeleters {
		names = append(names, regexp.QuoteMeta(n))
	}
	for n := range cwdExtractors {
		names = append(names, regexp.QuoteMeta(n))
	}
	sort.Strings(names)
	return regexp.MustCompile(`(?:^|[^\w.-])(?:` + strings.Join(names, "|") + `)(?:$|[^\w.-])`)
})
