package danger

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Names a pipeline holds to a prefix: LIST | grep '^ci-tmp-' | xargs -I{} CMD {}
// runs CMD only on names that begin with ci-tmp-, so CMD is judged as it would
// be for such a name (a scratch bucket, a preview namespace may go), not as
// for a name it knows nothing about.

// grepPrefix: an anchored pattern whose start is literal (^ci-tmp-, ^preview-).
var grepPrefix = regexp.MustCompile(`^\^([A-Za-z0-9][A-Za-z0-9_./:@-]+)`)

// prefixFilteredFed returns the last stage's call when it is xargs fed by a
// grep that keeps only names with a literal prefix (no -v, nothing after it
// that rewrites the names) and its command, given such a name, is ordinary.
func prefixFilteredFed(stages []*syntax.Stmt, depth int) *syntax.CallExpr {
	if len(stages) < 2 {
		return nil
	}
	call, ok := stages[len(stages)-1].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || !strings.Contains(shell.ShallowLit(call.Args[0].Parts)+" "+shell.ShallowLit(call.Args[min(1, len(call.Args)-1)].Parts), "xargs") {
		return nil
	}
	c, ok := shell.BuildCommand(call)
	// files are judged by the listing that feeds them (fsflow.go)
	if !ok || !c.MoreArgs || posixShells[c.Name] || deleters[c.Name] {
		return nil
	}
	prefix := ""
	for _, s := range stages[:len(stages)-1] {
		up, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			return nil
		}
		uc, ok := shell.BuildCommand(up)
		if !ok {
			return nil
		}
		switch uc.Name {
		case "grep", "egrep":
			if p, ok := anchoredPrefix(uc); ok {
				prefix = p
			} else if prefix != "" {
				return nil // a later grep may keep names the prefix did not
			}
		case "sort", "uniq", "head", "tail":
		default:
			prefix = "" // a stage after the grep may rewrite the names
		}
	}
	if prefix == "" {
		return nil
	}
	name := prefix + "x"
	d := c
	d.Args = make([]shell.Word, 0, len(c.Args)+1)
	replaced := false
	for _, w := range c.Args {
		if c.Replace != "" && strings.Contains(w.S, c.Replace) {
			w, replaced = shell.Word{S: strings.ReplaceAll(w.S, c.Replace, name)}, true
		}
		d.Args = append(d.Args, w)
	}
	if !replaced {
		d.Args = append(d.Args, shell.Word{S: name})
	}
	if checkCommand(d, depth).Dangerous {
		return nil
	}
	return call
}

// anchoredPrefix: the literal prefix grep's pattern holds every line to, when
// it keeps only matching lines and matches by regular expression.
func anchoredPrefix(c shell.Command) (string, bool) {
	pattern := ""
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i].S
		switch {
		case a == "-e" && i+1 < len(c.Args):
			if pattern != "" {
				return "", false // more than one pattern: any may match
			}
			pattern = c.Args[i+1].S
			i++
		case a == "-v" || a == "--invert-match" || a == "-F" || a == "--fixed-strings" || a == "-f" || a == "-i" || a == "-o" || a == "-c" || a == "-l" ||
			strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "vFfiocl"):
			return "", false
		case strings.HasPrefix(a, "-"):
		case pattern == "":
			pattern = a
		default:
			return "", false // a file operand: not a filter of the pipe
		}
	}
	m := grepPrefix.FindStringSubmatch(pattern)
	if m == nil || len(m[1]) < 3 {
		return "", false
	}
	p := m[1]
	// a quantifier after the last literal makes it optional
	if rest := pattern[len(m[0]):]; rest != "" && strings.ContainsAny(rest[:1], "?*{") {
		p = p[:len(p)-1]
	}
	if strings.Contains(p, ".") {
		p = p[:strings.Index(p, ".")] // . matches any character
	}
	// the prefix counts up to its last separator: ^tmp holds names to
	// nothing (tmpl-prod), ^tmp- to scratch ones
	p = p[:strings.LastIndexAny(p, "-_./:@")+1]
	return p, len(p) >= 3
}
