package danger

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// escapeDeletesDB reports whether cmd, run from an SQL client's shell escape
// (sqlite3 .shell/.system, psql \!), deletes, shreds or empties a database
// file. From a shell a project's dev.sqlite3 is often regenerated and its
// deletion passes; from inside the client it is the database being worked
// on, so it counts as dropping it.
func escapeDeletesDB(cmd string) bool {
	f, err := shell.Parse(cmd)
	if err != nil || f == nil {
		return false
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				if (r.Op == syntax.RdrOut || r.Op == syntax.RdrClob) && r.Word != nil && dbFileWord(shell.ResolveWord(r.Word).S) {
					found = true
				}
			}
		case *syntax.CallExpr:
			c, ok := shell.BuildCommand(n)
			if !ok || !(deleters[c.Name] || c.Name == "truncate") {
				return true
			}
			for _, a := range c.Args[1:] {
				if dbFileWord(a.S) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func dbFileWord(s string) bool {
	return s != "" && s[0] != '-' && dbFiles.MatchString(path.Base(s)) && !strings.HasPrefix(s, "/tmp/")
}
