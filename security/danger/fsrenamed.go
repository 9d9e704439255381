package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// A tree renamed earlier in the line is still that tree: mv ~/.ssh
// ~/.ssh.bak && rm -rf ~/.ssh.bak deletes the keys as rm -rf ~/.ssh does.

// checkRenamedDeleted judges each deletion (rm, shred, find) of a path an
// earlier mv SRC DEST renamed as the deletion of SRC (DEST/x as SRC/x).
func checkRenamedDeleted(f *syntax.File, depth int) Verdict {
	renamed := map[string]string{} // DEST → SRC
	return inOrder(f, func(_ *syntax.CallExpr, c shell.Command) Verdict {
		if c.Name == "git" && len(c.Args) > 2 && c.Args[1].S == "mv" {
			c.Name, c.Args = "mv", c.Args[1:] // git mv A B renames as mv does
		}
		switch {
		case c.Name == "mv":
			if dest, src, ok := plainRename(c); ok {
				renamed[dest] = src
			}
		case len(renamed) > 0 && cwdDeleters[c.Name]:
			if r, ok := renamedArgs(c, renamed); ok {
				return checkCommand(r, depth)
			}
		}
		return Verdict{}
	})
}

// plainRename: mv [-f|-v] SRC DEST with both literal.
func plainRename(c shell.Command) (dest, src string, ok bool) {
	o := shell.ParseOpts(c.Args[1:], "tS")
	if len(o.Operands) != 2 {
		return "", "", false
	}
	for _, w := range c.Args[1:] {
		if w.S == "-t" || strings.HasPrefix(w.S, "--target") {
			return "", "", false
		}
	}
	s, d := fsPath(o.Operands[0]), fsPath(o.Operands[1])
	if s == "" || d == "" || strings.Contains(s+d, shell.DynMark) || strings.ContainsAny(s, "*?[") {
		return "", "", false
	}
	return path.Clean(d), path.Clean(s), true
}

// renamedArgs is c with each operand inside a renamed path put back where
// it came from.
func renamedArgs(c shell.Command, renamed map[string]string) (shell.Command, bool) {
	args := append([]shell.Word{}, c.Args...)
	changed := false
	for i := 1; i < len(args); i++ {
		p := fsPath(args[i])
		if strings.HasPrefix(p, "-") || p == "" {
			continue
		}
		clean := path.Clean(p)
		for dest, src := range renamed {
			if rest, ok := strings.CutPrefix(clean, dest); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
				args[i] = shell.Word{S: src + rest}
				changed = true
				break
			}
		}
	}
	c.Args = args
	return c, changed
}
