package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Values that travel between statements in Python, JavaScript and Ruby
// code, followed to where they are used:
//
//   - a name bound once to what a file or the network returned
//     (data = open(creds).read(), const src = await (await fetch(u)).text(),
//     body = File.read(key)) stands for that expression where it is used,
//     so a send, an eval or a print of the name is judged as one of the read;
//   - what a download returns, given to a shell runner or to eval (also eval
//     passed as a callback, .then(eval), and Ruby's eval without
//     parentheses), runs the download;
//   - a credential file's contents printed (print, puts, p, console.log,
//     node -p) are put on the terminal, and so in the agent's transcript;
//   - IPython's shell escapes expand {name} and $name from the Python names
//     bound earlier in the cell.
//
// code and strs are as scanPython/scanLiterals leave them: string literals
// are "\x01<n>\x02" in code.

var (
	// name = expression (const/let/var in JavaScript), one statement.
	boundAssign = regexp.MustCompile(`(?m)(?:^|[;{])[ \t]*(?:(?:const|let|var)[ \t]+)?([A-Za-z_$][\w$]*)[ \t]*=[ \t]*([^=\s;][^;\n]*)`)
	// boundSource: expressions whose value came from a file or the network.
	boundSource = regexp.MustCompile(`\bopen\s*\([^\n]*\.\s*read(?:line|lines)?\s*\(|\.\s*read_(?:text|bytes)\s*\(|\b(?:readFileSync|readFile|binread|readlines)\s*\(|` +
		`\b(?:File|IO)\s*\.\s*read\b|` + pyFetch.String() + `|` + httpGet.String())
)

// inlineBound puts back, where each is used, the expression a name bound once
// to a file's or a download's contents stands for, and the query sets of
// inlineQuerySets.
func inlineBound(code string) string {
	code = inlineQuerySets(code)
	count := map[string]int{}
	expr := map[string]string{}
	end := map[string]int{}
	for _, m := range boundAssign.FindAllStringSubmatchIndex(code, -1) {
		name := code[m[2]:m[3]]
		count[name]++
		expr[name], end[name] = strings.TrimSpace(code[m[4]:m[5]]), m[5]
	}
	for name, n := range count {
		if n != 1 || !boundSource.MatchString(expr[name]) {
			continue
		}
		use := regexp.MustCompile(`(?:^|[^\w$.])(` + regexp.QuoteMeta(name) + `)\b`)
		rest, out := code[end[name]:], ""
		for loc := use.FindStringSubmatchIndex(rest); loc != nil; loc = use.FindStringSubmatchIndex(rest) {
			after := strings.TrimLeft(rest[loc[3]:], " \t")
			if strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "==") {
				out, rest = out+rest[:loc[3]], rest[loc[3]:] // a keyword argument's name (data=data)
				continue
			}
			out, rest = out+rest[:loc[2]]+"("+expr[name]+")", rest[loc[3]:]
		}
		code = code[:end[name]] + out + rest
	}
	return code
}

var (
	// Code given to eval as a function or, in Ruby, without parentheses.
	evalValue = regexp.MustCompile(`(?:^|[^\w.$])(?:eval|instance_eval|vm\s*\.\s*runInThisContext)\s*[,)]|(?:^|[^\w.$])(?:Kernel\s*\.\s*)?(?:eval|instance_eval)[ \t]+[\w$(:@\x01]`)
	// A shell runner of JavaScript or Ruby.
	// (not RegExp's exec: a runner is a bare name or child_process's, Kernel's, IO's or Open3's method).
	codeRunner = regexp.MustCompile(`(?:^|[^\w.$])(?:exec|execSync|spawn|spawnSync|system)\s*[( ]|` +
		`\b(?:child_process|childProcess|cp|Kernel|IO|Open3)\s*\.\s*(?:exec|execSync|spawn|spawnSync|system|popen|\w*capture\w*|popen\w*)\s*[( ]|` +
		`\brequire\s*\(\s*` + pyL + `\s*\)\s*\.\s*(?:exec|execSync|spawn|spawnSync)\s*\(`)
)

