package danger

import (
	"path"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// mv run once for each of many files, onto one name: for f in *.go; do mv
// "$f" ../internal; done renames every file to ../internal in turn when no
// such directory exists, so all but the last are lost. The same holds for
// find -exec mv {} DEST \;, and for a listing of such files fed to xargs
// -I{} mv {} DEST or to while read f; do mv "$f" DEST; done. A destination written
// as a directory (DEST/, -t DEST, made by mkdir earlier in the line), mv -n,
// -i or -b, or a name built from the file's own, keeps every file.

// checkMoveEach judges the loops and find commands of f.
func checkMoveEach(f *syntax.File) Verdict {
	made := map[string]bool{}
	var v Verdict
	syntax.Walk(f, func(n syntax.Node) bool {
		if v.Dangerous {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			c, ok := shell.BuildCommand(n)
			if !ok {
				return true
			}
			switch {
			case c.Name == "mkdir":
				for _, w := range shell.ParseOpts(c.Args[1:], "m").Operands {
					made[path.Clean(fsPath(w))] = true
				}
			case c.Name == "find":
				v = findMovesEach(c, made)
			}
		case *syntax.ForClause:
			v = loopMovesEach(n, made)
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe {
				v = pipeMovesEach(shell.Pipeline(n), made)
			}
		}
		return true
	})
	return v
}

// pipeMovesEach: a listing of source files (find -name '*.go', ls *.go,
// git ls-files '*.go') fed to xargs -I{} mv {} DEST or to a while read f
// loop that runs mv "$f" DEST.
func pipeMovesEach(stages []*syntax.Stmt, made map[string]bool) Verdict {
	sources := false
	for _, st := range stages[:len(stages)-1] {
		if call, ok := st.Cmd.(*syntax.CallExpr); ok {
			if c, ok := shell.BuildCommand(call); ok && listsSources(c) {
				sources = true
			}
		}
	}
	if !sources {
		return Verdict{}
	}
	switch last := stages[len(stages)-1].Cmd.(type) {
	case *syntax.CallExpr:
		c, ok := shell.BuildCommand(last)
		if ok && c.Name == "mv" && c.Replace != "" && movesOntoOne(c, func(w shell.Word) bool { return w.S == c.Replace }, made) {
			return hit("move-onto-one")
		}
	case *syntax.WhileClause:
		if len(last.Cond) == 1 {
			if call, ok := last.Cond[0].Cmd.(*syntax.CallExpr); ok && len(call.Args) > 1 && shell.ShallowLit(call.Args[0].Parts) == "read" {
				return bodyMovesEach(last.Do, shell.ShallowLit(call.Args[len(call.Args)-1].Parts), made)
			}
		}
	}
	return Verdict{}
}

// listsSources: find with a -name of a language's files, or ls / git
// ls-files of such a glob.
func listsSources(c shell.Command) bool {
	lits := shell.Lits(c.Args)
	for i, l := range lits {
		switch {
		case c.Name == "find" && (l == "-name" || l == "-iname") && i+1 < len(lits) && sourceGlob(lits[i+1]):
			return true
		case (c.Name == "ls" || c.Name == "git" && slices.Contains(lits, "ls-files")) && i > 0 && sourceGlob(path.Base(l)):
			return true
		}
	}
	return false
}

func loopMovesEach(f *syntax.ForClause, made map[string]bool) Verdict {
	it, ok := f.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil || !slicesAny(it.Items, func(w *syntax.Word) bool { return sourceGlob(path.Base(shell.ResolveWord(w).S)) }) {
		return Verdict{}
	}
	return bodyMovesEach(f.Do, it.Name.Value, made)
}

// bodyMovesEach: a loop body that runs mv "$NAME" DEST.
func bodyMovesEach(body []*syntax.Stmt, name string, made map[string]bool) Verdict {
	isItem := func(w shell.Word) bool {
		if w.Node == nil || len(w.Node.Parts) != 1 {
			return false
		}
		p := w.Node.Parts[0]
		if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
			p = dq.Parts[0]
		}
		pe, ok := p.(*syntax.ParamExp)
		return ok && shell.SimpleParam(pe) && pe.Param.Value == name
	}
	var v Verdict
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			if call, ok := n.(*syntax.CallExpr); ok && !v.Dangerous {
				if c, ok := shell.BuildCommand(call); ok && c.Name == "mv" && movesOntoOne(c, isItem, made) {
					v = hit("move-onto-one")
				}
			}
			return !v.Dangerous
		})
	}
	return v
}

func slicesAny(ws []*syntax.Word, f func(*syntax.Word) bool) bool {
	for _, w := range ws {
		if f(w) {
			return true
		}
	}
	return false
}

// findMovesEach: find … -name 'SOURCE-GLOB' … -exec mv {} DEST \;
func findMovesEach(c shell.Command, made map[string]bool) Verdict {
	_, expr := findSplit(c.Args[1:])
	sources := false
	for i, w := range expr {
		if (w.S == "-name" || w.S == "-iname") && i+1 < len(expr) && sourceGlob(expr[i+1].S) {
			sources = true
		}
	}
	if !sources {
		return Verdict{}
	}
	for i, w := range expr {
		if w.S != "-exec" && w.S != "-execdir" {
			continue
		}
		var sub []shell.Word
		perFile := false
		for _, a := range expr[i+1:] {
			if a.S == ";" || a.S == "+" {
				perFile = a.S == ";"
				break
			}
			sub = append(sub, a)
		}
		if !perFile || len(sub) == 0 || path.Base(sub[0].S) != "mv" {
			continue
		}
		mv := shell.Command{Name: "mv", Args: sub}
		if movesOntoOne(mv, func(w shell.Word) bool { return w.S == "{}" }, made) {
			return hit("move-onto-one")
		}
	}
	return Verdict{}
}

// movesOntoOne: mv ITEM DEST, DEST one fixed name not marked as a directory,
// with no option that keeps an existing file.
func movesOntoOne(c shell.Command, isItem func(shell.Word) bool, made map[string]bool) bool {
	var ops []shell.Word
	for _, w := range c.Args[1:] {
		switch {
		case w.S == "--":
		case strings.HasPrefix(w.S, "--"):
			if strings.HasPrefix(w.S, "--target") || strings.HasPrefix(w.S, "--backup") || w.S == "--no-clobber" || w.S == "--interactive" || w.S == "--update" {
				return false
			}
		case strings.HasPrefix(w.S, "-") && len(w.S) > 1:
			if strings.ContainsAny(w.S[1:], "tnibuS") {
				return false
			}
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) != 2 || !isItem(ops[0]) || isItem(ops[1]) {
		return false
	}
	raw, dest := ops[1].S, fsPath(ops[1])
	if dest == "" || strings.Contains(dest, shell.DynMark) || strings.Contains(raw, shell.DynMark) || strings.HasSuffix(raw, "/") ||
		strings.HasSuffix(raw, "/.") || strings.ContainsAny(dest, "*?[{") {
		return false
	}
	clean := path.Clean(dest)
	return clean != "." && clean != ".." && clean != "~" && clean != "/" && !strings.HasSuffix(clean, "/..") &&
		!made[clean] && !discardDest(clean) && clean != "/dev/null"
}
