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
		re := regexp.MustCompile(`\$(?:\{` + regexp.QuoteMeta(name) + `\}|` + regexp.QuoteMeta(name) + `\b)`)
		esc := shellMeta.ReplaceAllStringFunc(val, func(s string) string { return `\` + s })
		out = re.ReplaceAllLiteralString(out, esc)
	}
	return out, out != input && !strings.Contains(out, DynMark)
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
