package danger

import (
	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"regexp"
	"strings"
)

// A console's file calls judged as the shell command with the same effect:
// an unlink is rm -f, a recursive delete rm -rf, a truncate ": >", a
// listing fed to a delete rm of dir/*, a chmod chmod. One effect model
// (fsclass.go, fsoverwrite.go) then judges every language alike, instead of
// each language keeping its own list of paths that matter.

type fileEffect int

const (
	removeFile fileEffect = iota
	removeTree
	removeFiles // every entry of a directory
	removeTrees
	emptyFile
	writeFile // contents replaced (judged as > onto it)
	changeMode
)

// effectVerdict judges effect e on path p (mode for changeMode) with the shell rules.
func effectVerdict(e fileEffect, p, mode string, depth int, how string) Verdict {
	if p == "" || strings.Contains(p, "\x00") {
		return Verdict{}
	}
	q := shellQuote(p)
	var cmd string
	switch e {
	case removeFile:
		cmd = "rm -f -- " + q
	case removeTree:
		cmd = "rm -rf -- " + q
	case removeFiles:
		cmd = "rm -f -- " + shellQuote(strings.TrimSuffix(p, "/")) + "/*"
	case removeTrees:
		cmd = "rm -rf -- " + shellQuote(strings.TrimSuffix(p, "/")) + "/*"
	case emptyFile:
		cmd = ": > " + q
	case writeFile:
		cmd = "cat > " + q
	case changeMode:
		if mode == "" {
			return Verdict{}
		}
		cmd = "chmod " + mode + " -- " + q
	}
	return via(classify(Shell, cmd, depth+1), how)
}

var (
	// Node: fs.unlink/rm/truncate and their Sync and promise forms; the
	// rm forms are recursive when their options say so.
	nodeFileCall = regexp.MustCompile(`\b(unlinkSync|unlink|rmSync|rm|rmdirSync|rmdir|truncateSync|truncate)\s*\(\s*`)
	consoleMove  = regexp.MustCompile(`\b(?:renameSync|rename|File\s*\.\s*rename|FileUtils\s*\.\s*(?:mv|move))\s*[( ]\s*`)
	// Ruby: File.delete/unlink/truncate, FileUtils.rm and rm_f.
	rubyFileCall = regexp.MustCompile(`\b(?:File\s*\.\s*(delete|unlink|truncate)|FileUtils\s*\.\s*(rm|rm_f|remove_file|safe_unlink))\s*[( ]\s*`)
	// A directory listing whose entries a later call on the line deletes:
	// fs.readdirSync(dir).forEach(f => fs.rmSync(f…)), Dir.children(dir).each { … }.
	listingCall = regexp.MustCompile(`\b(?:readdirSync|readdir|Dir\s*\.\s*(?:children|entries|each_child))\s*\(\s*(` + pyL + `)\s*\)|` +
		`\bPathname\s*(?:\.\s*new\s*)?\(\s*(` + pyL + `)\s*\)\s*\.\s*children\b`)
	listDelete = regexp.MustCompile(`\b(?:rmSync|rm|unlinkSync|unlink|rmdirSync|File\s*\.\s*(?:delete|unlink)|FileUtils\s*\.\s*rm\w*)\s*[( ]|&:\s*(?:rmtree|delete|unlink)\b`)
	// rubyGlobArg: an argument that is a glob's matches, Dir.glob('p') or Dir['p'].
	rubyGlobArg = regexp.MustCompile(`^\*?\s*Dir\s*(?:\.\s*glob\s*\(\s*(` + pyL + `)|\[\s*(` + pyL + `))`)
	// Ruby's Kernel#open and IO.read/readlines/write/foreach of "|cmd" run cmd.
	rubyPipeOpen = regexp.MustCompile(`(?:^|[^\w.])(?:(?:Kernel|IO|URI)\s*\.\s*)?(?:open|read|readlines|foreach|write|binread)\s*[( ]\s*(` + pyL + `)`)
)

