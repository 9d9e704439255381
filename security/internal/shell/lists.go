package shell

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Lists and aliases set in the same input and then run as a command:
// a=(rm -rf ~); "${a[@]}", set -- rm -rf; "$@" ~, alias x='rm -rf'; x ~.

// SubstituteLists rewrites input with the literal elements of the arrays and
// positional parameters it sets, and the aliases it defines, in place of
// their uses, as bash would expand them. False when nothing changed.
func SubstituteLists(f *syntax.File, input string) (string, bool) {
	out := input
	for name, elems := range literalLists(f) {
		var pat string
		if name == "@" {
			pat = `"?\$(?:@|\*|\{[@*]\})"?`
		} else {
			pat = `"?\$\{` + regexp.QuoteMeta(name) + `\[[@*]\]\}"?`
		}
		esc := make([]string, len(elems))
		for i, e := range elems {
			esc[i] = shellMeta.ReplaceAllStringFunc(e, func(s string) string { return `\` + s })
		}
		out = regexp.MustCompile(pat).ReplaceAllLiteralString(out, strings.Join(esc, " "))
	}
	for name, val := range aliases(f) {
		re := regexp.MustCompile(`(^|[;&|(]\s*|\n\s*)` + regexp.QuoteMeta(name) + `(\s|$|;)`)
		out = re.ReplaceAllString(out, "${1}"+strings.ReplaceAll(val, "$", "$$")+"${2}")
	}
	return out, out != input
}

// literalLists: arrays assigned once with literal elements, and "@" for a
// single `set -- literal…`.
func literalLists(f *syntax.File) map[string][]string {
	lists := map[string][]string{}
	seen := map[string]int{}
	put := func(name string, ws []*syntax.Word) {
		seen[name]++
		var elems []string
		for _, w := range ws {
			r := ResolveWord(w)
			if r.Dyn() {
				seen[name]++ // unknown: drop below
				return
			}
			elems = append(elems, r.S)
		}
		lists[name] = elems
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && n.Array != nil && !n.Append {
				var ws []*syntax.Word
				for _, e := range n.Array.Elems {
					if e.Index != nil {
						seen[n.Name.Value] += 2
						return true
					}
					ws = append(ws, e.Value)
				}
				put(n.Name.Value, ws)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 2 && ShallowLit(n.Args[0].Parts) == "set" && ShallowLit(n.Args[1].Parts) == "--" {
				put("@", n.Args[2:])
			}
		}
		return true
	})
	for name, k := range seen {
		if k != 1 {
			delete(lists, name)
		}
	}
	return lists
}

var aliasName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// aliases defined once with a literal value: alias x='rm -rf'.
func aliases(f *syntax.File) map[string]string {
	out := map[string]string{}
	seen := map[string]int{}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) < 2 || ShallowLit(call.Args[0].Parts) != "alias" {
			return true
		}
		for _, a := range call.Args[1:] {
			w := ResolveWord(a)
			name, val, ok := strings.Cut(w.S, "=")
			if !ok || w.Dyn() || !aliasName.MatchString(name) {
				continue
			}
			seen[name]++
			out[name] = val
		}
		return true
	})
	for name, k := range seen {
		if k != 1 {
			delete(out, name)
		}
	}
	return out
}
