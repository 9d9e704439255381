package danger

import (
	"regexp"
	"strings"
)

// Definitions are not calls: "def drop_table(name): …" names a helper, and
// a function's parameter holds whatever a later call passes, which that
// call's line shows.

var (
	defKeyword = regexp.MustCompile(`(?:^|[^\w.])(?:def|function|fn|func)\s*\*?\s*$`)
	pyDefHead  = regexp.MustCompile(`\bdef\s+([A-Za-z_]\w*)\s*\(([^)]*)\)`)
)

// definedAt reports whether the name starting at code[at:] follows a
// definition keyword (def, function), so it is being defined, not called.
func definedAt(code string, at int) bool {
	return defKeyword.MatchString(code[:at])
}

// pyParams: the parameter names of the functions the code defines and does
// not call (a call in the same input passes values that are judged there).
func pyParams(code string) map[string]bool {
	ps := map[string]bool{}
	for _, m := range pyDefHead.FindAllStringSubmatch(code, -1) {
		if len(regexp.MustCompile(`\b`+m[1]+`\s*\(`).FindAllStringIndex(code, 2)) > 1 {
			continue
		}
		for _, p := range strings.Split(m[2], ",") {
			p = strings.TrimLeft(strings.TrimSpace(p), "*")
			if i := strings.IndexAny(p, ":="); i >= 0 {
				p = strings.TrimSpace(p[:i])
			}
			if p != "" && p != "self" && p != "cls" {
				ps[p] = true
			}
		}
	}
	return ps
}

// pyParamArg: the call's first argument (rest follows the name, with or
// without its "(") is a bare parameter name.
func pyParamArg(rest string, params map[string]bool) bool {
	args := pyCallArgs(strings.TrimPrefix(strings.TrimLeft(rest, " \t"), "("))
	return len(args) > 0 && params[strings.TrimSpace(args[0])]
}