// consoleFileEffects judges Node's and Ruby's file calls by effect.
func consoleFileEffects(code string, strs []string, ruby bool, depth int) Verdict {
	how := "JavaScript"
	call := nodeFileCall
	if ruby {
		how, call = "Ruby", rubyFileCall
	}
	for _, m := range call.FindAllStringSubmatchIndex(code, -1) {
		var name string
		if m[2] >= 0 {
			name = code[m[2]:m[3]]
		} else {
			name = code[m[4]:m[5]]
		}
		rest := code[m[1]:]
		if g := rubyGlobArg.FindStringSubmatch(rest); ruby && g != nil {
			// FileUtils.rm_f(Dir.glob('src/*.rb')) deletes what rm -f src/*.rb does
			if glob := litValue(g[1]+g[2], strs); glob != "" && !strings.ContainsAny(glob, " \t'\"$`;&|") {
				if v := via(classify(Shell, "rm -f -- "+glob, depth+1), how); v.Dangerous {
					return v
				}
			}
			continue
		}
		p, ok := pyStringArg(rest, strs)
		if !ok {
			continue
		}
		e := removeFile
		switch {
		case strings.HasPrefix(name, "truncate"):
			if args := pyCallArgs(rest); len(args) > 1 && strings.Trim(args[1], " )") != "0" {
				continue // cut to a length, not emptied
			}
			e = emptyFile
		case strings.HasPrefix(name, "rm") && strings.Contains(strings.SplitN(rest, "\n", 2)[0], "recursive"):
			e = removeTree
		}
		if v := effectVerdict(e, p, "", depth, how); v.Dangerous {
			return v
		}
	}
	for _, m := range listingCall.FindAllStringSubmatchIndex(code, -1) {
		after := code[m[1]:]
		loc := listDelete.FindStringIndex(after)
		if loc == nil {
			continue
		}
		e := removeFiles
		if strings.Contains(after[loc[0]:], "recursive") || strings.Contains(after[loc[0]:loc[1]], "rm_r") || strings.Contains(after[loc[0]:loc[1]], "rmtree") {
			e = removeTrees
		}
		if v := effectVerdict(e, litValue(sub(code, m, 1)+sub(code, m, 2), strs), "", depth, how); v.Dangerous {
			return v
		}
	}
	if v := consoleMore(code, strs, ruby, depth); v.Dangerous {
		return v
	}
	// fs.renameSync(a, b), File.rename(a, b), FileUtils.mv(a, b): judged as
	// mv a b (a repository or project moved away, a key replaced)
	for _, loc := range consoleMove.FindAllStringIndex(code, -1) {
		args := pyCallArgs(code[loc[1]:])
		if len(args) < 2 {
			continue
		}
		src, ok := pyStringArg(args[0], strs)
		if !ok {
			continue
		}
		dst, ok := pyStringArg(args[1], strs)
		if !ok {
			dst = shell.DynMark
		}
		if v := via(classify(Shell, "mv -- "+shellQuote(src)+" "+shellQuote(dst), depth+1), how); v.Dangerous {
			return v
		}
	}
	if ruby {
		for _, m := range rubyPipeOpen.FindAllStringSubmatch(code, -1) {
			if cmd, ok := strings.CutPrefix(litValue(m[1], strs), "|"); ok {
				if v := judgeCommand(cmd, depth, "Ruby open(\"|…\")"); v.Dangerous {
					return v
				}
			}
		}
	}
	return Verdict{}
}

