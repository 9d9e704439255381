package policy

import (
	"os"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// shellEnv knows the values the variables of one input can have: those it
// assigns (NAME=v, export NAME=v, for NAME in a b c) and, for the rest, the
// server's environment. A variable assigned something computed at run time
// (read, $(cmd), +=) is unknown. Order is ignored: a variable assigned twice
// has both values, so every value is checked.
type shellEnv struct {
	vals    map[string][]string
	unknown map[string]bool
	home    string // the session's HOME; "" means the server's
	pwd     string // the session's working directory, for $PWD; "" unknown
}

// maxCandidates bounds the values one word may expand to; beyond it the word
// is treated as unknown.
const maxCandidates = 64

func newShellEnv(f syntax.Node, home string) *shellEnv {
	e := &shellEnv{vals: map[string][]string{}, unknown: map[string]bool{}, home: home}
	add := func(name string, vals []string) {
		for _, v := range vals {
			if strings.Contains(v, shell.DynMark) {
				e.unknown[name] = true
			}
		}
		e.vals[name] = append(e.vals[name], vals...)
		if len(e.vals[name]) > maxCandidates {
			e.unknown[name] = true
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil || n.Array != nil || n.Index != nil || n.Append || n.Naked {
				if n.Name != nil && !n.Naked {
					e.unknown[n.Name.Value] = true
				}
				return true
			}
			add(n.Name.Value, e.expand(n.Value))
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				if len(wi.Items) == 0 {
					e.unknown[wi.Name.Value] = true
				}
				for _, it := range wi.Items {
					add(wi.Name.Value, e.expand(it))
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && readers[shell.ShallowLit(n.Args[0].Parts)] {
				for _, a := range n.Args[1:] {
					e.unknown[shell.ShallowLit(a.Parts)] = true
				}
			}
		}
		return true
	})
	return e
}

var readers = shell.Set("read", "mapfile", "readarray", "getopts", "select")

// expand returns the values word w can have after brace, parameter and
// (literal) command-substitution expansion; unknown parts are DynMark.
func (e *shellEnv) expand(w *syntax.Word) []string {
	if w == nil {
		return []string{""}
	}
	nodes := shell.BraceNodes(w)
	if nodes == nil {
		return []string{shell.DynMark}
	}
	var out []string
	for _, n := range nodes {
		out = append(out, e.parts(n.Parts, false)...)
	}
	if len(out) > maxCandidates {
		return []string{shell.DynMark}
	}
	return out
}

func (e *shellEnv) parts(parts []syntax.WordPart, quoted bool) []string {
	cands := []string{""}
	for _, p := range parts {
		var vals []string
		switch p := p.(type) {
		case *syntax.Lit:
			vals = []string{shell.Unescape(p.Value, quoted)}
		case *syntax.SglQuoted:
			vals = []string{p.Value}
			if p.Dollar {
				vals[0] = shell.ANSIC(p.Value)
			}
		case *syntax.DblQuoted:
			vals = e.parts(p.Parts, true)
		case *syntax.ParamExp:
			vals = e.param(p)
		case *syntax.CmdSubst:
			vals = []string{shell.DynMark}
			if s, ok := shell.EchoValue(p.Stmts); ok {
				vals[0] = s
			}
		case *syntax.ArithmExp:
			vals = []string{"0"} // a number, never a path
		default:
			vals = []string{shell.DynMark}
		}
		if len(cands)*len(vals) > maxCandidates {
			return []string{shell.DynMark}
		}
		next := make([]string, 0, len(cands)*len(vals))
		for _, c := range cands {
			for _, v := range vals {
				next = append(next, c+v)
			}
		}
		cands = next
	}
	return cands
}

func (e *shellEnv) param(p *syntax.ParamExp) []string {
	if !shell.SimpleParam(p) {
		return []string{shell.DynMark}
	}
	name := p.Param.Value
	switch {
	case name == "?" || name == "#" || name == "$" || name == "!":
		return []string{"0"}
	case e.unknown[name]:
		return []string{shell.DynMark}
	case e.vals[name] != nil:
		return e.vals[name]
	}
	if name == "HOME" && e.home != "" {
		return []string{e.home}
	}
	if name == "PWD" || name == "OLDPWD" {
		if name == "PWD" && e.pwd != "" {
			return []string{e.pwd} // the session's, not the server's
		}
		return []string{shell.DynMark}
	}
	if v, ok := os.LookupEnv(name); ok {
		return []string{v}
	}
	return []string{shell.DynMark}
}

// pathEnv is the PATH programs are looked up on: the server's, or the one
// the input assigns. A PATH computed at run time is "" (nothing resolves,
// so an allow-list refuses bare names).
func (e *shellEnv) pathEnv() string {
	vals := e.vals["PATH"]
	switch {
	case e.unknown["PATH"] || len(vals) > 1:
		return ""
	case len(vals) == 1:
		return vals[0]
	}
	return os.Getenv("PATH")
}
