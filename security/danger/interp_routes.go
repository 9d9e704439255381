package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// More routes by which a shell line hands code to an interpreter:
//
//   - perl -i edits files in place as sed -i does: -pe 's/a/b/' is sed's
//     s/a/b/, -ne 'print unless /re/' is sed's /re/d, so the edit is judged
//     as sed -i with that script (a setting written, a key removed);
//   - a here-document fed to node, ruby, perl or php is a script, as one fed
//     to python or a shell already was;
//   - rails runner (rails r, bin/rails runner) runs Ruby code in the
//     application, judged as the console's;
//   - an interpreter whose code sends its standard input over the network
//     (urlopen(…, sys.stdin.read()), process.stdin piped to a request) is a
//     sender at the end of a pipeline, as curl -d @- is;
//   - python3 -c CODE ARG…: sys.argv[N] in CODE is the Nth argument, so
//     find … -exec python3 -c '…os.remove(sys.argv[1])' {} \; removes what
//     find found.

var (
	perlPrintUnless = regexp.MustCompile(`^\s*print\s+unless\s+(/.*/)\s*;?\s*$`)
	perlPrintIf     = regexp.MustCompile(`^\s*print\s+if\s+(/.*/)\s*;?\s*$`)
)

// perlAsSed writes perl -i -pe/-ne SCRIPT FILE… as sed -i SCRIPT FILE….
func perlAsSed(c shell.Command) (string, bool) {
	inPlace, loop, script, files := false, false, "", []string{}
	args := shell.Lits(c.Args[1:])
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || script != "" && !strings.HasPrefix(a, "-") {
			files = append(files, a)
			continue
		}
		flags := strings.TrimPrefix(a, "-")
		if j := strings.IndexByte(flags, 'i'); j >= 0 {
			inPlace, flags = true, flags[:j] // -i.bak: the rest is a suffix
		}
		loop = loop || strings.ContainsAny(flags, "pn")
		if strings.HasSuffix(flags, "e") || strings.HasSuffix(flags, "E") {
			if i+1 < len(args) {
				script = args[i+1]
				i++
			}
		}
	}
	if !inPlace || !loop || script == "" || len(files) == 0 {
		return "", false
	}
	switch {
	case perlPrintUnless.MatchString(script):
		script = perlPrintUnless.FindStringSubmatch(script)[1] + "d"
	case perlPrintIf.MatchString(script):
		script = perlPrintIf.FindStringSubmatch(script)[1] + "!d"
	case !strings.HasPrefix(strings.TrimSpace(script), "s"):
		return "", false
	}
	cmd := "sed -i " + shQuote(strings.TrimSuffix(strings.TrimSpace(script), ";"))
	for _, f := range files {
		cmd += " " + shQuote(f)
	}
	return cmd, true
}

func checkPerlInPlace(c shell.Command, depth int) Verdict {
	if cmd, ok := perlAsSed(c); ok && depth < shell.MaxDepth {
		return via(classify(Shell, cmd, depth+1), "perl -i")
	}
	return Verdict{}
}

// judgeScriptCode judges code for a script interpreter, as -e hands it.
func judgeScriptCode(name, code string, depth int) Verdict {
	if scriptForkLoop.MatchString(code) {
		return hit("fork-bomb")
	}
	if v := classifyScript(name, code, depth); v.Dangerous {
		return v
	}
	if v := checkScriptB64(name, code, depth); v.Dangerous {
		return v
	}
	if v := checkBuiltCommands(name, code, depth); v.Dangerous {
		return v
	}
	for _, m := range scriptSystem.FindAllStringSubmatch(code, -1) {
		if v := classifyShell(shell.ForParser(m[1]+m[2], Shell), depth+1); v.Dangerous {
			return via(v, name)
		}
	}
	return Verdict{}
}

// railsRunnerCode: the code of rails runner / rails r (bin/rails, bundle
// exec rails), or "" when c is not one.
func railsRunnerCode(c shell.Command) (string, bool) {
	if c.Name != "rails" && !strings.HasSuffix(c.Name, "/rails") {
		return "", false
	}
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "e").Operands)
	if len(ops) < 2 || ops[0] != "runner" && ops[0] != "r" {
		return "", false
	}
	return ops[1], true
}

// rubyConsole: irb and pry with no script, and rails console (rails c,
// bin/rails console), read Ruby from their standard input, as ruby does: a
// here-document or a pipe into one is a script.
func rubyConsole(c shell.Command) bool {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "e").Operands)
	switch {
	case c.Name == "irb" || c.Name == "pry":
		return len(ops) == 0 || ops[0] == "-"
	case c.Name == "rails" || strings.HasSuffix(c.Name, "/rails"):
		return len(ops) > 0 && (ops[0] == "console" || ops[0] == "c")
	}
	return false
}