var (
	// gdb: $_shell("cmd") (gdb 13), compile code … system("cmd"), and
	// guile's (system "cmd") / (system* "rm" "-rf" …).
	gdbShellFn  = regexp.MustCompile(`^(?:call|print|p|output|echo|printf|set|compile(?:\s+code)?|expr)\b.*?(?:\$_shell|\bsystem)\s*\(\s*"((?:[^"\\]|\\.)*)"`)
	gdbGuileSys = regexp.MustCompile(`^(?:guile|gu)\b.*\(\s*system(\*?)\s+((?:"(?:[^"\\]|\\.)*"\s*)+)\)`)
	// gdb: libc calls that delete or empty the file they name.
	gdbFileCall = regexp.MustCompile(`^(?:call|print|p|compile(?:\s+code)?)\b.*?\b(unlink|remove|truncate)\s*\(\s*"((?:[^"\\]|\\.)*)"\s*(?:,\s*(\d+)\s*)?\)`)
	// vim: delete(path[, flags]) and writefile(list, path), path literal or expand()ed.
	vimDeleteFn  = regexp.MustCompile(`\bdelete\s*\(\s*(?:expand\s*\(\s*)?(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)")\s*\)?\s*(?:,\s*['"](\w*)['"]\s*)?\)`)
	vimWriteFile = regexp.MustCompile(`\bwritefile\s*\(\s*[^,]*,\s*(?:expand\s*\(\s*)?(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)")`)
	// vim: the buffer (or a range of it) given to a command's stdin, ":w !cmd" and ":%!cmd".
	vimToCommand = regexp.MustCompile(`^:+\s*(?:sil(?:ent)?!?\s+)?(?:w(?:rite)?\s*|[%.$,0-9']+)!\s*(.+)$`)
	vimExeExpr   = regexp.MustCompile(`^:+\s*exe(?:cute)?\s+(.+)$`)
	vimStrPart   = regexp.MustCompile(`^\s*(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)"|expand\s*\(\s*(?:'([^']*)'|"([^"]*)")\s*\))\s*`)
	// less: "s file" saves the input to a file.
	lessSave = regexp.MustCompile(`^s\s+(\S+)\s*$`)
)

// replEffects: the debugger's, editor's and pager's ways to run a command,
// delete or overwrite a file, and feed text to a shell.
func replEffects(ctx Context, line string, depth int) Verdict {
	switch ctx {
	case Debugger:
		if m := gdbDump.FindStringSubmatch(line); m != nil {
			if m[1] == "append" {
				return appendVerdict(m[2], "", depth)
			}
			return effectVerdict(writeFile, m[2], "", depth, "gdb dump")
		}
		if m := gdbShellFn.FindStringSubmatch(line); m != nil {
			return judgeCommand(strings.ReplaceAll(m[1], `\"`, `"`), depth, "a debugger call")
		}
		if m := gdbGuileSys.FindStringSubmatch(line); m != nil {
			var args []string
			for _, s := range gdbCString.FindAllStringSubmatch(m[2], -1) {
				args = append(args, strings.ReplaceAll(s[1], `\"`, `"`))
			}
			cmd := strings.Join(args, " ")
			if m[1] == "*" {
				var q []string
				for _, a := range args {
					q = append(q, shellQuote(a))
				}
				cmd = strings.Join(q, " ")
			}
			return judgeCommand(cmd, depth, "guile")
		}
		if m := gdbFileCall.FindStringSubmatch(line); m != nil {
			e := removeFile
			if m[1] == "truncate" {
				if m[3] != "0" {
					return Verdict{}
				}
				e = emptyFile
			}
			return effectVerdict(e, m[2], "", depth, "a debugger call")
		}
	case Editor:
		if !strings.HasPrefix(line, ":") {
			return Verdict{}
		}
		if m := vimExeExpr.FindStringSubmatch(line); m != nil {
			if cmd, ok := vimString(m[1]); ok {
				return classifyREPL(Editor, ":"+cmd, depth+1)
			}
		}
		for _, m := range vimDeleteFn.FindAllStringSubmatch(line, -1) {
			e := removeFile
			if strings.Contains(m[3], "rf") {
				e = removeTree
			}
			if v := effectVerdict(e, strings.ReplaceAll(m[1], "''", "'")+m[2], "", depth, "vim"); v.Dangerous {
				return v
			}
		}
		if v := vimLine(line, depth); v.Dangerous {
			return v
		}
		for _, m := range vimWriteFile.FindAllStringSubmatch(line, -1) {
			if strings.Contains(line[strings.Index(line, m[0])+len(m[0]):], "'a'") {
				continue // appended to
			}
			if v := effectVerdict(writeFile, strings.ReplaceAll(m[1], "''", "'")+m[2], "", depth, "vim"); v.Dangerous {
				return v
			}
		}
		if m := vimToCommand.FindStringSubmatch(line); m != nil {
			return pipeTarget(strings.TrimSpace(m[1]), depth, "vim")
		}
	case Pager:
		if m := lessPipe.FindStringSubmatch(line); m != nil {
			return pipeTarget(strings.TrimSpace(m[1]), depth, "less")
		}
		if m := lessSave.FindStringSubmatch(line); m != nil {
			return effectVerdict(writeFile, m[1], "", depth, "less")
		}
	}
	return Verdict{}
}

