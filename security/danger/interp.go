package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Checks for programs that run code handed to them: shells (bash -c, eval,
// source), ssh, su, Python, database clients, and interpreters fed by a pipe
// or a here-document.

var scriptInterps = shell.Set("perl", "ruby", "node", "php", "deno", "bun", "lua")

var jsInterps = shell.Set("node", "deno", "bun")

func interpreterCheck(name string) func(shell.Command, int) Verdict {
	switch {
	case strings.HasPrefix(name, "mkfs"):
		return checkMkfs
	case strings.EqualFold(name, "flushall"), strings.EqualFold(name, "flushdb"):
		return checkRedis
	case shell.ShellPrograms[name], name == "su":
		return checkShellInterp
	case name == "eval":
		return checkEval
	case name == "source", name == ".":
		return checkFetchedArgs
	case name == "ssh":
		return checkSSH
	case shell.PythonProgram.MatchString(name):
		return checkPythonInterp
	case shell.SQLPrograms[name]:
		return checkSQLClient
	case scriptInterps[name]:
		return checkScriptInterp
	}
	return nil
}

// checkFetchedArgs flags `bash <(curl ...)`, `source <(curl ...)` and the like.
func checkFetchedArgs(c shell.Command, depth int) Verdict {
	for _, w := range c.Args[1:] {
		if w.Fetched() {
			return hit("pipe-to-shell")
		}
	}
	return checkSubstCode(c, depth)
}

func checkShellInterp(c shell.Command, depth int) Verdict {
	if v := checkFetchedArgs(c, depth); v.Dangerous {
		return v
	}
	script, ok := shell.DashC(c.Args[1:], 'c', "command")
	if !ok {
		return Verdict{}
	}
	if v := via(classifyShell(shell.ForParser(script.S, Shell), depth+1), c.Name+" -c"); v.Dangerous {
		return v
	}
	// sh -c 'rm -rf "$1"' _ ~/project: the words after the script are its
	// $0, $1...; what it deletes is what they name.
	if del, recursive := shellDeletesArgs(c); del {
		return via(deleteVerdict(wordsAfter(c.Args, script), recursive), c.Name+" -c")
	}
	return Verdict{}
}

// wordsAfter: the arguments that follow w (the same word, by its node).
func wordsAfter(args []shell.Word, w shell.Word) []shell.Word {
	for i, a := range args {
		if a.Node != nil && a.Node == w.Node {
			return args[i+1:]
		}
	}
	return nil
}

func checkEval(c shell.Command, depth int) Verdict {
	if v := checkFetchedArgs(c, depth); v.Dangerous {
		return v
	}
	script := strings.Join(shell.Lits(c.Args[1:]), " ")
	return via(classifyShell(shell.ForParser(script, Shell), depth+1), "eval")
}

// checkSSH judges the remote command: `ssh host rm -rf /` is still rm -rf /.
func checkSSH(c shell.Command, depth int) Verdict {
	i := shell.AfterOptions(c.Args, "BbcDEeFIiJLlmOopQRSWw", nil)
	if i+1 >= len(c.Args) {
		return Verdict{}
	}
	remote := strings.Join(shell.Lits(c.Args[i+1:]), " ")
	v := classifyShell(shell.ForParser(remote, Shell), depth+1)
	host := c.Args[i].S
	if j := strings.LastIndex(host, "@"); j >= 0 {
		host = host[j+1:]
	}
	if v.Rule == "shutdown" && disposableGuest(host) {
		return Verdict{} // a CI runner's or a lab machine's power, as virsh destroy ci-runner-17
	}
	return via(v, "ssh")
}

func checkPythonInterp(c shell.Command, depth int) Verdict {
	if v := checkFetchedArgs(c, depth); v.Dangerous {
		return v
	}
	if code, ok := shell.DashC(c.Args[1:], 'c', ""); ok {
		src := withArgv(code.S, wordsAfter(c.Args[1:], code))
		return via(classifyPython(shell.ForParser(src, Python), depth+1), c.Name+" -c")
	}
	return Verdict{}
}

// checkSQLClient judges SQL given on the command line: psql -c, mysql -e,
// sqlite3 DB "SQL".
func checkSQLClient(c shell.Command, depth int) Verdict {
	if testDatabases(c) {
		return Verdict{} // a test suite's database
	}
	for _, s := range sqlQueries(c) {
		if v := classifySQL(shell.ForParser(s, SQL), depth+1); v.Dangerous {
			return via(v, c.Name)
		}
	}
	return Verdict{}
}

// sqlFlags are the clients' options that take no value, which may stand
// before the query's option in one word (psql -Atc "…", mysql -Ne "…").
var sqlFlags = map[string]string{"psql": "AaeEHlnqsStxXwW01", "mysql": "BNrstvEnqH", "mariadb": "BNrstvEnqH"}

// sqlQueries: the SQL a client is given on its command line.
func sqlQueries(c shell.Command) []string {
	var stmts []string
	switch c.Name {
	case "psql":
		stmts = optionValues(c.Args[1:], "-c", "--command")
	case "mysql", "mariadb":
		stmts = optionValues(c.Args[1:], "-e", "--execute")
	case "snowsql":
		return optionValues(c.Args[1:], "-q", "--query")
	default: // sqlite3 [options] FILE [SQL...]
		if ops := shell.ParseOpts(c.Args[1:], ""); len(ops.Operands) > 1 {
			stmts = shell.Lits(ops.Operands[1:])
		}
		return append(stmts, optionValues(c.Args[1:], "-cmd", "")...)
	}
	letter := map[string]byte{"psql": 'c', "mysql": 'e', "mariadb": 'e'}[c.Name]
	for i := 1; i+1 < len(c.Args); i++ {
		a := c.Args[i].S
		if len(a) > 2 && a[0] == '-' && a[len(a)-1] == letter && strings.Trim(a[1:len(a)-1], sqlFlags[c.Name]) == "" {
			stmts = append(stmts, c.Args[i+1].S)
		}
	}
	return stmts
}

// optionValues collects the values of -x VALUE, -xVALUE, --long VALUE and --long=VALUE.
func optionValues(args []shell.Word, short, long string) []string {
	var out []string
	for i, w := range args {
		a := w.S
		switch {
		case (a == short || (long != "" && a == long)) && i+1 < len(args):
			out = append(out, args[i+1].S)
		case long != "" && strings.HasPrefix(a, long+"="):
			out = append(out, a[len(long)+1:])
		case len(short) == 2 && strings.HasPrefix(a, short) && len(a) > 2:
			out = append(out, a[2:])
		}
	}
	return out
}

// readsCodeFromStdin reports whether c executes what arrives on its stdin:
// `sh`, `bash -s`, `python3 -`, `perl`.
func readsCodeFromStdin(c shell.Command) bool {
	o := shell.ParseOpts(c.Args[1:], "o")
	noScript := len(o.Operands) == 0 || o.Operands[0].S == "-"
	switch {
	case shell.ShellPrograms[c.Name]:
		_, hasC := shell.DashC(c.Args[1:], 'c', "command")
		return !hasC && (noScript || strings.Contains(o.Short, "s"))
	case shell.PythonProgram.MatchString(c.Name):
		return noScript && !strings.ContainsAny(o.Short, "cm")
	case scriptInterps[c.Name]:
		return noScript && !strings.ContainsAny(o.Short, "e")
	}
	return tarRunsMembers(c) || rubyConsole(c)
}

// checkFedCode judges a here-document or here-string fed to an interpreter
// or database client: bash <<EOF ... EOF, python3 <<< "...".
func checkFedCode(c shell.Command, rs []*syntax.Redirect, depth int) Verdict {
	c = stdinReader(c)
	for _, r := range rs {
		var body string
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body = shell.ResolveWord(r.Hdoc).S
		case syntax.WordHdoc:
			body = shell.ResolveWord(r.Word).S
		default:
			continue
		}
		var v Verdict
		switch {
		case shell.SQLPrograms[c.Name] && testDatabases(c): // a test suite's database
		case shell.SQLPrograms[c.Name]:
			v = classifySQL(shell.ForParser(body, SQL), depth+1)
		case c.Name == "at" || c.Name == "batch":
			v = classifyShell(shell.ForParser(body, Shell), depth+1)
		case rubyConsole(c):
			v = classifyRuby(body, depth+1)
		case !readsCodeFromStdin(c):
		case shell.ShellPrograms[c.Name]:
			v = classifyShell(shell.ForParser(body, Shell), depth+1)
		case shell.PythonProgram.MatchString(c.Name):
			v = classifyPython(shell.ForParser(body, Python), depth+1)
		case scriptInterps[c.Name]:
			v = judgeScriptCode(c.Name, body, depth)
		}
		if v.Dangerous {
			return via(v, "a here-document")
		}
	}
	return Verdict{}
}

