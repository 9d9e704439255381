package security

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Data flow a single simple command cannot show: literal text piped into an
// interpreter (echo 'DROP TABLE t' | psql, echo cm0gLXJmIC8= | base64 -d | sh),
// and a script downloaded and then run in the same input
// (curl -o i.sh URL && bash i.sh).

// checkPipedText judges literal text arriving on the stdin of a program that
// runs it: a shell, Python, a database client, redis-cli or mongosh.
func checkPipedText(c command, text string, depth int) Verdict {
	var v Verdict
	switch {
	case sqlPrograms[c.name]:
		v = classifySQL(forParser(text, SQL), depth+1)
	case c.name == "redis-cli" || c.name == "valkey-cli":
		v = checkRedis(command{args: wordsOf(strings.Fields(text))}, depth)
	case c.name == "mongo" || c.name == "mongosh":
		v = hitIf(mongoDrop.MatchString(text), "mongo-drop")
	case !readsCodeFromStdin(c):
	case shellPrograms[c.name]:
		v = classifyShell(forParser(text, Shell), depth+1)
	case pythonProgram.MatchString(c.name):
		v = classifyPython(forParser(text, Python), depth+1)
	}
	return via(v, "a pipe")
}

func wordsOf(ss []string) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = word{s: s}
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
		c, _ := buildCommand(call)
		if !downloaders[c.name] {
			return true
		}
		for _, f := range downloadTargets(c) {
			out[path.Base(f)] = true
		}
		for _, r := range s.Redirs {
			if writeOps[r.Op] {
				out[path.Base(resolveWord(r.Word).s)] = true
			}
		}
		return true
	})
	return out
}

func downloadTargets(c command) []string {
	var out []string
	if c.name == "wget" {
		out = optionValues(c.args[1:], "-O", "--output-document")
	} else {
		out = optionValues(c.args[1:], "-o", "--output")
	}
	remoteName := c.name == "wget" && len(out) == 0 || hasWord(c.args, "-O") || hasWord(c.args, "--remote-name")
	for _, w := range c.args[1:] {
		if remoteName && urlLike.MatchString(w.s) {
			out = append(out, strings.TrimSuffix(strings.SplitN(w.s, "?", 2)[0], "/"))
		}
	}
	return out
}

// runsDownloaded reports whether c runs one of the downloaded files: as the
// program itself (./i.sh), through an interpreter (bash i.sh, python3 i.py)
// or with source.
func runsDownloaded(c command, files map[string]bool) bool {
	if len(files) == 0 {
		return false
	}
	if strings.Contains(c.args[0].s, "/") && files[path.Base(c.args[0].s)] {
		return true
	}
	if !shellPrograms[c.name] && !pythonProgram.MatchString(c.name) && !scriptInterps[c.name] && c.name != "source" && c.name != "." {
		return false
	}
	ops := parseOpts(c.args[1:], "o").operands
	return len(ops) > 0 && files[path.Base(ops[0].s)]
}