// vimString evaluates a Vim string expression of literals and expand()s
// joined with "." or "..": ':!rm -rf ' . expand('~').
func vimString(expr string) (string, bool) {
	var b strings.Builder
	for {
		m := vimStrPart.FindStringSubmatch(expr)
		if m == nil {
			return "", false
		}
		b.WriteString(strings.ReplaceAll(m[1], "''", "'") + m[2] + m[3] + m[4])
		expr = expr[len(m[0]):]
		if expr == "" {
			return b.String(), true
		}
		rest, ok := strings.CutPrefix(expr, "..")
		if !ok {
			if rest, ok = strings.CutPrefix(expr, "."); !ok {
				return "", false
			}
		}
		expr = rest
	}
}

// pyChmodEffect judges os.chmod(path, 0o644) as chmod 644 path.
func pyChmodEffect(call, rest string, strs []string) Verdict {
	if !strings.Contains(call, "chmod") {
		return Verdict{}
	}
	args := pyCallArgs(rest)
	p, ok := pyStringArg(rest, strs)
	if !ok || len(args) < 2 {
		return Verdict{}
	}
	mode := strings.TrimPrefix(strings.TrimPrefix(strings.Trim(args[1], " )"), "mode="), "0o")
	if mode == "" || strings.Trim(mode, "01234567") != "" {
		return Verdict{}
	}
	return effectVerdict(changeMode, p, mode, 0, "Python")
}

// ipythonCellMagic: a cell whose body (the lines after the magic) is shell
// (%%bash, %%sh, %%script bash…) or the text of a file (%%writefile [-a] path).
var ipythonCellMagic = regexp.MustCompile(`^%%(?:(bash|sh|zsh|script\s+(?:ba|z|da)?sh)|writefile(\s+-a)?\s+(\S+))\s*$`)

// ipythonAssignShell: "files = !cmd" captures a shell command's output.
var ipythonAssignShell = regexp.MustCompile(`^[\w,\s]+=\s*!{1,2}\s*(.+)$`)

// checkIPythonCell judges cell magics and captured shell escapes; ok
// reports that input was one, so the Python rules need not read it.
func checkIPythonCell(input string, depth int) (Verdict, bool) {
	first, body, _ := strings.Cut(strings.TrimLeft(input, "\n"), "\n")
	first = strings.TrimSpace(first)
	if m := ipythonCellMagic.FindStringSubmatch(first); m != nil {
		switch {
		case m[1] != "":
			return via(classify(Shell, body, depth+1), "an IPython cell magic"), true
		case m[2] != "":
			return Verdict{}, true // appended to
		default:
			return effectVerdict(writeFile, m[3], "", depth, "an IPython cell magic"), true
		}
	}
	if m := ipythonAPI.FindStringSubmatch(input); m != nil {
		if v := classify(Shell, m[1]+m[2], depth+1); v.Dangerous {
			return via(v, "IPython's system()"), true
		}
	}
	if m := ipythonAssignShell.FindStringSubmatch(first); m != nil && body == "" {
		return via(classify(Shell, m[1], depth+1), "an IPython shell escape"), true
	}
	return Verdict{}, false
}

