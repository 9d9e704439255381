package danger

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Data flow a single simple command cannot show: literal text piped into an
// interpreter (echo 'DROP TABLE t' | psql, echo cm0gLXJmIC8= | base64 -d | sh),
// and a script downloaded and then run in the same input
// (curl -o i.sh URL && bash i.sh).

// checkPipedText judges literal text arriving on the stdin of a program that
// runs it: a shell, Python, node, ruby or irb, a database client, redis-cli or mongosh.
func checkPipedText(c shell.Command, text string, depth int) Verdict {
	var v Verdict
	c = stdinReader(c)
	switch {
	case (shell.SQLPrograms[c.Name] || c.Name == "mongo" || c.Name == "mongosh") && testDatabases(c):
		// a test suite's database, named on the client's command line
	case shell.SQLPrograms[c.Name]:
		v = classifySQL(shell.ForParser(text, SQL), depth+1)
	case c.Name == "redis-cli" || c.Name == "valkey-cli" || c.Name == "keydb-cli":
		if !redisDisposable(c.Args[1:]) {
			v = classifyRedis(text, depth)
		}
	case c.Name == "mongo" || c.Name == "mongosh":
		v = hitIf(mongoDrops(text), "mongo-drop")
	case storePipeReceivers[c.Name]:
		v = checkStorePipe(c, text, depth)
	case c.Name == "at" || c.Name == "batch": // runs the lines later, through sh
		v = classifyShell(shell.ForParser(text, Shell), depth+1)
	case ldifTools[c.Name]: // printf 'dn: …\ndelete: member\n' | ldapmodify
		v = judgeLDIF(text)
	case c.Name == "tee": // echo '…' | sudo tee -a /etc/profile.d/x.sh
		v = teeStartup(c, text, depth)
	case !readsCodeFromStdin(c):
	case shell.ShellPrograms[c.Name]:
		v = classifyShell(shell.ForParser(text, Shell), depth+1)
	case shell.PythonProgram.MatchString(c.Name):
		v = classifyPython(shell.ForParser(text, Python), depth+1)
	case rubyConsole(c):
		v = classifyRuby(text, depth+1)
	case scriptInterps[c.Name]:
		v = judgeScriptCode(c.Name, text, depth)
	}
	return via(v, "a pipe")
}

// checkPipedQueries: psql -Atc "SELECT 'DROP TABLE ' || tablename …" | psql
// runs each row the first client prints as a statement in the second, as
// \gexec does; text filters between them (grep, sed) pass the rows on.
func checkPipedQueries(stages []*syntax.Stmt, depth int) Verdict {
	cmds, ok := shell.StageCommands(stages)
	if !ok {
		return Verdict{}
	}
	for i := 1; i < len(cmds); i++ {
		runner := stdinReader(cmds[i])
		if !shell.SQLPrograms[runner.Name] || testDatabases(runner) {
			continue
		}
		j := i - 1
		for j > 0 && passesNames[cmds[j].Name] {
			j--
		}
		gen := cmds[j]
		if inner, _, ok := containerExec(gen); ok && len(inner) > 0 {
			gen = shell.Unwrap(inner)
		}
		if !shell.SQLPrograms[gen.Name] {
			continue
		}
		for _, q := range sqlQueries(gen) {
			if v := checkGeneratedSQL(q, depth); v.Dangerous {
				return via(v, "a query's output piped into "+runner.Name)
			}
		}
	}
	return Verdict{}
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
		if b, ok := n.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe {
			fetched := false
			for _, st := range shell.Pipeline(b) {
				call, ok := st.Cmd.(*syntax.CallExpr)
				if !ok {
					continue
				}
				c, _ := shell.BuildCommand(call)
				if d, ok := extractDir(c); ok && fetched {
					out["dir:"+d] = true // curl … | tar xz -C /tmp: what it unpacks is downloaded
				}
				fetched = fetched || shell.Downloaders[c.Name] && len(c.Args) > 1
			}
			return true
		}
		s, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		c, _ := shell.BuildCommand(call)
		if d, ok := extractDir(c); ok {
			for _, f := range append(optionValues(c.Args[1:], "-f", "--file"), shell.Lits(c.Args[1:])...) {
				if out[path.Base(f)] && strings.ContainsAny(path.Base(f), ".") {
					out["dir:"+d] = true // tar xzf a.tgz -C /tmp, a.tgz downloaded earlier
				}
			}
		}
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

var curlBundle = regexp.MustCompile(`^-[a-zA-Z]{2,}$`)

func downloadTargets(c shell.Command) []string {
	var out []string
	if c.Name == "wget" {
		out = optionValues(c.Args[1:], "-O", "--output-document")
	} else {
		out = optionValues(c.Args[1:], "-o", "--output")
	}
	remoteName := c.Name == "wget" && len(out) == 0 || hasWord(c.Args, "-O") || hasWord(c.Args, "--remote-name")
	if c.Name != "wget" {
		// curl's short options bundled: -sO, -fsSLO (the remote name), -sLo FILE
		for i, w := range c.Args[1:] {
			if !curlBundle.MatchString(w.S) {
				continue
			}
			remoteName = remoteName || strings.Contains(w.S, "O")
			if strings.HasSuffix(w.S, "o") && i+2 < len(c.Args) {
				out = append(out, c.Args[i+2].S)
			}
		}
	}
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
	if strings.Contains(c.Args[0].S, "/") && (files[path.Base(c.Args[0].S)] || inExtracted(c.Args[0].S, files)) {
		return true
	}
	if !shell.ShellPrograms[c.Name] && !shell.PythonProgram.MatchString(c.Name) && !scriptInterps[c.Name] && c.Name != "source" && c.Name != "." {
		return false
	}
	ops := shell.ParseOpts(c.Args[1:], "o").Operands
	return len(ops) > 0 && files[path.Base(ops[0].S)]
}

// extractDir: the directory tar or unzip unpacks into (-C DIR, -d DIR, or
// the working directory), when c extracts.
func extractDir(c shell.Command) (string, bool) {
	switch c.Name {
	case "tar", "bsdtar", "gtar":
		if len(c.Args) < 2 || !strings.ContainsAny(strings.TrimPrefix(c.Args[1].S, "-"), "x") && !hasWord(c.Args, "--extract") && !hasWord(c.Args, "-x") {
			return "", false
		}
		if ds := optionValues(c.Args[1:], "-C", "--directory"); len(ds) > 0 {
			return path.Clean(ds[0]), true
		}
	case "unzip":
		if ds := optionValues(c.Args[1:], "-d", ""); len(ds) > 0 {
			return path.Clean(ds[0]), true
		}
	default:
		return "", false
	}
	return ".", true
}

// inExtracted: prog lies under a directory a download was unpacked into.
func inExtracted(prog string, files map[string]bool) bool {
	p := path.Clean(prog)
	for f := range files {
		if d, ok := strings.CutPrefix(f, "dir:"); ok && (d == "." && !strings.HasPrefix(p, "/") || strings.HasPrefix(p, d+"/")) {
			return true
		}
	}
	return false
}
