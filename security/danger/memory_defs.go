package danger

import (
	"regexp"
	"sort"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// define records the aliases and functions line defines (alias x='…',
// f() { …; }, function f { …; }) and forgets those it removes (unalias,
// unset -f), and the variables it sets (see assign). The caller holds m.mu.
func (m *Memory) define(line string) {
	defs, vars := mayDefine(line), mayAssign(line)
	if !defs && !vars {
		return
	}
	f, err := shell.Parse(line)
	if err != nil {
		return
	}
	if vars {
		m.assign(f)
	}
	if !defs {
		return
	}
	if m.aliases == nil {
		m.aliases, m.funcs = map[string]string{}, map[string]string{}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			names := n.Names
			if n.Name != nil {
				names = append(names, n.Name)
			}
			for _, name := range names { // none for an anonymous function
				m.funcs[name.Value] = nodeText(line, n.Body)
			}
			return false
		case *syntax.CallExpr:
			m.defineCall(n)
		}
		return true
	})
}

// mayDefine reports whether line can define or remove an alias or a function,
// so that the lines that cannot (most) are not parsed a second time. A function
// needs "(" or the keyword; alias, unalias and unset -f need their names, which
// only quotes, escapes or expansions could spell without the letters in a row.
func mayDefine(line string) bool {
	return strings.ContainsAny(line, "(\\'\"$") || strings.Contains(line, "function") ||
		strings.Contains(line, "alias") || strings.Contains(line, "unset") || strings.Contains(line, "hash")
}

func (m *Memory) defineCall(call *syntax.CallExpr) {
	if len(call.Args) == 0 {
		return
	}
	args := make([]string, len(call.Args))
	for i, a := range call.Args {
		args[i] = shell.ResolveWord(a).S
	}
	switch args[0] {
	case "alias":
		for _, a := range args[1:] {
			if name, val, ok := strings.Cut(a, "="); ok && !strings.HasPrefix(name, "-") {
				m.aliases[name] = val
			}
		}
	case "hash":
		// hash -p /usr/bin/curl fetch: "fetch" runs curl from then on, as an
		// alias would (found by an independent probe).
		if len(args) == 4 && args[1] == "-p" {
			m.aliases[args[3]] = args[2]
		}
	case "unalias":
		for _, a := range args[1:] {
			if a == "-a" {
				clear(m.aliases)
			}
			delete(m.aliases, a)
		}
	case "unset":
		if len(args) > 2 && args[1] == "-f" {
			for _, a := range args[2:] {
				delete(m.funcs, a)
			}
		}
	}
}

// nodeText is the source text of n within line.
func nodeText(line string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(line) || start >= end {
		return ""
	}
	return line[start:end]
}

var positional = regexp.MustCompile(`"\$[@*]"|\$[@*]|\$\{?([1-9])\}?`)

// expandDefs expands aliases in command position and appends the bodies of
// called functions, their positional parameters replaced by the call's
// arguments. The caller holds m.mu.
func (m *Memory) expandDefs(line string) string {
	if len(m.aliases) == 0 && len(m.funcs) == 0 {
		return line
	}
	used := map[string]bool{}
	for range 4 { // an alias may expand to another alias, each once
		next := m.expandAliases(line, used)
		if next == line {
			break
		}
		line = next
	}
	f, err := shell.Parse(line)
	if err != nil {
		return line
	}
	var bodies []string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		body, ok := m.funcs[shell.ResolveWord(call.Args[0]).S]
		if !ok {
			return true
		}
		args := make([]string, len(call.Args))
		for i, a := range call.Args {
			args[i] = nodeText(line, a)
		}
		bodies = append(bodies, positional.ReplaceAllStringFunc(body, func(p string) string {
			if sm := positional.FindStringSubmatch(p); sm[1] != "" {
				if i := int(sm[1][0] - '0'); i < len(args) {
					return args[i]
				}
				return ""
			}
			return strings.Join(args[1:], " ")
		}))
		return true
	})
	if len(bodies) == 0 {
		return line
	}
	return line + "\n" + strings.Join(bodies, "\n")
}

// expandAliases replaces the first word of each simple command that names
// an alias not in used (bash expands an alias once: alias rm='rm -rf' makes
// "rm x" "rm -rf x", not more), and adds the names it expanded to used.
func (m *Memory) expandAliases(line string, used map[string]bool) string {
	f, err := shell.Parse(line)
	if err != nil {
		return line
	}
	type repl struct {
		start, end int
		val        string
	}
	var rs []repl
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		w := call.Args[0]
		lit := w.Lit()
		val, ok := m.aliases[lit]
		if !ok || lit == "" || used[lit] {
			return true
		}
		rs = append(rs, repl{int(w.Pos().Offset()), int(w.End().Offset()), val})
		return true
	})
	sort.Slice(rs, func(i, j int) bool { return rs[i].start > rs[j].start })
	for _, r := range rs {
		used[strings.Fields(line[r.start:r.end] + " ")[0]] = true
		line = line[:r.start] + r.val + line[r.end:]
	}
	return line
}