var (
	// Vim's current-file modifiers that name its directory (%:p:h, %:h):
	// the project the file is in, as far as a deletion is concerned.
	vimFileDir = regexp.MustCompile(`%(?::p)?(?::h)+|expand\s*\(\s*['"]%(?::p)?(?::h)+['"]\s*\)`)
	vimCwd     = regexp.MustCompile(`(?:shellescape|fnameescape)\s*\(\s*getcwd\s*\(\s*\)\s*\)|getcwd\s*\(\s*\)`)
	vimEscFn   = regexp.MustCompile(`(?:shellescape|fnameescape)\s*\(\s*('(?:[^']|'')*'|"(?:[^"\\]|\\.)*")\s*\)`)
	vimSysExpr = regexp.MustCompile(`\bsystem(?:list)?\s*\((.+)\)\s*$`)
	// fugitive's :Git / :G run git with the arguments given.
	vimGit = regexp.MustCompile(`^:+\s*(?:Git|G)!?\s+(.+)$`)
	// A whole buffer deleted and written back: ":e file | %d | w", ":bufdo %d | w".
	vimEmptyAll = regexp.MustCompile(`^(?:%|1\s*,\s*\$|g/\^?\.?\*?/)\s*d(?:el(?:ete)?)?(?:\s+[a-z_"])?\s*$`)
	vimWriteCmd = regexp.MustCompile(`^(?:w(?:rite)?|wq|x(?:it)?|sav(?:eas)?|up(?:date)?|wa(?:ll)?)(!?)(?:\s+([^!\s]\S*))?\s*$`)
	// vimPutText: :r file, :r !cmd, :put, :0r …: text read into the buffer.
	vimPutText = regexp.MustCompile(`^[.$0-9]*(?:r(?:ead)?|pu(?:t)?)!?(?:\s|$)`)
	vimEdit    = regexp.MustCompile(`^(?:e(?:dit)?|sp(?:lit)?|vs(?:plit)?|tabe(?:dit)?)!?\s+(\S+)\s*$`)
	remoteURL  = regexp.MustCompile(`^(?:scp|sftp|ftp|rsync|https?|dav)://`)
	// gdb's dump and append write memory or a value to a file.
	gdbDump = regexp.MustCompile(`^(dump|append)\s+(?:(?:binary|ihex|srec|tekhex|verilog|value|memory)\s+)*(\S+)`)
	// IPython's API for the shell escape.
	ipythonAPI = regexp.MustCompile(`\bget_ipython\s*\(\s*\)\s*\.\s*(?:system|getoutput|run_line_magic\s*\(\s*['"](?:system|sx)['"]\s*,)\s*\(?\s*(?:'([^'\\]*)'|"([^"\\]*)")`)
)

