package danger

import (
	"regexp"
	"strings"
)

// The REPLs' other ways to the same effects: zx/Bun shell templates and
// Deno.remove in JavaScript; multi-argument system, globbed deletes,
// Pathname#rmtree, Process.kill and ActiveRecord schema drops in Ruby; libc
// calls, lldb's platform shell and gdb.execute in debuggers; :execute, :lua
// and delete(…, 'rf') in vim.

var (
	// zx's $`cmd` and Bun's $`cmd` run a shell; the template is a literal
	// whose value starts with "`".
	nodeShellTemplate = regexp.MustCompile(`(?:^|[^\w.])(?:Bun\s*\.\s*)?\$\s*\x01(\d+)\x02`)
	denoRemove        = regexp.MustCompile(`\bDeno\s*\.\s*remove(?:Sync)?\s*\(`)

	rubyKillAll  = regexp.MustCompile(`\bProcess\s*\.\s*kill\s*\(?\s*[^,\n]+,\s*-\s*1\b`)
	rubyDrop     = regexp.MustCompile(`\b(?:drop_database|drop_schema)\b`) // drop_table: checkSchemaCode, by the table's name
	rubyTruncate = regexp.MustCompile(`\bconnection\s*\.\s*truncate(?:_tables)?\s*[( ]`)
	rubyPathname = regexp.MustCompile(`\bPathname\s*(?:\.\s*new\s*)?\(\s*(\x01\d+\x02)\s*\)\s*\.\s*(?:rmtree|rm_rf)\b`)
	// Dir.glob(p).each { |f| File.delete(f) }: every file a glob lists.
	// Dir.glob(p).each { |f| File.truncate(f, 0) } or File.write(f, ''):
	// every file a glob lists, emptied.
	rubyGlobEmpty  = regexp.MustCompile(`\bDir\s*(?:\.\s*glob\s*\(|\[)\s*(\x01\d+\x02)[^\n]*\bFile\s*\.\s*(?:truncate\s*\(\s*\w+\s*,\s*0\s*\)|write\s*\(\s*\w+\s*,\s*(\x01\d+\x02)\s*\))`)
	rubyGlobDelete = regexp.MustCompile(`\bDir\s*(?:\.\s*glob\s*\(|\[)\s*(\x01\d+\x02)[^\n]*\b(?:File\s*\.\s*(?:delete|unlink)|FileUtils\s*\.\s*rm\w*)\b`)
)

// nodeMore: shell templates and Deno.remove.
func nodeMore(code string, strs []string, depth int) Verdict {
	if v := checkSchemaCode(code, strs, depth); v.Dangerous {
		return v
	}
	if v := nodePlane(code, strs); v.Dangerous {
		return v // console_plane.go
	}
	for _, m := range nodeShellTemplate.FindAllStringSubmatch(code, -1) {
		if cmd, ok := strings.CutPrefix(pyLiteral(m[1], strs), "`"); ok {
			if v := judgeCommand(cmd, depth, "a JavaScript shell template"); v.Dangerous {
				return v
			}
		}
	}
	return judgeDeletes(code, strs, denoRemove, func(rest string) bool {
		return strings.Contains(strings.SplitN(rest, "\n", 2)[0], "recursive")
	})
}

// rubyMore: kills, schema drops, Pathname#rmtree and globbed deletes.
func rubyMore(code string, strs []string) Verdict {
	if v := checkSchemaCode(code, strs, 0); v.Dangerous {
		return v
	}
	switch {
	case rubyKillAll.MatchString(code):
		return hit("kill-all")
	case rubyDrop.MatchString(code):
		return hit("sql-drop")
	case rubyTruncate.MatchString(code):
		return hit("sql-truncate")
	}
	for _, m := range rubyPathname.FindAllStringSubmatch(code, -1) {
		if protectedTree(litValue(m[1], strs)) {
			return hit("repl-delete-tree")
		}
	}
	for _, m := range rubyGlobEmpty.FindAllStringSubmatch(code, -1) {
		p := litValue(m[1], strs)
		switch {
		case m[2] != "" && !emptyDocument(litValue(m[2], strs)):
		case tamperTarget(p) != "":
			return hit(tamperTarget(p))
		case deployedLog(p):
			return hit("log-tamper")
		default:
			if v := overwriteVerdict(p, byEmpty); v.Dangerous {
				return v
			}
		}
	}
	for _, m := range rubyGlobDelete.FindAllStringSubmatch(code, -1) {
		p := litValue(m[1], strs)
		if protectedTree(strings.ReplaceAll(p, "/**", "")) && !generatedFiles(p[strings.LastIndex(p, "/")+1:]) {
			return hit("py-delete-files")
		}
	}
	return Verdict{}
}

