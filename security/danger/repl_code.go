package danger

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// JavaScript (node, deno, bun) and Ruby (irb, pry) consoles: the calls that
// run a command are judged with the shell rules, recursive deletes by the
// path they delete, as Python's are. String literals are set aside first
// (scanLiterals), so a command that is only printed is not judged.

var (
	nodeExec = regexp.MustCompile(`\b(?:exec|execSync|spawn|spawnSync|execFile|execFileSync|execa|execaSync|execaCommand|execaCommandSync)\s*\(`)
	nodeRm   = regexp.MustCompile(`\b(?:rmSync|rmdirSync|rm|rmdir)\s*\(`)
	// fs-extra and rimraf delete recursively whatever the options.
	nodeRmAll = regexp.MustCompile(`\b(?:removeSync|emptyDirSync|rimraf(?:\s*\.\s*sync)?|rimrafSync|fse\s*\.\s*remove)\s*\(`)
	nodeKill  = regexp.MustCompile(`\bprocess\s*\.\s*kill\s*\(\s*-?\s*1\s*[,)]`)
	// A socket whose streams are piped into a spawned shell: a reverse shell.
	// a shell spawned and a socket connected, in either order (the shell
	// first, its streams piped to the socket once it connects).
	nodeSocketShell = regexp.MustCompile(`(?s)\b(?:net|Socket|connect)\b.*\bspawn\s*\(\s*\x01\d+\x02|\bspawn\s*\(\s*\x01\d+\x02.*\b(?:Socket|connect)\b.*\.\s*pipe\s*\(`)

	rubyExec = regexp.MustCompile(`(?:^|[^\w.])(?:system|exec|spawn|%x|IO\s*\.\s*popen|Open3\s*\.\s*\w+|Kernel\s*\.\s*(?:system|exec|spawn))\s*[( ]\s*`)
	rubyRm   = regexp.MustCompile(`\bFileUtils\s*\.\s*(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)\s*[( ]`)
	rubyGlob = regexp.MustCompile(`\bDir\s*(?:\.\s*glob\s*\(|\[)\s*`)
	// Path expressions of the consoles, rewritten to the path they name.
	homeCall   = regexp.MustCompile(`(?:require\s*\(\s*\x01\d+\x02\s*\)|\bos)\s*\.\s*homedir\s*\(\s*\)|\bDir\s*\.\s*home\b|\bprocess\s*\.\s*env\s*\.\s*HOME\b|\bENV\s*\[\s*\x01\d+\x02\s*\]|\b(?:Deno\s*\.\s*env\s*\.\s*get\s*\(|process\s*\.\s*env\s*\[)\s*\x01\d+\x02\s*[)\]]`)
	dirnameVar = regexp.MustCompile(`\b__dirname\b`)
	cwdCall    = regexp.MustCompile(`\b(?:process|Deno)\s*\.\s*cwd\s*\(\s*\)|\bDir\s*\.\s*pwd\b|\bDir\s*\.\s*getwd\b|\bRails\s*\.\s*root\b(?:\s*\.\s*to_s\b)?`)
	expand     = regexp.MustCompile(`\bFile\s*\.\s*expand_path\s*\(\s*(\x01\d+\x02)\s*\)`)
	concat     = regexp.MustCompile(`(\x01\d+\x02)\s*\+\s*(\x01\d+\x02)`)
	// path.join / File.join of literals.
	joinCall = regexp.MustCompile(`(?:require\s*\(\s*\x01\d+\x02\s*\)|\bpath|\bFile)\s*\.\s*(?:join|resolve)\s*\(\s*((?:\x01\d+\x02\s*,\s*)*\x01\d+\x02)\s*\)`)
	// Calls that delete, empty or overwrite the file they name.
	fileDestroy = regexp.MustCompile(`\b(?:(?:writeFileSync|writeFile|truncateSync|truncate|unlinkSync|unlink|rmSync|rm)|File\s*\.\s*(?:write|delete|unlink|truncate))\s*\(\s*`)
)

