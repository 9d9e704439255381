package security

import (
	"encoding/base64"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Text that flows through pipes and redirections, which the classifier and
// the policy both follow.

// pipeline flattens a | b | c into its stages.
func pipeline(b *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	for _, s := range []*syntax.Stmt{b.X, b.Y} {
		if s == nil {
			continue
		}
		if inner, ok := s.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			out = append(out, pipeline(inner)...)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// writeOps are the redirections that write to their target.
var writeOps = map[syntax.RedirOperator]bool{
	syntax.RdrOut: true, syntax.AppOut: true, syntax.RdrInOut: true, syntax.RdrClob: true, syntax.AppClob: true,
	syntax.RdrAll: true, syntax.RdrAllClob: true, syntax.AppAll: true, syntax.AppAllClob: true, syntax.DplOut: true,
}

// stdinText is the literal text a pipeline stage writes to its stdout, when
// it can be known without running anything: echo, printf without
// conversions, base64 -d of known text, or a here-string/here-document fed
// to cat or base64.
func stdinText(c command, redirs []*syntax.Redirect, in string, known bool) (string, bool) {
	if body, ok := hereText(redirs); ok {
		in, known = body, true
	}
	switch c.name {
	case "echo":
		args := lits(c.args[1:])
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-ne" || args[0] == "-en") {
			args = args[1:]
		}
		out := strings.Join(args, " ")
		return out, !strings.Contains(out, dynMark)
	case "printf":
		if len(c.args) < 2 {
			return "", false
		}
		f := c.args[1].s
		if f == "%s" || f == `%s\n` {
			return strings.Join(lits(c.args[2:]), " "), true
		}
		return ansiC(f), !strings.ContainsAny(f, "%"+dynMark)
	case "base64":
		o := parseOpts(c.args[1:], "w")
		if !known || !o.has("dD", "decode") {
			return "", false
		}
		return decodeBase64(in)
	case "cat":
		return in, known && len(c.args) == 1
	}
	return "", false
}

// hereText is the body of the here-document or here-string among rs.
func hereText(rs []*syntax.Redirect) (string, bool) {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			return resolveWord(r.Hdoc).s, true
		case syntax.WordHdoc:
			return resolveWord(r.Word).s, true
		}
	}
	return "", false
}

// decodeBase64 decodes s in any of the usual base64 alphabets, ignoring
// white space.
func decodeBase64(s string) (string, bool) {
	s = strings.Join(strings.Fields(s), "")
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return string(b), true
		}
	}
	return "", false
}
