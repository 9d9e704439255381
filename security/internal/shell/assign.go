package shell

import (
	"path"
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
	substs := map[string]string{} // name → the value holding $(…), as typed
	dirs := map[string]string{}   // name → the directory P=$(pwd) captured
	for _, st := range f.Stmts {
		cwd, cdKnown := "", true // where the cd steps before an assignment moved to
		for _, step := range settlingSteps(st) {
			if d, ok := cdStep(step, cwd); ok {
				cwd, cdKnown = d, cdKnown && d != ""
				continue
			}
			for _, a := range settledAssigns(step) {
				if settled == nil {
					settled = map[string]uint{}
				}
				if _, seen := settled[a.Name.Value]; seen {
					continue
				}
				settled[a.Name.Value] = step.End().Offset()
				if pwdValue(a.Value) && cwd != "" && cdKnown {
					// cd ~/src/api && P=$(pwd) && cd .. && rm -rf "$P": the directory cd chose
					dirs[a.Name.Value] = cwd
				} else if text, ok := substValue(a.Value, input); ok {
					substs[a.Name.Value] = text
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
	for _, m := range []map[string]string{substs, dirs} {
		for name := range m {
			if _, lit := vars[name]; lit || assignCount(f, name) != 1 {
				delete(m, name)
			}
		}
	}
	used, ok := map[string]bool{}, true
	syntax.Walk(f, func(n syntax.Node) bool {
		if p, isParam := n.(*syntax.ParamExp); isParam && p.Param != nil {
			_, known := vars[p.Param.Value]
			_, subst := substs[p.Param.Value]
			_, dir := dirs[p.Param.Value]
			if known || subst || dir {
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
		if d, ok := dirs[name]; ok {
			out = substituteVar(out, name, d)
			continue
		}
		out = substituteVar(out, name, vars[name])
	}
	return out, out != input && !strings.Contains(out, DynMark)
}

// substValue is the text of a value computed by command substitutions and
// literals (H=$(…), G="$(git rev-parse --show-toplevel)/.git"), without
// its enclosing double quotes, to be put in place of the variable's uses.
func substValue(w *syntax.Word, input string) (string, bool) {
	if w == nil || !w.Pos().IsValid() || !w.End().IsValid() {
		return "", false
	}
	parts, start, end := w.Parts, int(w.Pos().Offset()), int(w.End().Offset())
	if dq, ok := parts[0].(*syntax.DblQuoted); ok && len(parts) == 1 {
		parts, start, end = dq.Parts, start+1, end-1
	}
	subst := false
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.CmdSubst:
			// a recovered parse may leave positions unset: take only a well-formed span
			subst = subst || p.Pos().IsValid() && p.End().IsValid()
		case *syntax.Lit:
		default:
			return "", false
		}
	}
	if !subst || start >= end || end > len(input) {
		return "", false
	}
	return input[start:end], true
}

// pwdValue: P=$(pwd), P="$PWD", P=${PWD}: the working directory.
func pwdValue(w *syntax.Word) bool {
	if w == nil || len(w.Parts) != 1 {
		return false
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	if pe, ok := p.(*syntax.ParamExp); ok {
		return SimpleParam(pe) && pe.Param.Value == "PWD"
	}
	call := SubstCall(w)
	return call != nil && ShallowLit(call.Args[0].Parts) == "pwd"
}

// SubstCall is the one simple command a word is made of the output of
// ($(cmd …) or "$(cmd …)"), or nil.
func SubstCall(w *syntax.Word) *syntax.CallExpr {
	st := SubstStmt(w)
	if st == nil {
		return nil
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	return call
}

// SubstStmt is the one statement a word is made of the output of, or nil.
func SubstStmt(w *syntax.Word) *syntax.Stmt {
	if w == nil || len(w.Parts) != 1 {
		return nil
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	cs, ok := p.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return nil
	}
	return cs.Stmts[0]
}

// settlingSteps are the steps of st's && chain, in order, up to the first
// that may decide whether a later assignment runs ([ -z "$D" ] && D=build):
// only cd, pushd, mkdir and assignments come before an assignment that
// settles a variable.
func settlingSteps(st *syntax.Stmt) []*syntax.Stmt {
	var steps []*syntax.Stmt
	var walk func(s *syntax.Stmt)
	walk = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt {
			walk(b.X)
			walk(b.Y)
			return
		}
		steps = append(steps, s)
	}
	walk(st)
	for i, s := range steps {
		if _, cd := cdStep(s, ""); !cd && len(settledAssigns(s)) == 0 && !isCall(s, "mkdir") {
			return steps[:i+1]
		}
	}
	return steps
}

// cdStep: a cd or pushd step and the directory it moves to from cwd ("" when
// it cannot be told: a run-time or relative target from an unknown place).
func cdStep(s *syntax.Stmt, cwd string) (string, bool) {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(call.Assigns) != 0 {
		return "", false
	}
	if name := ShallowLit(call.Args[0].Parts); name != "cd" && name != "pushd" {
		return "", false
	}
	switch {
	case len(call.Args) == 1:
		return "~", true
	case len(call.Args) != 2:
		return "", true
	}
	w := ResolveWord(call.Args[1])
	switch {
	case w.Dyn() || w.S == "-" || strings.HasPrefix(w.S, "./~"):
		return "", true
	case strings.HasPrefix(w.S, "/") || w.S == "~" || strings.HasPrefix(w.S, "~/"):
		return path.Clean(w.S), true
	case cwd == "":
		return "", true
	}
	return path.Join(cwd, w.S), true
}

func isCall(s *syntax.Stmt, name string) bool {
	call, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) > 0 && ShallowLit(call.Args[0].Parts) == name
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

// MktempDir is the path SubstituteTemp puts for a variable holding
// mktemp's output: a fresh name under /tmp, as mktemp gives by default.
const MktempDir = "/tmp/tmp.mktemp"

// SubstituteTemp rewrites input with MktempDir in place of $NAME and
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
		out = re.ReplaceAllLiteralString(out, MktempDir)
	}
	return out, out != input
}

// mktempValue: the word is exactly $(mktemp [-d] [-t] [TEMPLATE]).
func mktempValue(w *syntax.Word) bool {
	call := SubstCall(w)
	if call == nil || ShallowLit(call.Args[0].Parts) != "mktemp" {
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