// judgeFileWrites: a credential file deleted, emptied or overwritten.
func judgeFileWrites(code string, strs []string) Verdict {
	for _, loc := range fileDestroy.FindAllStringIndex(code, -1) {
		if p, ok := pyStringArg(code[loc[1]:], strs); ok {
			switch {
			case isAuthorizedKeys(p):
				return hit("write-authorized-keys")
			case isSecretFile(p):
				return hit("code-destroy-file")
			case isSystemFile(p) && strings.Contains(strings.ToLower(code[loc[0]:loc[1]]), "write"), isSystemFile(p) && strings.Contains(code[loc[0]:loc[1]], "truncate"):
				return hit("write-system-file")
			case isSystemFile(p):
				return hit("rm-system-file")
			}
			// a shell start-up file or VCS file replaced, as > would; a history
			// or log written over or emptied, as truncate would
			if call := strings.ToLower(code[loc[0]:loc[1]]); strings.Contains(call, "write") || strings.Contains(call, "truncate") {
				if id := tamperTarget(p); id != "" {
					return hit(id)
				}
				if v := overwriteVerdict(p, writeKind(call, code[loc[1]:], strs)); v.Dangerous {
					return v
				}
			}
		}
	}
	return replPermsAndAppends(code, strs)
}

// writeKind: a write of nothing (writeFileSync(p, ”), File.write(p, ”))
// or a truncation empties the file; any other write replaces it.
func writeKind(call, args string, strs []string) replaceKind {
	if strings.Contains(call, "truncate") {
		return byEmpty
	}
	if a := pyCallArgs(args); len(a) > 1 && pyLit.MatchString(a[1]) && strings.TrimSpace(a[1]) == pyLit.FindString(a[1]) && emptyDocument(litValue(a[1], strs)) {
		return byEmpty
	}
	return byWrite
}

func classifyNode(input string, depth int) Verdict {
	if v := judgeReplSave(input, depth); v.Dangerous {
		return v
	}
	code, strs := scanLiterals(homeInterpolation(input), "//", "${")
	code, strs = rewritePaths(code, strs)
	code, strs = consoleRewrite(code, strs, false)
	code = codeAsRun(code)
	for _, loc := range nodeExec.FindAllStringIndex(code, -1) {
		if v := judgeCall(code[loc[1]:], strs, depth, "a JavaScript child process"); v.Dangerous {
			return v
		}
	}
	if v := judgeDeletes(code, strs, nodeRm, func(rest string) bool {
		return strings.Contains(strings.SplitN(rest, "\n", 2)[0], "recursive")
	}); v.Dangerous {
		return v
	}
	if v := judgeFileWrites(code, strs); v.Dangerous {
		return v
	}
	if v := consoleRoutes(code, strs, depth); v.Dangerous {
		return v
	}
	if v := consoleFileEffects(code, strs, false, depth); v.Dangerous {
		return v
	}
	if v := judgeDeletes(code, strs, nodeRmAll, func(string) bool { return true }); v.Dangerous {
		return v
	}
	if v := checkDriverCalls(code, strs, depth); v.Dangerous {
		return v
	}
	if v := checkFrameworkWipes(code, strs, depth); v.Dangerous {
		return v
	}
	if v := nodeMore(code, strs, depth); v.Dangerous {
		return v
	}
	if nodeKill.MatchString(code) {
		return hit("kill-all")
	}
	return hitIf(nodeSocketShell.MatchString(code), "repl-reverse-shell")
}

func classifyRuby(input string, depth int) Verdict {
	if v := judgeReplSave(input, depth); v.Dangerous {
		return v
	}
	code, strs := scanLiterals(homeInterpolation(input), "#", "#{")
	// `cmd` and %x(cmd) run a shell: they were read as literals marked "`".
	for i, s := range strs {
		if cmd, ok := strings.CutPrefix(s, "`"); ok {
			if v := judgeCommand(cmd, depth, "Ruby backticks"); v.Dangerous {
				return v
			}
			// TCPSocket.new(…); while (c = s.gets); s.print(`#{c}`): the socket's lines run
			// (scanLiterals leaves \x00 where #{…} was).
			if strings.Contains(cmd, "\x00") && rbSocketOpen.MatchString(code) {
				return hit("repl-reverse-shell")
			}
			strs[i] = cmd
		}
	}
	code, strs = rewritePaths(code, strs)
	code, strs = consoleRewrite(code, strs, true)
	code = codeAsRun(code)
	for _, loc := range rubyExec.FindAllStringIndex(code, -1) {
		if v := judgeCall(code[loc[1]:], strs, depth, "Ruby"); v.Dangerous {
			return v
		}
	}
	if v := judgeFileWrites(code, strs); v.Dangerous {
		return v
	}
	if v := consoleRoutes(code, strs, depth); v.Dangerous {
		return v
	}
	if v := consoleFileEffects(code, strs, true, depth); v.Dangerous {
		return v
	}
	if v := checkDriverCalls(code, strs, depth); v.Dangerous {
		return v
	}
	if v := checkFrameworkWipes(code, strs, depth); v.Dangerous {
		return v
	}
	if v := rubyMore(code, strs); v.Dangerous {
		return v
	}
	return judgeDeletes(code, strs, rubyRm, func(string) bool { return true })
}