// runsDownload: JavaScript or Ruby code that evaluates or runs what it
// downloads: .then(eval), eval URI.open(u).read, execSync(await (await fetch(u)).text()).
func runsDownload(code string) bool {
	if !httpGet.MatchString(code) {
		return false
	}
	if evalValue.MatchString(code) {
		return true
	}
	for _, loc := range codeRunner.FindAllStringIndex(code, -1) {
		stmt, _, _ := strings.Cut(code[loc[1]:], "\n")
		stmt, _, _ = strings.Cut(stmt, ";")
		if httpGet.MatchString(stmt) {
			return true
		}
	}
	return false
}

// pyFlow: Python code that runs a download.
func pyFlow(code string, _ []string, _ int) Verdict {
	if pyRunsFetched(code) {
		return hit("pipe-to-shell")
	}
	return Verdict{}
}

// pyRunsFetched: os.system, subprocess.* or os.exec* given the body of a
// download as the command (os.system(urlopen(u).read().decode())).
func pyRunsFetched(code string) bool {
	for _, loc := range pyExec.FindAllStringIndex(code, -1) {
		if args := pyCallArgs(code[loc[1]:]); len(args) > 0 && pyFetch.MatchString(args[0]) {
			return true
		}
	}
	return false
}

// An f-string's {name} field, until pyResolveFields knows the names bound.
const pyFieldMark, pyFieldEnd = "\x03", "\x04"

var pyField = regexp.MustCompile(pyFieldMark + `(\w+)` + pyFieldEnd)

// pyResolveFields writes each f-string field {name} as the literal the name
// is bound to once in the code (target = '/srv/app'; f'rm -rf {target}'),
// and as a run-time value otherwise.
func pyResolveFields(code string, strs []string) []string {
	var vars map[string]string
	for i, s := range strs {
		if !strings.Contains(s, pyFieldMark) {
			continue
		}
		if vars == nil {
			vars = pyVars(code, strs)
		}
		strs[i] = pyField.ReplaceAllStringFunc(s, func(m string) string {
			if v, ok := vars[pyField.FindStringSubmatch(m)[1]]; ok && !strings.Contains(v, pyFieldMark) {
				return v
			}
			return shell.DynMark
		})
	}
	return strs
}

// ipythonBinding: name = 'literal' on a line of its own.
var ipythonBinding = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*=\s*[rRuU]?(?:'([^'\n]*)'|"([^"\n]*)")\s*$`)

// ipythonExpand: IPython's {name} and $name in a shell escape, for the names
// bound to literals earlier in the cell.
func ipythonExpand(cmd string, binds map[string]string) string {
	for name, v := range binds {
		q, ref := shQuote(v), "$"+name
		cmd = strings.ReplaceAll(cmd, "{"+name+"}", q)
		cmd = regexp.MustCompile(`(?:^|[^$\\])`+regexp.QuoteMeta(ref)+`\b`).ReplaceAllStringFunc(cmd, func(m string) string {
			return strings.TrimSuffix(m, ref) + q
		})
	}
	return cmd
}

// replSave: the consoles' commands that write the session to a file —
// node's .save FILE, pry's save-file … FILE, IPython's %store NAME >FILE
// (>> appends) — judged as the shell's cat > FILE (or >>).
var replSave = regexp.MustCompile(`(?m)^[ \t]*(?:\.save[ \t]+|save-file\b[^\n]*[ \t]|%store[ \t]+\S+[ \t]*(>>?)[ \t]*)([^\s>]+)[ \t]*$`)

func judgeReplSave(input string, depth int) Verdict {
	for _, m := range replSave.FindAllStringSubmatch(input, -1) {
		op := m[1]
		if op == "" {
			op = ">"
		}
		if v := judgeCommand("cat session "+op+" "+shQuote(m[2]), depth, "the console's save"); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}
