package danger

import (
	"path"
	"regexp"
	"strings"

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
		if !ok1 || !ok2 || cd.Name != "cd" || pwd.Name != "pwd" || len(cd.Args) != 2 {
			return "", false
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