func init() { addHostCheck("rails", checkRailsRunner) }

func checkRailsRunner(c shell.Command, depth int) Verdict {
	if code, ok := railsRunnerCode(c); ok {
		return via(classifyRuby(code, depth+1), "rails runner")
	}
	return Verdict{}
}

// Code that reads its standard input and sends something off the machine.
var (
	pyReadsStdin   = regexp.MustCompile(`\bsys\s*\.\s*stdin\b|\bfileinput\b|\binput\s*\(`)
	jsReadsStdin   = regexp.MustCompile(`\bprocess\s*\.\s*stdin\b|readFileSync\s*\(\s*(?:0|['"]/dev/stdin['"])`)
	rbReadsStdin   = regexp.MustCompile(`\bSTDIN\b|\$stdin\b|\bARGF\b|\bgets\b`)
	codeSendsOut   = regexp.MustCompile(`\burlopen\s*\(|\b(?:requests|httpx)\s*\.\s*(?:post|put|patch)\s*\(|\.\s*(?:sendall|send|sendmail|storbinary)\s*\(|\bfetch\s*\(|\bhttps?\s*\.\s*request\b|\brequire\s*\(\s*['"]https?['"]\s*\)\s*\.\s*request\b|\bNet\s*::\s*HTTP\b|\bconnect\s*\(`)
	pyArgvElem     = regexp.MustCompile(`\bsys\s*\.\s*argv\s*\[\s*(\d)\s*\]`)
	shellArgPlaced = regexp.MustCompile(`^\{\}$`)
)

// sendsStdin: c is python/node/ruby/perl given code that reads its stdin and sends.
func sendsStdin(c shell.Command) bool {
	var code string
	var reads *regexp.Regexp
	switch {
	case shell.PythonProgram.MatchString(c.Name):
		w, ok := shell.DashC(c.Args[1:], 'c', "")
		if !ok {
			return false
		}
		code, reads = w.S, pyReadsStdin
	case c.Name == "node" || c.Name == "deno" || c.Name == "bun":
		code, reads = strings.Join(optionValues(c.Args[1:], "-e", "--eval"), "\n"), jsReadsStdin
	case c.Name == "ruby" || c.Name == "perl":
		code, reads = strings.Join(optionValues(c.Args[1:], "-e", ""), "\n"), rbReadsStdin
	default:
		return false
	}
	return reads.MatchString(code) && codeSendsOut.MatchString(code)
}

// withArgv puts python3 -c CODE ARG…'s arguments where CODE reads sys.argv.
func withArgv(code string, args []shell.Word) string {
	return pyArgvElem.ReplaceAllStringFunc(code, func(m string) string {
		i := int(pyArgvElem.FindStringSubmatch(m)[1][0] - '0')
		if i < 1 || i > len(args) {
			return m
		}
		a := args[i-1].S
		if shellArgPlaced.MatchString(a) {
			a = "*" // find's {}: each file found, as a glob of the tree
		}
		return shQuote(a)
	})
}

// argvDelete: an interpreter's one-liner deleting the file it was given
// (os.remove(sys.argv[1]), fs.unlinkSync(process.argv[1]), File.delete(ARGV[0]), unlink @ARGV).
var argvDelete = regexp.MustCompile(`\b(?:os\s*\.\s*(?:remove|unlink)|shutil\s*\.\s*rmtree|rmtree)\s*\(\s*sys\s*\.\s*argv\b|\bPath\s*\(\s*sys\s*\.\s*argv\s*\[\s*\d\s*\]\s*\)\s*\.\s*unlink\b|` +
	`\b(?:unlinkSync|rmSync|unlink|rm)\s*\(\s*process\s*\.\s*argv\b|\b(?:File\s*\.\s*(?:delete|unlink)|FileUtils\s*\.\s*rm(?:_rf|_r|_f)?)\s*[( ]\s*ARGV\b|\bunlink\s*\(?\s*(?:@ARGV|\$ARGV\b)`)

// interpDeletesArgs: c is python -c, node -e, ruby -e or perl -e code that
// deletes its arguments, as find -exec rm {} does.
func interpDeletesArgs(c shell.Command) bool {
	var code string
	switch {
	case shell.PythonProgram.MatchString(c.Name):
		w, ok := shell.DashC(c.Args[1:], 'c', "")
		if !ok {
			return false
		}
		code = w.S
	case scriptInterps[c.Name]:
		code = strings.Join(optionValues(c.Args[1:], "-e", "--eval"), "\n")
	}
	return argvDelete.MatchString(code)
}
