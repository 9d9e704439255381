package danger

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// More directories a command substitution names: $(dirname $(pwd)) and
// $(cd .. && pwd) are the parent, and $(HOME) in a Makefile recipe is make's
// variable, not a command.

var makeVar = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

func substDirOf(s *syntax.Stmt) (string, bool) {
	switch cmd := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		// cd DIR && pwd
		if cmd.Op != syntax.AndStmt {
			return "", false
		}
		left, ok1 := cmd.X.Cmd.(*syntax.CallExpr)
		right, ok2 := cmd.Y.Cmd.(*syntax.CallExpr)
		if !ok1 || !ok2 {
			return "", false
		}
		cd, ok1 := shell.BuildCommand(left)
		pwd, ok2 := shell.BuildCommand(right)
		if !ok1 || !ok2 || cd.Name != "cd" || pwd.Name != "pwd" || len(cd.Args) > 2 {
			return "", false
		}
		if len(cd.Args) == 1 {
			return "~", true // cd alone goes home
		}
		d := fsPath(cd.Args[1])
		return d, d != "" && !strings.Contains(d, shell.DynMark)
	case *syntax.CallExpr:
		if len(cmd.Args) == 1 {
			if w := cmd.Args[0]; len(w.Parts) == 1 {
				if l, ok := w.Parts[0].(*syntax.Lit); ok && makeVar.MatchString(l.Value) {
					d, ok := knownDirs[l.Value]
					return d, ok
				}
			}
		}
		c, ok := shell.BuildCommand(cmd)
		if !ok || c.Name != "dirname" || len(c.Args) != 2 {
			return "", false
		}
		d := fsPath(c.Args[1])
		if d == "" || strings.Contains(d, shell.DynMark) {
			return "", false
		}
		if d == "." || d == ".." || strings.HasSuffix(d, "/..") {
			return path.Join(d, ".."), true
		}
		return path.Dir(d), true
	}
	return "", false
}

// tmpVarDir stands for $TMPDIR, $TMP, $TEMP: a temporary directory of the
// user's or the job's own (macOS gives each user one; CI gives each job
// one), scratch like everything under /tmp, not /tmp itself.
const tmpVarDir = "/tmp/tmpdir"

// wrappedProgram: w names a program: a path into a bin directory, or a
// program the rules know.
func wrappedProgram(w shell.Word) bool {
	if w.Dyn() || w.S == "" || strings.HasPrefix(w.S, "-") {
		return false
	}
	if strings.HasPrefix(w.S, "/") {
		dir := path.Base(path.Dir(w.S))
		return dir == "bin" || dir == "sbin"
	}
	name := shell.ProgName(w.S)
	return name == w.S && (commandChecks[name] != nil || hostChecks[name] != nil || interpreterCheck(name) != nil)
}

// bracketAlternatives expands the first bracket expression of a glob
// (*.[oa] is *.o and *.a); false when p has none or it is a range.
func bracketAlternatives(p string) ([]string, bool) {
	i := strings.IndexByte(p, '[')
	j := strings.IndexByte(p[i+1:], ']')
	if i < 0 || j <= 0 {
		return nil, false
	}
	set := p[i+1 : i+1+j]
	if strings.ContainsAny(set, "-!^") {
		return nil, false
	}
	var out []string
	for _, r := range set {
		out = append(out, p[:i]+string(r)+p[i+2+j:])
	}
	return out, true
}

// findEmptyOnly: find's expression selects only empty files or directories
// (-empty, not negated).
func findEmptyOnly(expr []shell.Word) bool {
	for i, w := range expr {
		if w.S == "-empty" && (i == 0 || expr[i-1].S != "!" && expr[i-1].S != "-not") {
			return true
		}
	}
	return false
}

// artifactGlob: a *.EXT pattern with wildcards or ranges in its extension
// that only matches generated files (*.gc??, *.so.[0-9]*, *.py[co]).
func artifactGlob(p string) bool {
	if !strings.HasPrefix(p, "*.") || !strings.ContainsAny(p[2:], "?[*") {
		return false
	}
	matched := false
	for _, name := range artifactSamples() {
		ok, err := path.Match(p, name)
		if err != nil {
			return false
		}
		matched = matched || ok
	}
	if !matched {
		return false
	}
	// and no source file
	for _, src := range []string{"x.py", "x.go", "x.c", "x.h", "x.js", "x.ts", "x.rs", "x.java", "x.rb", "x.md", "x.txt", "x.json", "x.yaml", "x.sql", "x.sh", "x.css", "x.html"} {
		if ok, _ := path.Match(p, src); ok {
			return false
		}
	}
	return true
}

var artifactSamples = sync.OnceValue(func() []string {
	out := []string{"x.so.1", "x.so.1.2", "x.so.1.2.3", "x.profclangd", "x.profclangr"}
	for ext := range artifactExts {
		out = append(out, "x."+ext)
	}
	return out
})