// vimLine judges a Vim command line as a sequence of |-separated commands:
// the file an :edit opens is what a later %d and :w empty, or what a :w to
// a remote URL sends; :bufdo/:argdo/:windo empty every buffer.
func vimLine(line string, depth int) Verdict {
	if l := vimFileDir.ReplaceAllString(line, "."); l != line {
		return classifyREPL(Editor, l, depth+1)
	}
	if m := vimGit.FindStringSubmatch(line); m != nil {
		return judgeCommand("git "+m[1], depth, "vim :Git")
	}
	if m := vimSysExpr.FindStringSubmatch(line); m != nil {
		expr := vimCwd.ReplaceAllString(m[1], "'.'")
		expr = vimEscFn.ReplaceAllString(expr, "$1")
		if cmd, ok := vimString(expr); ok {
			return judgeCommand(cmd, depth, "vim system()")
		}
	}
	file, emptied, every := "", false, false
	for _, part := range splitUnescaped(strings.TrimLeft(line, ":"), '|') {
		part = strings.TrimSpace(part)
		for _, prefix := range []string{"bufdo ", "argdo ", "windo ", "tabdo ", "cdo ", "cfdo "} {
			if rest, ok := strings.CutPrefix(part, prefix); ok {
				part, every = strings.TrimSpace(rest), true
			}
		}
		if m := vimEdit.FindStringSubmatch(part); m != nil {
			file, emptied = m[1], false
			continue
		}
		if vimEmptyAll.MatchString(part) || part == "e!" || part == "edit!" || vimPutText.MatchString(part) {
			emptied = vimEmptyAll.MatchString(part) // :e! reloads the file as it is on disk; :r and :put fill the buffer again
			continue
		}
		if weakensSetting(part, file) {
			return hit("config-weakened")
		}
		m := vimWriteCmd.FindStringSubmatch(part)
		switch {
		case m == nil:
		case m[2] != "" && m[2] != "%" && m[2] != file && m[1] == "!" && !emptied:
			if v := forcedWriteVerdict(m[2]); v.Dangerous {
				return v // :w! /etc/nginx/nginx.conf: another buffer written over an existing file
			}
		case m[2] != "" && remoteURL.MatchString(m[2]) && file != "" && isSecretFile(file):
			return hit("expose-secret")
		case emptied && every:
			return hit("overwrite-protected")
		case emptied && m[2] != "" && !remoteURL.MatchString(m[2]):
			if v := checkWriteTarget(m[2]); v.Dangerous {
				return v // :%d | w! /etc/hosts: the emptied buffer written over the file named
			}
			return effectVerdict(emptyFile, m[2], "", depth, "vim")
		case emptied && file != "":
			return effectVerdict(emptyFile, file, "", depth, "vim")
		case emptied && m[2] == "":
			return hit("vim-empty-file") // :%d|wq: whatever file is open is written empty
		}
	}
	return Verdict{}
}

var (
	// Commands a Python library runs on another host (paramiko, fabric,
	// asyncssh): judged as that host's shell would run them.
	pyRemoteRun = regexp.MustCompile(`\.\s*(?:exec_command|sudo|run)\s*\(\s*(` + pyL + `)`)
	pyRemoteLib = regexp.MustCompile(`\b(?:paramiko|fabric|asyncssh|SSHClient|Connection)\b`)
	// Django lookups every row meets: pk__gte=0, id__gt=0, pk__isnull=False,
	// and the exclusions no row meets: exclude(pk=None), exclude(id__isnull=True).
	djangoEveryRow = regexp.MustCompile(`\.\s*objects\s*\.\s*(?:filter|exclude\s*\(\s*(?:pk|id)__isnull\s*=\s*True\s*\)\s*\.\s*filter)?\s*\(\s*(?:(?:pk|id)__gte?\s*=\s*[01]|(?:pk|id)__isnull\s*=\s*False)\s*\)\s*\.\s*(?:delete|update)\s*\(|` +
		`\.\s*objects\s*\.\s*(?:all\s*\(\s*\)\s*\.\s*)?exclude\s*\(\s*(?:(?:pk|id)\s*=\s*None|(?:pk|id)__isnull\s*=\s*True|(?:pk|id)__lte?\s*=\s*[0-]\d*)\s*\)\s*\.\s*(?:delete|update)\s*\(`)
)

func pyRemoteExec(code string, strs []string, depth int) Verdict {
	if pyRemoteLib.MatchString(code) || strings.Contains(code, "exec_command") {
		for _, m := range pyRemoteRun.FindAllStringSubmatch(code, -1) {
			if v := judgeCommand(litValue(m[1], strs), depth, "a remote command"); v.Dangerous {
				return v
			}
		}
	}
	return hitIf(djangoEveryRow.MatchString(code), "orm-delete-all")
}

// pyRemoveEffects judges os.remove/unlink of a file as rm -f of it, after
// the Python-specific checks have had their say.
func pyRemoveEffects(code string, strs []string, depth int) Verdict {
	for _, loc := range pyRemove.FindAllStringIndex(code, -1) {
		if p, ok := pyStringArg(code[loc[1]:], strs); ok && !strings.Contains(code[loc[0]:loc[1]], "dir") {
			if v := effectVerdict(removeFile, p, "", depth, "Python"); v.Dangerous {
				return v
			}
		}
	}
	return Verdict{}
}