var (
	scriptForkLoop = regexp.MustCompile(`\bfork\b[^;]*\bwhile\b|\bwhile\b[^;{]*[{;]?\s*fork\b|\bloop\s*\{\s*fork\b|\bfork\s+while\b`)
	scriptSystem   = regexp.MustCompile(`\b(?:system|exec|execSync|spawnSync|shell_exec|passthru)\s*\(?\s*["'\x60]([^"'\x60]*)|\x60([^\x60]+)\x60`)
)

// checkScriptInterp: perl/ruby/node/php given code on the command line
// (-e, -E, -r, --eval, -p): a fork loop, or a shell command it runs.
func checkScriptInterp(c shell.Command, depth int) Verdict {
	if v := checkFetchedArgs(c, depth); v.Dangerous {
		return v
	}
	if v := checkPerlInPlace(c, depth); v.Dangerous {
		return v
	}
	var codes []string
	for _, f := range []string{"-e", "-E", "-r", "-p"} {
		codes = append(codes, optionValues(c.Args[1:], f, "")...)
	}
	codes = append(codes, optionValues(c.Args[1:], "--eval", "--eval")...)
	if jsInterps[c.Name] { // node -p CODE prints CODE's value
		for _, code := range optionValues(c.Args[1:], "-p", "--print") {
			codes = append(codes, "console.log("+code+")")
		}
	}
	for _, code := range codes {
		if v := judgeScriptCode(c.Name, code, depth); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}
