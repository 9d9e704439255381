package shell

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Variables assigned in the same input: RM="rm -rf"; $RM / is rm -rf /.

// literalAssignments returns the variables f assigns exactly one literal
// value to (NAME=value, export/local/declare/readonly NAME=value, prefix
// assignments, for NAME in one-word lists). A name that is also assigned a
// run-time value or a second value is left out: its value is unknown.
func literalAssignments(f syntax.Node) map[string]string {
	vals := map[string]string{}
	unknown := map[string]bool{}
	set := func(name, val string, known bool) {
		if old, seen := vals[name]; !known || (seen && old != val) {
			unknown[name] = true
		}
		vals[name] = val
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil || n.Array != nil || n.Index != nil || n.Naked {
				return true
			}
			w := ResolveWord(n.Value)
			set(n.Name.Value, w.S, !n.Append && !w.Dyn())
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				set(wi.Name.Value, "", false)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && (ShallowLit(n.Args[0].Parts) == "read" || ShallowLit(n.Args[0].Parts) == "mapfile") {
				for _, a := range n.Args[1:] {
					set(ShallowLit(a.Parts), "", false)
				}
			}
		}
		return true
	})
	for name := range unknown {
		delete(vals, name)
	}
	return vals
}

var shellMeta = regexp.MustCompile("[;&|<>()$`\"'\\\\\n]")

// SubstituteAssignments rewrites input with the literal values of the
// variables it assigns in place of $NAME and ${NAME}. Values are escaped so
// that, as in bash, they split into words but never into operators.
func SubstituteAssignments(f *syntax.File, input string) (string, bool) {
	vars := literalAssignments(f)
	out := input
	ifs, split := vars["IFS"] // IFS=_; c=rm_-rf_~; $c: the value splits on IFS
	for name, val := range vars {
		if split && name != "IFS" && ifs != "" {
			val = strings.Join(strings.FieldsFunc(val, func(r rune) bool { return strings.ContainsRune(ifs, r) }), " ")
		}
		out = substituteVar(out, name, val)
	}
	return out, out != input && !strings.Contains(out, DynMark)
}

