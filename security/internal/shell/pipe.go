package shell

import (
	"encoding/base64"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Text that flows through pipes and redirections, which the classifier and
// the policy both follow.

// Pipeline flattens a | b | c into its stages.
func Pipeline(b *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	for _, s := range []*syntax.Stmt{b.X, b.Y} {
		if s == nil {
			continue
		}
		if inner, ok := s.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			out = append(out, Pipeline(inner)...)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// Stages is st's pipeline stages (a | b, a |& b, flattened), or st alone when it
// is no pipeline.
func Stages(st *syntax.Stmt) []*syntax.Stmt {
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		return Pipeline(b)
	}
	return []*syntax.Stmt{st}
}

// StageCommands is each stage's command, or false when a stage is not a
// simple command.
func StageCommands(stages []*syntax.Stmt) ([]Command, bool) {
	cmds := make([]Command, 0, len(stages))
	for _, s := range stages {
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			return nil, false
		}
		c, ok := BuildCommand(call)
		if !ok {
			return nil, false
		}
		cmds = append(cmds, c)
	}
	return cmds, true
}

// WriteOps are the redirections that write to their target.
var WriteOps = map[syntax.RedirOperator]bool{
	syntax.RdrOut: true, syntax.AppOut: true, syntax.RdrInOut: true, syntax.RdrClob: true, syntax.AppClob: true,
	syntax.RdrAll: true, syntax.RdrAllClob: true, syntax.AppAll: true, syntax.AppAllClob: true, syntax.DplOut: true,
}

// StdinText is the literal text a pipeline stage writes to its stdout, when
// it can be known without running anything: echo, printf without
// conversions, base64 -d of known text, or a here-string/here-document fed
// to cat or base64.
func StdinText(c Command, redirs []*syntax.Redirect, in string, known bool) (string, bool) {
	if body, ok := HereText(redirs); ok {
		in, known = body, true
	}
	switch c.Name {
	case "echo":
		args := Lits(c.Args[1:])
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-ne" || args[0] == "-en") {
			args = args[1:]
		}
		out := strings.Join(args, " ")
		return out, !strings.Contains(out, DynMark)
	case "printf":
		if len(c.Args) < 2 {
			return "", false
		}
		f := c.Args[1].S
		if f == "%s" || f == `%s\n` {
			return strings.Join(Lits(c.Args[2:]), " "), true
		}
		return ANSIC(f), !strings.ContainsAny(f, "%"+DynMark)
	case "base64":
		o := ParseOpts(c.Args[1:], "w")
		if !known || !o.Has("dD", "decode") {
			return "", false
		}
		return decodeBase64(in)
	case "cat":
		return in, known && len(c.Args) == 1
	}
	if known {
		return decodedText(c, in)
	}
	return "", false
}

// HereText is the body of the here-document or here-string among rs.
func HereText(rs []*syntax.Redirect) (string, bool) {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			return ResolveWord(r.Hdoc).S, true
		case syntax.WordHdoc:
			return ResolveWord(r.Word).S, true
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
