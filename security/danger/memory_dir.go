package danger

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// inDir judges a line the shell's working directory could make dangerous in
// that directory (see Memory.Dir); v is its verdict without one.
func (m *Memory) inDir(ctx Context, line string, v Verdict) Verdict {
	if m.Dir == nil || !namesDirCommand().MatchString(line) {
		return v
	}
	dir := m.Dir()
	cd, ok := cdLine(dir)
	if !ok {
		return v
	}
	if d := Classify(ctx, cd+"\n"+line); d.Dangerous {
		d.Why = strings.TrimSuffix(d.Why, ".") + " (typed in " + dir + ")."
		return d
	}
	return v
}

// cdLine is the cd to dir, quoted so that the shell parser reads dir back
// exactly, with a leading "~" left to mean the home directory.
func cdLine(dir string) (string, bool) {
	if dir == "" {
		return "", false
	}
	home, rest := "", dir
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		home, rest = "~", strings.TrimPrefix(dir[1:], "/")
		if rest == "" {
			return "cd ~", true
		}
		home += "/"
	}
	q, err := syntax.Quote(rest, syntax.LangBash)
	if err != nil { // a NUL or invalid UTF-8: no path the kernel reports
		return "", false
	}
	return "cd " + home + q, true
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