// judgeCall judges the command a call receives: a string, or an argument
// list (spawn('sh', ['-c', cmd]), execFile('aws', [...]), popen([...])).
func judgeCall(rest string, strs []string, depth int, how string) Verdict {
	rest = strings.TrimLeft(rest, "( ")
	if cmd, ok := pyStringArg(rest, strs); ok {
		first := pyStrArg.FindString(rest)
		after := strings.TrimLeft(rest[len(first):], " ")
		if strings.HasSuffix(first, ",") && !strings.HasPrefix(after, "[") {
			if args := pyCallArgs(rest + ")"); len(args) > 1 && allLiterals(args) { // system('rm', '-rf', dir)
				return judgeCommand(pyWords(args, strs), depth, how)
			}
		}
		if after := strings.TrimLeft(after, " ,"); strings.HasPrefix(after, "[") {
			if args, ok := pyListArg(after, strs); ok {
				if q, err := syntax.Quote(cmd, syntax.LangBash); err == nil {
					cmd = q + " " + args
				}
			}
		}
		return judgeCommand(cmd, depth, how)
	}
	if cmd, ok := pyListArg(rest, strs); ok {
		return judgeCommand(cmd, depth, how)
	}
	return Verdict{}
}

// judgeDeletes flags a recursive delete (recursive tells whether the call's
// options make it one) of a path that is not scratch space.
func judgeDeletes(code string, strs []string, call *regexp.Regexp, recursive func(string) bool) Verdict {
	for _, loc := range call.FindAllStringIndex(code, -1) {
		rest := strings.TrimLeft(code[loc[1]:], " ")
		if !recursive(rest) {
			continue
		}
		p, ok := pyStringArg(rest, strs)
		if !ok {
			p, ok = dynPlusLiteral(code, rest, strs)
		}
		if !ok {
			// Dir.glob(pattern).each { |d| FileUtils.remove_dir(d) }
			if g := rubyGlob.FindStringIndex(code); g != nil {
				p, ok = pyStringArg(code[g[1]:], strs)
			}
		}
		if ok && protectedTree(p) && !(call == rubyRm && rubyBuildOutput(p)) {
			return hit("repl-delete-tree")
		}
	}
	return Verdict{}
}

// dynPlusLit: a name, a member chain or a parenthesised expression, then
// + a literal: dir + '/', process.env.OUT + "/", (ENV['OUT'] || ”) + '/'.
var dynPlusLit = regexp.MustCompile(`^\s*([A-Za-z_$][\w$.]*(?:\([^()]*\))?|\([^()]*\))\s*\+\s*(\x01\d+\x02)\s*[,)]`)

// dynPlusLiteral is the path of such an argument: the name's literal value
// when the code binds it to one, else a run-time value that may be empty
// (OUT_DIR || ”), so that dir + '/' may be the root as "$DIR/" is in the
// shell.
func dynPlusLiteral(code, rest string, strs []string) (string, bool) {
	m := dynPlusLit.FindStringSubmatch(rest)
	if m == nil {
		return "", false
	}
	tail := pyLiteral(pyLit.FindStringSubmatch(m[2])[1], strs)
	if plainIdent.MatchString(m[1]) {
		bind := regexp.MustCompile(`(?:^|[;\n{]|\b(?:const|let|var))\s*` + regexp.QuoteMeta(m[1]) + `\s*=\s*(\x01\d+\x02)\s*(?:;|\n|$)`)
		if b := bind.FindStringSubmatch(code); b != nil {
			return pyLiteral(pyLit.FindStringSubmatch(b[1])[1], strs) + tail, true
		}
	}
	return shell.DynMark + tail, true
}