// substituteVar puts val in place of $NAME, ${NAME} and the forms that test
// it (${NAME:?msg}, ${NAME:-default}, ${NAME+alt}…), as bash expands them
// when NAME holds val. A default or alternative holding quotes or
// expansions is left alone.
func substituteVar(text, name, val string) string {
	re := regexp.MustCompile(`\$(?:\{` + regexp.QuoteMeta(name) + "(?:(:?[-=?+])([^}$\"'`\\\\]*))?\\}|" + regexp.QuoteMeta(name) + `\b)`)
	esc := shellMeta.ReplaceAllStringFunc(val, func(s string) string { return `\` + s })
	if val == "~" || strings.HasPrefix(val, "~/") {
		esc = "$HOME" + esc[1:] // D=~/proj (expanded when assigned); "$D" is the home's, quoted or not
	}
	return re.ReplaceAllStringFunc(text, func(m string) string {
		sub := re.FindStringSubmatch(m)
		op, word := sub[1], sub[2]
		switch {
		case op == "" || op == "?" || op == ":?" || op == "-" || op == "=":
			return esc // set (and, for :?, bash runs nothing when it is empty)
		case op == ":-" || op == ":=":
			if val == "" {
				return word
			}
			return esc
		case op == "+" || val != "":
			return word
		}
		return "" // ${NAME:+alt} of an empty NAME
	})
}

// SubstituteSettled is SubstituteAssignments for inputs whose every use of a
// variable it substitutes comes after a statement that always assigns it
// first (NAME=value or export NAME=value on its own, or as the first step of
// an && chain, at the top level), so the literal value is the only value the
// use can see: the substituted input is judged instead of the input.
// PREFIX=.cache/pip; rm -rf ~/"${PREFIX:?}" deletes ~/.cache/pip and nothing
// else; PREFIX=; rm -rf ~/"$PREFIX" deletes the home. An assignment behind a
// test ([ -z "$D" ] && D=build) or inside a loop or function is not settled.
func SubstituteSettled(f *syntax.File, input string) (string, bool) {
	var settled map[string]uint   // name → offset after which it holds its value
	substs := map[string]string{} // name → the $(…) it is assigned, as typed
	for _, st := range f.Stmts {
		first := st
		for {
			b, ok := first.Cmd.(*syntax.BinaryCmd)
			if !ok || b.Op != syntax.AndStmt {
				break
			}
			first = b.X
		}
		for _, a := range settledAssigns(first) {
			if settled == nil {
				settled = map[string]uint{}
			}
			if _, seen := settled[a.Name.Value]; !seen {
				settled[a.Name.Value] = first.End().Offset()
				if cs := onlySubst(a.Value); cs != nil && cs.Pos().IsValid() && cs.End().IsValid() {
					// a recovered parse may leave positions unset: take only a well-formed span
					if start, end := int(cs.Pos().Offset()), int(cs.End().Offset()); start < end && end <= len(input) {
						substs[a.Name.Value] = input[start:end]
					}
				}
			}
		}
	}
	if settled == nil {
		return input, false
	}
	vars := literalAssignments(f)
	if vars["IFS"] != "" {
		return input, false
	}
	for name := range substs {
		if _, lit := vars[name]; lit || assignCount(f, name) != 1 {
			delete(substs, name)
		}
	}
	used, ok := map[string]bool{}, true
	syntax.Walk(f, func(n syntax.Node) bool {
		if p, isParam := n.(*syntax.ParamExp); isParam && p.Param != nil {
			_, known := vars[p.Param.Value]
			_, subst := substs[p.Param.Value]
			if known || subst {
				end, isSettled := settled[p.Param.Value]
				ok = ok && isSettled && p.Pos().Offset() >= end
				used[p.Param.Value] = true
			}
		}
		return ok
	})
	if !ok || len(used) == 0 {
		return input, false
	}
	out := input
	for name := range used {
		if cs, ok := substs[name]; ok {
			// H=$(getent passwd "$USER" | cut -d: -f6); rm -rf "$H": the
			// substitution in its place, judged as rm -rf "$(…)" is
			re := regexp.MustCompile(`\$(?:\{` + regexp.QuoteMeta(name) + `(?::?\?[^}$"'\x60]*)?\}|` + regexp.QuoteMeta(name) + `\b)`)
			out = re.ReplaceAllLiteralString(out, cs)
			continue
		}
		out = substituteVar(out, name, vars[name])
	}
	return out, out != input && !strings.Contains(out, DynMark)
}

// onlySubst is the command substitution a value is made of alone
// (H=$(…) or H="$(…)"), or nil.
func onlySubst(w *syntax.Word) *syntax.CmdSubst {
	if w == nil || len(w.Parts) != 1 {
		return nil
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	cs, _ := p.(*syntax.CmdSubst)
	return cs
}

// assignCount is how many times f sets name (assignments, loops, read).
func assignCount(f *syntax.File, name string) int {
	n := 0
	syntax.Walk(f, func(node syntax.Node) bool {
		switch node := node.(type) {
		case *syntax.Assign:
			if node.Name != nil && node.Name.Value == name {
				n++
			}
		case *syntax.ForClause:
			if wi, ok := node.Loop.(*syntax.WordIter); ok && wi.Name != nil && wi.Name.Value == name {
				n += 2
			}
		case *syntax.CallExpr:
			if len(node.Args) > 0 && (ShallowLit(node.Args[0].Parts) == "read" || ShallowLit(node.Args[0].Parts) == "mapfile") {
				n += 2
			}
		}
		return true
	})
	return n
}

// settledAssigns: the names a statement assigns with nothing else run
// (NAME=value, export/declare/readonly NAME=value).
func settledAssigns(st *syntax.Stmt) []*syntax.Assign {
	var names []*syntax.Assign
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) != 0 {
			return nil
		}
		for _, a := range c.Assigns {
			if a.Name != nil && !a.Append && a.Array == nil && a.Index == nil {
				names = append(names, a)
			}
		}
	case *syntax.DeclClause:
		if v := c.Variant.Value; v != "export" && v != "declare" && v != "readonly" && v != "typeset" {
			return nil
		}
		for _, a := range c.Args {
			if a.Name != nil && !a.Naked && !a.Append && a.Array == nil && a.Index == nil {
				names = append(names, a)
			}
		}
	}
	if len(st.Redirs) != 0 || st.Background || st.Negated {
		return nil
	}
	return names
}

// mktempDir is the path SubstituteTemp puts for a variable holding
// mktemp's output: a fresh name under /tmp, as mktemp gives by default.
const mktempDir = "/tmp/tmp.mktemp"

// SubstituteTemp rewrites input with mktempDir in place of $NAME and
// ${NAME} for each variable the input assigns once, from $(mktemp …) with
// neither a directory (-p, --tmpdir=DIR) nor a template holding a "/", and
// never otherwise. Such a variable names a directory the input just made,
// whatever the name suggests (WORKSPACE=$(mktemp -d) is not the CI
// checkout that $WORKSPACE usually is).
func SubstituteTemp(f *syntax.File, input string) (string, bool) {
	count := map[string]int{}
	temp := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil {
				count[n.Name.Value]++
				temp[n.Name.Value] = n.Value != nil && !n.Append && mktempValue(n.Value)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && (ShallowLit(n.Args[0].Parts) == "read" || ShallowLit(n.Args[0].Parts) == "mapfile") {
				for _, a := range n.Args[1:] {
					count[ShallowLit(a.Parts)] += 2
				}
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				count[wi.Name.Value] += 2
			}
		}
		return true
	})
	out := input
	for name, ok := range temp {
		if !ok || count[name] != 1 {
			continue
		}
		re := regexp.MustCompile(`\$(?:\{` + regexp.QuoteMeta(name) + `\}|` + regexp.QuoteMeta(name) + `\b)`)
		out = re.ReplaceAllLiteralString(out, mktempDir)
	}
	return out, out != input
}

// mktempValue: the word is exactly $(mktemp [-d] [-t] [TEMPLATE]).
func mktempValue(w *syntax.Word) bool {
	if len(w.Parts) == 1 {
		if dq, ok := w.Parts[0].(*syntax.DblQuoted); ok {
			return mktempValue(&syntax.Word{Parts: dq.Parts})
		}
	}
	if len(w.Parts) != 1 {
		return false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || ShallowLit(call.Args[0].Parts) != "mktemp" {
		return false
	}
	for _, a := range call.Args[1:] {
		s := ShallowLit(a.Parts)
		if strings.Contains(s, DynMark) || strings.Contains(s, "/") || s == "-p" || strings.HasPrefix(s, "--tmpdir") ||
			strings.HasPrefix(s, "-") && strings.Contains(s, "p") {
			return false
		}
	}
	return true
}