var (
	// gdbLibc: call/print of libc functions that delete a file or run a
	// command: unlink("/etc/passwd"), popen("cmd", "r"), execl(sh, "-c", cmd).
	gdbLibc     = regexp.MustCompile(`^(?:call|print|p)\b.*\b(unlink|remove|rmdir|popen|execl|execlp|execv|execvp)\s*\((.*)$`)
	gdbCString  = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	gdbExecute  = regexp.MustCompile(`\bgdb\s*\.\s*execute\s*\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")`)
	lldbShell   = regexp.MustCompile(`^platform\s+shell\s+(?:-\S+\s+)*(.*)$`)
	vimExecute  = regexp.MustCompile(`^:+\s*exe(?:cute)?\s+(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)")`)
	vimLua      = regexp.MustCompile(`\b(?:os\s*\.\s*execute|io\s*\.\s*popen|vim\s*\.\s*fn\s*\.\s*system|vim\s*\.\s*system)\s*\(\s*\{?\s*(?:'([^']*)'|"([^"]*)")`)
	vimDeleteRf = regexp.MustCompile(`\bdelete\s*\(\s*(?:expand\s*\(\s*)?(?:'([^']*)'|"([^"]*)")\s*\)?\s*,\s*['"]rf['"]`)
)

// debuggerMore: libc calls, lldb's platform shell, gdb.execute from Python.
func debuggerMore(line string, depth int) Verdict {
	if cmd, ok := gdbPipeCommand(line); ok { // the command reads what gdb prints
		if v := pipeTarget(cmd, depth, "gdb's pipe"); v.Dangerous {
			return v
		}
	}
	if m := gdbLogFile.FindStringSubmatch(line); m != nil { // gdb appends its output there
		if v := classifyShell("cat >> "+shellQuote(m[1]), depth+1); v.Dangerous {
			return via(v, "gdb's log file")
		}
	}
	if m := lldbShell.FindStringSubmatch(line); m != nil {
		return judgeCommand(m[1], depth, "lldb platform shell")
	}
	if m := gdbExecute.FindStringSubmatch(line); m != nil {
		return via(classifyREPL(Debugger, m[1]+m[2], depth+1), "gdb.execute")
	}
	if m := gdbKill.FindStringSubmatch(line); m != nil {
		return hit(map[string]string{"1": "kill-init", "-1": "kill-all"}[m[1]])
	}
	m := gdbLibc.FindStringSubmatch(line)
	if m == nil {
		return Verdict{}
	}
	var args []string
	for _, s := range gdbCString.FindAllStringSubmatch(m[2], -1) {
		args = append(args, strings.ReplaceAll(s[1], `\"`, `"`))
	}
	if len(args) == 0 {
		return Verdict{}
	}
	switch m[1] {
	case "unlink", "remove", "rmdir":
		if isSystemFile(args[0]) {
			return hit("rm-system-file")
		}
	case "popen":
		return judgeCommand(args[0], depth, "a debugger call")
	default: // exec*: the string after -c, or the argument vector
		for i, a := range args {
			if a == "-c" && i+1 < len(args) {
				return judgeCommand(args[i+1], depth, "a debugger call")
			}
		}
		return judgeCommand(strings.Join(args[1:], " "), depth, "a debugger call")
	}
	return Verdict{}
}

// editorMore: :execute of an ex command, Lua's os.execute, delete(p, 'rf').
func editorMore(line string, depth int) Verdict {
	if m := vimExecute.FindStringSubmatch(line); m != nil {
		return classifyREPL(Editor, ":"+strings.ReplaceAll(m[1], "''", "'")+m[2], depth+1)
	}
	if strings.HasPrefix(line, ":") {
		if m := vimLua.FindStringSubmatch(line); m != nil {
			return judgeCommand(m[1]+m[2], depth, "vim")
		}
		if m := vimDeleteRf.FindStringSubmatch(line); m != nil && protectedTree(m[1]+m[2]) {
			return hit("repl-delete-tree")
		}
	}
	return Verdict{}
}

var gdbLogFile = regexp.MustCompile(`^set\s+logging\s+file\s+(\S+)\s*$`)

// gdbPipeCommand: the shell command of gdb's "pipe [COMMAND] | SHELL" and
// "| COMMAND | SHELL", and of "pipe -d DELIM COMMAND DELIM SHELL" (help pipe).
func gdbPipeCommand(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "pipe ")
	if !ok {
		rest, ok = strings.CutPrefix(line, "|")
	}
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	delim := "|"
	if d, ok := strings.CutPrefix(rest, "-d "); ok {
		f := strings.Fields(d)
		if len(f) < 2 {
			return "", false
		}
		delim, rest = f[0], strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(d), f[0]))
	}
	_, cmd, ok := strings.Cut(rest, delim)
	return strings.TrimSpace(cmd), ok && strings.TrimSpace(cmd) != ""
}