// rewritePaths turns home and working-directory expressions into literals
// ("~", "./*") and joins literal concatenations, so path rules can read them.
func rewritePaths(code string, strs []string) (string, []string) {
	lit := func(s string) string {
		strs = append(strs, s)
		return "\x01" + strconv.Itoa(len(strs)-1) + "\x02"
	}
	code = homeCall.ReplaceAllStringFunc(code, func(m string) string {
		if (strings.HasPrefix(m, "ENV") || strings.HasPrefix(m, "Deno") || strings.Contains(m, "[")) && pyLiteral(pyLit.FindStringSubmatch(m)[1], strs) != "HOME" {
			return m
		}
		return lit("~")
	})
	code = railsJoin.ReplaceAllStringFunc(code, func(m string) string {
		var parts []string
		for _, l := range pyLit.FindAllStringSubmatch(m[strings.Index(m, "join")+4:], -1) {
			parts = append(parts, pyLiteral(l[1], strs))
		}
		return lit(strings.Join(parts, "/"))
	})
	code = cwdCall.ReplaceAllStringFunc(code, func(string) string { return lit("./*") })
	// __dirname: the directory of the script being run, inside the project
	code = dirnameVar.ReplaceAllStringFunc(code, func(string) string { return lit(".") })
	code = expand.ReplaceAllStringFunc(code, func(m string) string { return pyLit.FindString(m) })
	code = joinCall.ReplaceAllStringFunc(code, func(m string) string {
		var parts []string
		for _, l := range pyLit.FindAllStringSubmatch(m[strings.Index(m, "join")+4:], -1) {
			parts = append(parts, pyLiteral(l[1], strs))
		}
		return lit(strings.Join(parts, "/"))
	})
	for concat.MatchString(code) {
		code = concat.ReplaceAllStringFunc(code, func(m string) string {
			ls := pyLit.FindAllStringSubmatch(m, -1)
			return lit(pyLiteral(ls[0][1], strs) + pyLiteral(ls[1][1], strs))
		})
	}
	return code, strs
}

// scanLiterals replaces the string literals of JavaScript or Ruby source
// with "\x01<n>\x02" (their values in strs) and drops line comments.
// Interpolations (${…}, #{…}) become DynMark. A backtick literal's value
// starts with "`" so Ruby can run it; %x(…) is read as one too.
func scanLiterals(src, comment, interp string) (string, []string) {
	var b strings.Builder
	var strs []string
	for i := 0; i < len(src); {
		c := src[i]
		if strings.HasPrefix(src[i:], comment) && (comment != "#" || !strings.HasPrefix(src[i:], "#{")) {
			i = skipTo(src, i, "\n")
			b.WriteByte('\n')
			continue
		}
		q, start, mark := byte(0), 0, ""
		switch {
		case c == '\'' || c == '"':
			q, start = c, 1
		case c == '`':
			q, start, mark = c, 1, "`"
		case interp == "#{" && strings.HasPrefix(src[i:], "%x("):
			q, start, mark = ')', 3, "`"
		}
		if q == 0 {
			b.WriteByte(c)
			i++
			continue
		}
		var val strings.Builder
		val.WriteString(mark)
		j := i + start
		for j < len(src) && src[j] != q {
			switch {
			case src[j] == '\\' && j+1 < len(src):
				if e, ok := pyEscapes[src[j+1]]; ok {
					val.WriteString(e)
				} else {
					val.WriteByte(src[j+1])
				}
				j += 2
			case q != '\'' && strings.HasPrefix(src[j:], interp):
				j = skipTo(src, j, "}")
				val.WriteString(shell.DynMark)
			default:
				val.WriteByte(src[j])
				j++
			}
		}
		b.WriteString("\x01" + strconv.Itoa(len(strs)) + "\x02")
		strs = append(strs, val.String())
		i = min(j+1, len(src))
	}
	return b.String(), strs
}

// classifyScript judges code given to node or ruby on a command line (-e).
func classifyScript(interp, code string, depth int) Verdict {
	switch interp {
	case "node", "deno", "bun":
		return via(classifyNode(code, depth+1), interp+" -e")
	case "ruby":
		return via(classifyRuby(code, depth+1), "ruby -e")
	}
	return Verdict{}
}

// rubyBuildOutput: pkg/, where a gem's rake build and rake package write
// what they build (Bundler's gem tasks; in .gitignore of every gem).
func rubyBuildOutput(p string) bool {
	c := path.Clean(p)
	return c == "pkg" || strings.HasPrefix(c, "pkg/")
}
