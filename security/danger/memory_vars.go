package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// maxVars bounds the variables remembered per session.
const maxVars = 256

// mayAssign reports whether line can set or unset a variable: an assignment
// needs "=", read and mapfile their names (so the value becomes unknown).
func mayAssign(line string) bool {
	return strings.Contains(line, "=") || strings.Contains(line, "unset") ||
		strings.Contains(line, "read") || strings.Contains(line, "mapfile")
}

// assign records the values f's top-level commands give variables (NAME=value,
// export/declare/local/readonly NAME=value): a literal, or one that means the
// same in every later line (~, $HOME/…). It forgets a variable set to a value
// known only when it runs (NAME=$(pwd), NAME=$PWD, NAME+=x, read NAME) or
// unset. Commands in a pipeline, a subshell, a loop or a function set nothing
// the shell keeps, or nothing known to run. The caller holds m.mu.
func (m *Memory) assign(f *syntax.File) {
	if m.vars == nil {
		m.vars = map[string]string{}
	}
	for _, st := range f.Stmts {
		m.assignStmt(st)
	}
}

func (m *Memory) assignStmt(st *syntax.Stmt) {
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd: // a && b, a || b (a | b runs in subshells)
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			m.assignStmt(c.X)
			m.assignStmt(c.Y)
		}
	case *syntax.DeclClause:
		for _, a := range c.Args {
			if !a.Naked {
				m.set(a)
			}
		}
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			for _, a := range c.Assigns {
				m.set(a)
			}
			return
		}
		switch shell.ResolveWord(c.Args[0]).S {
		case "unset", "read", "mapfile", "readarray":
			for _, a := range c.Args[1:] {
				delete(m.vars, shell.ResolveWord(a).S)
			}
		}
	}
}

// set remembers a's value as shell text that assigns it again, if it is one
// every later line sees the same (a literal, ~ or $HOME/…).
func (m *Memory) set(a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	w := shell.ResolveWord(a.Value)
	val, ok := quotePath(w.S)
	if a.Append || a.Array != nil || a.Index != nil || w.Dyn() || !ok {
		delete(m.vars, name)
		return
	}
	if _, ok := m.vars[name]; ok || len(m.vars) < maxVars {
		m.vars[name] = val
	}
}

// assignments returns the remembered assignments of the variables line refers
// to, as lines of shell, and their names. The caller holds m.mu.
func (m *Memory) assignments(line string) (text string, names []string) {
	if !strings.Contains(line, "$") {
		return "", nil
	}
	var b strings.Builder
	for name, val := range m.vars {
		if !strings.Contains(line, "$"+name) && !strings.Contains(line, "${"+name) {
			continue
		}
		b.WriteString(name + "=" + val + "\n")
		names = append(names, "$"+name)
	}
	return b.String(), names
}
