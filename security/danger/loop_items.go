package danger

import (
	"bytes"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	shexpand "mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// checkForItems: for x in A B C; do …$x…; done runs its body once for each
// listed word (braces expanded: /dev/sd{b,c}), so the body is judged with
// each in place of $x — dd of=$d over each disk, truncate -s 0 "$f" of each
// log. Loops over a command's output are checkForListFed's.
func checkForItems(f *syntax.ForClause, depth int) Verdict {
	it, ok := f.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil || len(it.Items) == 0 || depth >= shell.MaxDepth {
		return Verdict{}
	}
	if !bodyJudgesVar(f.Do, it.Name.Value) {
		return Verdict{} // gcc -c "$f": nothing the rules judge takes the variable
	}
	var items []string
	for _, w := range it.Items {
		if !literalWord(w) {
			return Verdict{}
		}
		c := &syntax.Word{Parts: slices.Clone(w.Parts)} // SplitBraces rewrites the word it is given
		syntax.SplitBraces(c)
		for e, err := range shexpand.BracesSeq(nil, c) {
			if err != nil || len(items) >= 32 {
				break
			}
			items = append(items, shell.ResolveWord(e).S)
		}
	}
	var body bytes.Buffer
	p := syntax.NewPrinter()
	for _, s := range f.Do {
		if err := p.Print(&body, s); err != nil {
			return Verdict{}
		}
		body.WriteString("\n")
	}
	ref := regexp.MustCompile(`\$(?:\{` + regexp.QuoteMeta(it.Name.Value) + `\}|` + regexp.QuoteMeta(it.Name.Value) + `\b)`)
	if !ref.Match(body.Bytes()) {
		return Verdict{}
	}
	for _, item := range items {
		text := ref.ReplaceAllLiteralString(body.String(), itemText(item))
		if v := classifyShell(text, depth+1); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// literalWord: a word with no expansions but globs.
func literalWord(w *syntax.Word) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
			ok = false
		}
		return ok
	})
	return ok
}

var itemSafe = regexp.MustCompile(`^[\w./*?~+:@%,=-]+$`)

// itemText: the item as it may stand inside or outside double quotes; the
// home the loop's word expanded ~ to stays the home inside "$f".
func itemText(s string) string {
	if itemSafe.MatchString(s) {
		if s == "~" || strings.HasPrefix(s, "~/") {
			return "$HOME" + s[1:]
		}
		return s
	}
	return "__item__"
}

// bodyJudgesVar: some command the rules have checks for takes $name in an
// argument, or a redirection writes to it.
func bodyJudgesVar(body []*syntax.Stmt, name string) bool {
	refs := func(n syntax.Node) bool {
		found := false
		syntax.Walk(n, func(n syntax.Node) bool {
			if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil && p.Param.Value == name {
				found = true
			}
			return !found
		})
		return found
	}
	found := false
	for _, s := range body {
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Redirect:
				found = found || n.Word != nil && refs(n.Word)
			case *syntax.CallExpr:
				checked := false // the program, or one a wrapper before it runs (sudo dd …)
				for _, a := range n.Args {
					if lit := a.Lit(); lit != "" {
						name := shell.ProgName(lit)
						checked = checked || commandChecks[name] != nil || hostChecks[name] != nil || interpreterCheck(name) != nil
					} else if checked && refs(a) {
						found = true
						break
					}
				}
			}
			return !found
		})
	}
	return found
}
