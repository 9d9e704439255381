package security

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Checks for programs that run code handed to them: shells (bash -c, eval,
// source), ssh, su, Python, database clients, and interpreters fed by a pipe
// or a here-document.

var scriptInterps = set("perl", "ruby", "node", "php", "deno", "bun", "lua")

func interpreterCheck(name string) func(command, int) Verdict {
	switch {
	case strings.HasPrefix(name, "mkfs"):
		return checkMkfs
	case strings.EqualFold(name, "flushall"), strings.EqualFold(name, "flushdb"):
		return checkRedis
	case shellPrograms[name], name == "su":
		return checkShellInterp
	case name == "eval":
		return checkEval
	case name == "source", name == ".":
		return checkFetchedArgs
	case name == "ssh":
		return checkSSH
	case pythonProgram.MatchString(name):
		return checkPythonInterp
	case sqlPrograms[name]:
		return checkSQLClient
	case scriptInterps[name]:
		return checkScriptInterp
	}
	return nil
}

// checkFetchedArgs flags `bash <(curl ...)`, `source <(curl ...)` and the like.
func checkFetchedArgs(c command, _ int) Verdict {
	for _, w := range c.args[1:] {
		if w.fetched() {
			return hit("pipe-to-shell")
		}
	}
	return Verdict{}
}

func checkShellInterp(c command, depth int) Verdict {
	if v := checkFetchedArgs(c, depth); v.Dangerous {
		return v
	}
	script, ok := dashC(c.args[1:], 'c', "command")
	if !ok {
		return Verdict{}
	}
	return via(classifyShell(forParser(script.s, Shell), depth+1), c.name+" -c")
}

func checkEval(c command, depth int) Verdict {
	if v := checkFetchedArgs(c, depth); v.Dangerous {
		return v
	}
	script := strings.Join(lits(c.args[1:]), " ")
	return via(classifyShell(forParser(script, Shell), depth+1), "eval")
}

// checkSSH judges the remote command: `ssh host rm -rf /` is still rm -rf /.
func checkSSH(c command, depth int) Verdict {
	i := afterOptions(c.args, "BbcDEeFIiJLlmOopQRSWw", nil)
	if i+1 >= len(c.args) {
		return Verdict{}
	}
	remote := strings.Join(lits(c.args[i+1:]), " ")
	return via(classifyShell(forParser(remote, Shell), depth+1), "ssh")
}

func checkPythonInterp(c command, depth int) Verdict {
	if v := checkFetchedArgs(c, depth); v.Dangerous {
		return v
	}
	if code, ok := dashC(c.args[1:], 'c', ""); ok {
		return via(classifyPython(forParser(code.s, Python), depth+1), c.name+" -c")
	}
	return Verdict{}
}

// checkSQLClient judges SQL given on the command line: psql -c, mysql -e,
// sqlite3 DB "SQL".
func checkSQLClient(c command, depth int) Verdict {
	var stmts []string
	switch c.name {
	case "psql":
		stmts = optionValues(c.args[1:], "-c", "--command")
	case "mysql", "mariadb":
		stmts = optionValues(c.args[1:], "-e", "--execute")
	default: // sqlite3 [options] FILE [SQL...]
		if ops := parseOpts(c.args[1:], ""); len(ops.operands) > 1 {
			stmts = lits(ops.operands[1:])
		}
		stmts = append(stmts, optionValues(c.args[1:], "-cmd", "")...)
	}
	for _, s := range stmts {
		if v := classifySQL(forParser(s, SQL), depth+1); v.Dangerous {
			return via(v, c.name)
		}
	}
	return Verdict{}
}

// optionValues collects the values of -x VALUE, -xVALUE, --long VALUE and --long=VALUE.
func optionValues(args []word, short, long string) []string {
	var out []string
	for i, w := range args {
		a := w.s
		switch {
		case (a == short || (long != "" && a == long)) && i+1 < len(args):
			out = append(out, args[i+1].s)
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
func readsCodeFromStdin(c command) bool {
	o := parseOpts(c.args[1:], "o")
	noScript := len(o.operands) == 0 || o.operands[0].s == "-"
	switch {
	case shellPrograms[c.name]:
		_, hasC := dashC(c.args[1:], 'c', "command")
		return !hasC && (noScript || strings.Contains(o.short, "s"))
	case pythonProgram.MatchString(c.name):
		return noScript && !strings.ContainsAny(o.short, "cm")
	case scriptInterps[c.name]:
		return noScript && !strings.ContainsAny(o.short, "e")
	}
	return false
}

// checkFedCode judges a here-document or here-string fed to an interpreter
// or database client: bash <<EOF ... EOF, python3 <<< "...".
func checkFedCode(c command, rs []*syntax.Redirect, depth int) Verdict {
	for _, r := range rs {
		var body string
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body = resolveWord(r.Hdoc).s
		case syntax.WordHdoc:
			body = resolveWord(r.Word).s
		default:
			continue
		}
		var v Verdict
		switch {
		case sqlPrograms[c.name]:
			v = classifySQL(forParser(body, SQL), depth+1)
		case !readsCodeFromStdin(c):
		case shellPrograms[c.name]:
			v = classifyShell(forParser(body, Shell), depth+1)
		case pythonProgram.MatchString(c.name):
			v = classifyPython(forParser(body, Python), depth+1)
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
func checkScriptInterp(c command, depth int) Verdict {
	if v := checkFetchedArgs(c, depth); v.Dangerous {
		return v
	}
	var codes []string
	for _, f := range []string{"-e", "-E", "-r", "-p"} {
		codes = append(codes, optionValues(c.args[1:], f, "")...)
	}
	codes = append(codes, optionValues(c.args[1:], "--eval", "--eval")...)
	for _, code := range codes {
		if scriptForkLoop.MatchString(code) {
			return hit("fork-bomb")
		}
		for _, m := range scriptSystem.FindAllStringSubmatch(code, -1) {
			if v := classifyShell(forParser(m[1]+m[2], Shell), depth+1); v.Dangerous {
				return via(v, c.name)
			}
		}
	}
	return Verdict{}
}
