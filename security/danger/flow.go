package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Data flow a single simple command cannot show: literal text piped into an
// interpreter (echo 'DROP TABLE t' | psql, echo cm0gLXJmIC8= | base64 -d | sh),
// and a script downloaded and then run in the same input
// (curl -o i.sh URL && bash i.sh).

// checkPipedText judges literal text arriving on the stdin of a program that
// runs it: a shell, Python, a database client, redis-cli or mongosh.
func checkPipedText(c shell.Command, text string, depth int) Verdict {
	var v Verdict
	switch {
	case shell.SQLPrograms[c.Name]:
		v = classifySQL(shell.ForParser(text, SQL), depth+1)
	case c.Name == "redis-cli" || c.Name == "valkey-cli":
		v = checkRedis(shell.Command{Args: wordsOf(strings.Fields(text))}, depth)
	case c.Name == "mongo" || c.Name == "mongosh":
		v = hitIf(mongoDrop.MatchString(text), "mongo-drop")
	case c.Name == "at" || c.Name == "batch": // runs the lines later, through sh
		v = classifyShell(shell.ForParser(text, Shell), depth+1)
	case !readsCodeFromStdin(c):
	case shell.ShellPrograms[c.Name]:
		v = classifyShell(shell.ForParser(text, Shell), depth+1)
	case shell.PythonProgram.MatchString(c.Name):
		v = classifyPython(shell.ForParser(text, Python), depth+1)
	}
	return via(v, "a pipe")
}

func wordsOf(ss []string) []shell.Word {
	out := make([]shell.Word, len(ss))
	for i, s := range ss {
		out[i] = shell.Word{S: s}
	}
	return out
}

// downloads returns the base names of the files the downloaders in n write:
// curl -o F / -O, wget -O F or the URL's last segment, curl URL > F.
func downloads(n syntax.Node) map[string]bool {
	out := map[string]bool{}
	syntax.Walk(n, func(n syntax.Node) bool {
		s, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		c, _ := shell.BuildCommand(call)
		if !shell.Downloaders[c.Name] {
			return true
		}
		for _, f := range downloadTargets(c) {
			out[path.Base(f)] = true
		}
		for _, r := range s.Redirs {
			if shell.WriteOps[r.Op] {
				out[path.Base(shell.ResolveWord(r.Word).S)] = true
			}
		}
		return true
	})
	return out
}

func downloadTargets(c shell.Command) []string {
	var out []string
	if c.Name == "wget" {
		out = optionValues(c.Args[1:], "-O", "--output-document")
	} else {
		out = optionValues(c.Args[1:], "-o", "--output")
	}
	remoteName := c.Name == "wget" && len(out) == 0 || hasWord(c.Args, "-O") || hasWord(c.Args, "--remote-name")
	for _, w := range c.Args[1:] {
		if remoteName && shell.URLLike.MatchString(w.S) {
			out = append(out, strings.TrimSuffix(strings.SplitN(w.S, "?", 2)[0], "/"))
		}
	}
	return out
}

// runsDownloaded reports whether c runs one of the downloaded files: as the
// program itself (./i.sh), through an interpreter (bash i.sh, python3 i.py)
// or with source.
func runsDownloaded(c shell.Command, files map[string]bool) bool {
	if len(files) == 0 {
		return false
	}
	if strings.Contains(c.Args[0].S, "/") && files[path.Base(c.Args[0].S)] {
		return true
	}
	if !shell.ShellPrograms[c.Name] && !shell.PythonProgram.MatchString(c.Name) && !scriptInterps[c.Name] && c.Name != "source" && c.Name != "." {
		return false
	}
	ops := shell.ParseOpts(c.Args[1:], "o").Operands
	return len(ops) > 0 && files[path.Base(ops[0].S)]
}
