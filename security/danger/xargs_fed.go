package danger

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// checkXargsFed judges `A | xargs B` as `B $(A)`: the operands are whatever
// the stages before produce (git tag -l | xargs git push origin --delete,
// helm ls -q | xargs helm uninstall), so B is judged with one computed
// operand, as the same command with a command substitution would be.
// Literal echo output is judged by the caller.
func checkXargsFed(c shell.Command, upstream []*syntax.Stmt, echoed []string, depth int) Verdict {
	if !c.MoreArgs || echoed != nil || len(upstream) == 0 {
		return Verdict{}
	}
	w := shell.ResolveWord(&syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Stmts: upstream}}})
	c.Args = append(c.Args[:len(c.Args):len(c.Args)], w)
	return checkCommand(c, depth)
}

// checkXargsProcSubst judges `xargs B < <(A)` and `xargs -a <(A) B` as
// `A | xargs B`.
func checkXargsProcSubst(s *syntax.Stmt, depth int) Verdict {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || !hasProcSubst(s, call) {
		return Verdict{}
	}
	c, ok := shell.BuildCommand(call)
	if !ok || !c.MoreArgs {
		return Verdict{}
	}
	var words []*syntax.Word
	for _, r := range s.Redirs {
		if r != nil && r.Op == syntax.RdrIn && r.Word != nil {
			words = append(words, r.Word)
		}
	}
	for i, a := range call.Args {
		if i > 0 && (lit(call.Args[i-1]) == "-a" || lit(call.Args[i-1]) == "--arg-file") {
			words = append(words, a)
		}
	}
	for _, w := range words {
		if len(w.Parts) != 1 {
			continue
		}
		if ps, ok := w.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn && len(ps.Stmts) > 0 {
			if v := checkXargsFed(c, ps.Stmts, nil, depth); v.Dangerous {
				return v
			}
		}
	}
	return Verdict{}
}

// checkProcSubstStdin judges `B < <(A)` as `A | B`: sh < <(curl …),
// bash < <(echo rm -rf ~), while read …; done < <(ls).
func checkProcSubstStdin(s *syntax.Stmt, depth int) Verdict {
	for i, r := range s.Redirs {
		if r == nil || r.Op != syntax.RdrIn || r.Word == nil || len(r.Word.Parts) != 1 {
			continue
		}
		ps, ok := r.Word.Parts[0].(*syntax.ProcSubst)
		if !ok || ps.Op != syntax.CmdIn || len(ps.Stmts) != 1 {
			continue
		}
		b := *s
		b.Redirs = append(s.Redirs[:i:i], s.Redirs[i+1:]...)
		return checkPipeline([]*syntax.Stmt{ps.Stmts[0], &b}, depth)
	}
	return Verdict{}
}

func lit(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	return w.Lit()
}

// artifactPathspecs: git ls-files limited to pathspecs that all name
// artifacts or leftovers ('*.orig', '*.pyc'), which is all it lists.
func artifactPathspecs(args []shell.Word) bool {
	n := 0
	for _, w := range shell.ParseOpts(args, "xX").Operands {
		if w.S == "--" {
			continue
		}
		// a directory pathspec names what lies below it (git ls-files -- build/)
		spec := strings.TrimSuffix(w.S, "/")
		if !artifactPattern(spec) && !strings.HasSuffix(spec, ".orig") && !strings.HasSuffix(spec, ".rej") {
			return false
		}
		n++
	}
	return n > 0
}

// hasProcSubst: a cheap test, before building the command, for a <(…)
// among the words or redirections.
func hasProcSubst(s *syntax.Stmt, call *syntax.CallExpr) bool {
	ws := call.Args
	for _, r := range s.Redirs {
		ws = append(ws[:len(ws):len(ws)], r.Word)
	}
	for _, w := range ws {
		if w != nil && len(w.Parts) == 1 {
			if _, ok := w.Parts[0].(*syntax.ProcSubst); ok {
				return true
			}
		}
	}
	return false
}

// checkForListFed judges `for x in $(A); do B "$x"; done` as `A | xargs B`:
// each command of the body that takes the loop variable as a word is judged
// with the words A prints in its place (for ns in $(kubectl get ns -o name);
// do kubectl delete "$ns"; done deletes every namespace).
func checkForListFed(f *syntax.ForClause, depth int) Verdict {
	it, ok := f.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil || len(it.Items) != 1 {
		return Verdict{}
	}
	cs, ok := firstPart(it.Items[0]).(*syntax.CmdSubst)
	if !ok || len(it.Items[0].Parts) != 1 || len(cs.Stmts) == 0 {
		return Verdict{}
	}
	list := shell.ResolveWord(&syntax.Word{Parts: []syntax.WordPart{cs}})
	var v Verdict
	for _, s := range f.Do {
		syntax.Walk(s, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || v.Dangerous {
				return !v.Dangerous
			}
			c, ok := shell.BuildCommand(call)
			if !ok {
				return true
			}
			fed := false
			for i, w := range c.Args {
				if i > 0 && w.Node != nil && loopVarWord(w.Node, it.Name.Value) {
					c.Args[i], fed = list, true
				}
			}
			if fed {
				v = checkCommand(c, depth)
			}
			return true
		})
	}
	return v
}

// loopVarWord: w is $name or "$name" (or ${name}).
func loopVarWord(w *syntax.Word, name string) bool {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	p, ok := parts[0].(*syntax.ParamExp)
	return ok && p.Param != nil && p.Param.Value == name && shell.SimpleParam(p)
}
