package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// checkFSCommand is the filesystem effect model's entry for one simple
// command: overwrites, programs that run a command line they are given
// (script -c, tmux, screen, parallel, git aliases, docker/kubectl exec),
// and interpreters' one-line deletions.
func checkFSCommand(c shell.Command, depth int) Verdict {
	if v := checkOverwriteCommand(c); v.Dangerous {
		return v
	}
	if line, how, ok := runsLine(c); ok && depth < shell.MaxDepth {
		return via(classifyShell(shell.ForParser(line, Shell), depth+1), how)
	}
	if v := checkScriptDeletes(c, depth); v.Dangerous {
		return v
	}
	if c.Name == "fd" || c.Name == "fdfind" {
		return checkFd(c, depth)
	}
	if c.Name == "gio" && len(c.Args) > 2 && (c.Args[1].S == "remove" || c.Args[1].S == "rm") {
		c = shell.Command{Name: "unlink", Args: c.Args[1:]} // gio remove deletes for good (gio trash does not)
	}
	if c.Name == "npx" || c.Name == "bunx" || c.Name == "pnpx" || (c.Name == "pnpm" || c.Name == "yarn") && len(c.Args) > 1 && c.Args[1].S == "dlx" {
		c = packageRun(c) // npx rimraf src runs rimraf
	}
	if globDeleters[c.Name] {
		var ops []shell.Word
		for _, w := range shell.ParseOpts(c.Args[1:], "").Operands {
			if !strings.HasPrefix(w.S, "!") { // del-cli's '!keep' excludes
				ops = append(ops, w)
			}
		}
		return deleteVerdict(ops, true)
	}
	if secureDeleters[c.Name] {
		o := shell.ParseOpts(c.Args[1:], "")
		for _, w := range o.Operands {
			if c.Name != "unlink" && isImportant(fsPath(w)) {
				return hit("rm-recursive-force")
			}
		}
		return deleteVerdict(o.Operands, o.Has("rR", "recursive"))
	}
	return Verdict{}
}

// globDeleters are the JavaScript ecosystem's rm -rf: they delete trees matched by globs.
var globDeleters = shell.Set("rimraf", "del-cli", "del", "premove")

// packageRun is the command a package runner (npx -y rimraf dist) runs.
func packageRun(c shell.Command) shell.Command {
	args := c.Args[1:]
	if c.Name == "pnpm" || c.Name == "yarn" {
		args = args[1:]
	}
	i := shell.AfterOptions(append([]shell.Word{{S: c.Name}}, args...), "p", shell.Set("package", "call")) - 1
	if i < 0 || i >= len(args) {
		return c
	}
	name := args[i].S
	if at := strings.LastIndexByte(name, '@'); at > 0 {
		name = name[:at] // rimraf@5
	}
	return shell.Command{Name: shell.ProgName(name), Args: args[i:]}
}

// secureDeleters delete like rm (after overwriting); unlink removes one file.
var secureDeleters = shell.Set("wipe", "srm", "unlink")

// runsLine returns the command line c runs on its behalf, if any.
func runsLine(c shell.Command) (line, how string, ok bool) {
	args := c.Args[1:]
	if len(c.Args) == 1 && strings.Contains(c.Args[0].S, " ") && slices.Contains(c.Programs, "watch") {
		return c.Args[0].S, "watch", true
	}
	switch c.Name {
	case "script":
		if w, ok := shell.DashC(args, 'c', "command"); ok {
			return w.S, "script -c", true
		}
	case "flock":
		if w, ok := shell.DashC(args, 'c', "command"); ok {
			return w.S, "flock -c", true
		}
	case "-c", "--command": // flock FILE -c CMD, after the wrapper
		if slices.Contains(c.Programs, "flock") && len(c.Args) > 1 {
			return c.Args[1].S, "flock -c", true
		}
	case "tmux":
		return tmuxLine(args)
	case "screen":
		i := shell.AfterOptions(c.Args, "SchpTe", nil)
		if i < len(c.Args) {
			return shellJoin(c.Args[i:]), "screen", true
		}
	case "expect":
		// expect -c 'spawn CMD' runs CMD
		if w, ok := shell.DashC(args, 'c', ""); ok {
			for _, kw := range []string{"spawn ", "exec "} {
				if _, cmd, ok := strings.Cut(w.S, kw); ok {
					return strings.TrimPrefix(strings.TrimSpace(cmd), "-noecho "), "expect", true
				}
			}
		}
	case "sg":
		if w, ok := shell.DashC(args, 'c', ""); ok {
			return w.S, "sg -c", true
		}
	case "setpriv", "nsenter", "unbuffer", "firejail", "bwrap", "pkexec", "xvfb-run", "dbus-run-session", "proxychains", "proxychains4", "torsocks", "ssh-agent":
		i := shell.AfterOptions(c.Args, "tSGwr", shell.Set("reuid", "regid", "groups", "target", "setuid", "setgid", "wd", "root", "bind", "ro-bind"))
		if i < len(c.Args) {
			return shellJoin(c.Args[i:]), c.Name, true
		}
	case "parallel":
		return parallelLine(c.Args)
	case "git":
		return gitAliasLine(args)
	case "docker", "podman", "kubectl", "oc":
		return execLine(c)
	}
	return "", "", false
}

var tmuxKeys = shell.Set("Enter", "C-m", "KPEnter", "C-j")

var tmuxRuns = shell.Set("new", "new-session", "neww", "new-window", "splitw", "split-window", "respawn-pane", "respawnp", "run-shell", "run")

func tmuxLine(args []shell.Word) (string, string, bool) {
	for i, w := range args {
		if w.S == "send-keys" || w.S == "send" {
			rest := append([]shell.Word{{S: w.S}}, args[i+1:]...)
			var keys []string
			for _, k := range rest[shell.AfterOptions(rest, "tN", nil):] {
				if !tmuxKeys[k.S] {
					keys = append(keys, k.S)
				}
			}
			return strings.Join(keys, " "), "tmux send-keys", len(keys) > 0
		}
		if !tmuxRuns[w.S] {
			continue
		}
		rest := append([]shell.Word{{S: w.S}}, args[i+1:]...)
		j := shell.AfterOptions(rest, "stnecxyFlpbf", nil)
		if j < len(rest) {
			return shellJoin(rest[j:]), "tmux", true
		}
	}
	return "", "", false
}

// parallelLine: parallel CMD ::: A B runs CMD A and CMD B ({} stands for
// the argument when present).
func parallelLine(ws []shell.Word) (string, string, bool) {
	i := shell.AfterOptions(ws, "jNSaIdE", nil)
	var cmd, items []string
	for ; i < len(ws) && ws[i].S != ":::" && ws[i].S != "::::"; i++ {
		cmd = append(cmd, ws[i].S)
	}
	if i < len(ws) && ws[i].S == ":::" {
		items = shell.Lits(ws[i+1:])
	}
	if len(cmd) == 0 {
		return "", "", false
	}
	tmpl := strings.Join(cmd, " ")
	if !strings.Contains(tmpl, "{}") {
		tmpl += " {}"
	}
	var lines []string
	for _, it := range items {
		lines = append(lines, strings.ReplaceAll(tmpl, "{}", it))
	}
	if len(lines) == 0 {
		lines = []string{strings.ReplaceAll(tmpl, "{}", "")}
	}
	return strings.Join(lines, "\n"), "parallel", true
}

// gitAliasLine: git -c alias.x='!cmd' x runs cmd through the shell.
func gitAliasLine(args []shell.Word) (string, string, bool) {
	aliases := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "-c" && i+1 < len(args):
			i++
			if k, v, ok := strings.Cut(args[i].S, "="); ok && strings.HasPrefix(k, "alias.") && strings.HasPrefix(v, "!") {
				aliases[strings.TrimPrefix(k, "alias.")] = v[1:]
			}
		case a == "-C" && i+1 < len(args):
			i++
		case !strings.HasPrefix(a, "-"):
			if line, ok := aliases[a]; ok {
				return line, "a git alias", true
			}
			return "", "", false
		}
	}
	return "", "", false
}

// execLine: docker exec CONTAINER CMD..., kubectl exec POD -- CMD...
func execLine(c shell.Command) (string, string, bool) {
	args := c.Args[1:]
	if len(args) == 0 {
		return "", "", false
	}
	sub := 0
	for sub < len(args) && strings.HasPrefix(args[sub].S, "-") {
		sub++
	}
	if sub < len(args) && args[sub].S == "run" && (c.Name == "docker" || c.Name == "podman") {
		return runLine(args[sub+1:], c.Name)
	}
	if sub >= len(args) || args[sub].S != "exec" {
		return "", "", false
	}
	rest := args[sub:]
	if c.Name == "kubectl" || c.Name == "oc" {
		for i, w := range rest {
			if w.S == "--" && i+1 < len(rest) {
				return shellJoin(rest[i+1:]), c.Name + " exec", true
			}
		}
		return "", "", false
	}
	i := shell.AfterOptions(rest, "euw", shell.Set("env", "user", "workdir", "detach-keys", "env-file"))
	if i+1 < len(rest) {
		return shellJoin(rest[i+1:]), c.Name + " exec", true
	}
	return "", "", false
}

var (
	// scriptDelete finds a deletion call and its first argument in perl,
	// ruby, node, php and awk one-liners; scriptRecursive says whether it
	// removes a whole tree.
	// (os.remove is Lua's, and Python's: lua -e, a Lua console)
	scriptDelete     = regexp.MustCompile(`\b(rmtree|remove_tree|rm_rf|rm_r|remove_dir|remove_entry_secure|rmSync|rmdirSync|rimraf|rm|rmdir|unlink|unlinkSync|delete|os\.remove)\b\s*\(?\s*([^;]*)`)
	scriptRecursive  = regexp.MustCompile(`rmtree|remove_tree|rm_rf|rm_r\b|remove_dir|remove_entry|rimraf|recursive:\s*true`)
	scriptHomeInterp = regexp.MustCompile(`#\{\s*(?:Dir\.home|ENV\[["']HOME["']\])\s*\}|\$\{(?:os\.homedir\(\)|process\.env\.HOME)\}`)
	scriptRun        = regexp.MustCompile(`\b(?:os\.execute|popen|IO\.popen|Popen|spawn|proc_open|execFileSync|Kernel\.system)\s*\(?\s*["'\x60]([^"'\x60]+)`)
	scriptCwd        = regexp.MustCompile(`process\.cwd\(\)|Dir\.pwd|getcwd\(\)|Deno\.cwd\(\)`)
	scriptHome       = regexp.MustCompile(`\$ENV\{HOME\}|ENV\[["']HOME["']\]|Dir\.home|process\.env\.HOME|os\.homedir\(\)|require\(["']os["']\)\.homedir\(\)|getenv\(["']HOME["']\)|\$_SERVER\[["']HOME["']\]|ENVIRON\[["']HOME["']\]`)
	scriptStr        = regexp.MustCompile(`"([^"]*)"|'([^']*)'|\x60([^\x60]*)\x60|(~)`)
	awkSystem        = regexp.MustCompile(`system\s*\(\s*"([^"]*)"`)
	awkSystemConcat  = regexp.MustCompile(`system\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)`)
	awkStringLit     = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	// scriptEmpties writes an empty string over a file; scriptWrites opens
	// one for writing (truncating it): perl open(F, ">", f), ruby
	// File.open(f, "w"), awk print ... > f.
	scriptEmpties = regexp.MustCompile(`\b(?:file_put_contents|File\.write|IO\.write|IO\.binwrite|writeFileSync|writeFile|write_file|spurt)\s*\(\s*([^,]+),\s*(?:""|''|\x60\x60)\s*[,)]`)
	scriptWrites  = regexp.MustCompile(`\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*["']>["']\s*,\s*([^)]+)\)|\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*["']>\s*([^"'>][^"']*)["']|\bFile\.open\s*\(\s*([^,]+),\s*["']w\+?b?["']|\bfopen\s*\(\s*([^,]+),\s*["']w\+?b?["']`)
	awkWrite      = regexp.MustCompile(`\bprintf?\b[^>;}]*>\s*([^;}>|]+)`)
)

// scriptOverwrites judges the files a one-liner's code truncates or
// empties, like > f in the shell.
func scriptOverwrites(code string) Verdict {
	code = scriptHome.ReplaceAllString(scriptHomeInterp.ReplaceAllString(code, "~"), `"~"`)
	for _, m := range scriptEmpties.FindAllStringSubmatch(code, -1) {
		if v := overwriteVerdict(scriptPath(m[1]), byEmpty); v.Dangerous {
			return v
		}
	}
	for _, m := range scriptWrites.FindAllStringSubmatch(code, -1) {
		p := scriptPath(m[1] + m[3] + m[4])
		if m[2] != "" {
			p = strings.TrimSpace(m[2])
		}
		if v := overwriteVerdict(p, byWrite); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// checkScriptDeletes: perl -e 'rmtree(...)', ruby -e 'FileUtils.rm_rf(...)',
// node -e "fs.rmSync(..., {recursive: true})", php -r 'unlink(...)', awk
// 'BEGIN { system("rm -rf ...") }': the path is judged like rm's.
func checkScriptDeletes(c shell.Command, depth int) Verdict {
	var codes []string
	switch {
	case c.Name == "awk" || c.Name == "gawk" || c.Name == "mawk":
		ops := shell.ParseOpts(c.Args[1:], "Fvf").Operands
		if len(ops) > 0 {
			for _, m := range awkSystem.FindAllStringSubmatch(ops[0].S, -1) {
				if v := classifyShell(shell.ForParser(m[1], Shell), depth+1); v.Dangerous {
					return via(v, c.Name)
				}
			}
			// system("rm -rf " $1): a command built from each input line, as
			// xargs -I {} rm -rf {} builds it.
			for _, m := range awkSystemConcat.FindAllStringSubmatch(ops[0].S, -1) {
				if line, ok := awkTemplate(m[1]); ok {
					if v := classifyShell("xargs -I {} "+line+" < lines", depth+1); v.Dangerous {
						return via(v, c.Name)
					}
				}
			}
			code := scriptHome.ReplaceAllString(ops[0].S, `"~"`)
			for _, m := range awkWrite.FindAllStringSubmatch(code, -1) {
				if v := overwriteVerdict(scriptPath(m[1]), byWrite); v.Dangerous {
					return via(v, c.Name)
				}
			}
		}
		return Verdict{}
	case scriptInterps[c.Name]:
		for _, f := range []string{"-e", "-E", "-r"} {
			codes = append(codes, optionValues(c.Args[1:], f, "")...)
		}
		codes = append(codes, optionValues(c.Args[1:], "--eval", "--eval")...)
	}
	for _, code := range codes {
		if v := checkScriptCode(code, depth); v.Dangerous {
			return via(v, c.Name)
		}
	}
	return Verdict{}
}

// checkScriptCode judges perl, ruby, node or php code (a one-liner, or a
// line typed into their consoles) by the commands it runs and the paths its
// deletion calls name.
func checkScriptCode(code string, depth int) Verdict {
	lines := argvCalls(code)
	for _, re := range []*regexp.Regexp{scriptRun, scriptSystem} {
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			lines = append(lines, strings.Join(m[1:], ""))
		}
	}
	for _, line := range lines {
		if v := classifyShell(shell.ForParser(line, Shell), depth+1); v.Dangerous {
			return v
		}
	}
	if v := scriptOverwrites(code); v.Dangerous {
		return v
	}
	if v := checkBuiltCommands("the script", code, depth); v.Dangerous {
		return v
	}
	code = scriptHomeInterp.ReplaceAllString(code, `~`)
	code = scriptHome.ReplaceAllString(code, `~`)
	code = scriptCwd.ReplaceAllString(code, `"."`)
	for _, m := range scriptDelete.FindAllStringSubmatch(code, -1) {
		p := scriptPath(m[2])
		if p == "" {
			continue
		}
		v := fileVerdict(p)
		if bulkGlob(p) { // unlink glob("*"), File.delete(*Dir["*.rb"]): a folder's entries, as rm * deletes them
			v = treeVerdict(p)
		}
		if scriptRecursive.MatchString(m[0]) {
			v = treeVerdict(p)
			if isImportant(p) {
				v = hit("rm-recursive-force")
			}
		}
		if v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// scriptNameAfter: a name concatenated after the last literal ('/tmp/' + f, "/srv/" . $d).
var scriptNameAfter = regexp.MustCompile(`^\s*[+.]\s*[$@]?[A-Za-z_]`)

// scriptPath joins the string literals of the first argument expression:
// File.join("~", "work") and "~" + '/code' are both ~/code.
func scriptPath(arg string) string {
	var b strings.Builder
	depth := 0
	end := len(arg)
	for i, r := range arg {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',', '{':
			if depth == 0 && !inQuotes(arg[:i]) {
				end = i
			}
		}
		if end != len(arg) {
			break
		}
	}
	last := 0
	for _, m := range scriptStr.FindAllStringSubmatchIndex(arg[:end], -1) {
		s := ""
		for g := 2; g <= 8; g += 2 {
			if m[g] >= 0 {
				s += arg[m[g]:m[g+1]]
			}
		}
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "/") && !strings.HasPrefix(s, "/") {
			b.WriteByte('/')
		}
		b.WriteString(s)
		last = m[1]
	}
	if b.Len() > 0 && scriptNameAfter.MatchString(arg[last:end]) {
		b.WriteByte('*') // '/tmp/' + f: an entry of the directory, not the directory
	}
	return b.String()
}

func inQuotes(s string) bool {
	return (strings.Count(s, `"`)%2 == 1) || (strings.Count(s, `'`)%2 == 1)
}

// shellJoin turns words back into a command line, quoting those that need it.
// One word is a command line already (tmux new 'rm -rf x').
func shellJoin(ws []shell.Word) string {
	if len(ws) == 1 {
		return ws[0].S
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = shellQuote(w.S)
	}
	return strings.Join(out, " ")
}

var argvCall = regexp.MustCompile(`\b(?:system|exec|execSync|execFile|execFileSync|spawn|spawnSync|popen|Popen|execute)\s*\(`)

// argvCalls are the commands run by calls given a program and its
// arguments as separate strings: system("rm", "-rf", $d),
// spawnSync('rm', ['-rf', dir]).
func argvCalls(code string) []string {
	var out []string
	for _, loc := range argvCall.FindAllStringIndex(code, -1) {
		depth, end := 1, len(code)
		for i := loc[1]; i < len(code) && depth > 0; i++ {
			switch code[i] {
			case '(':
				depth++
			case ')':
				depth--
				end = i
			}
		}
		var words []string
		for _, m := range scriptStr.FindAllStringSubmatch(code[loc[1]:end], -1) {
			words = append(words, m[1]+m[2]+m[3]+m[4])
		}
		if len(words) > 1 {
			out = append(out, shellJoin(wordsOf(words)))
		}
	}
	return out
}

var runValueOpts = shell.Set("-v", "--volume", "-e", "--env", "-w", "--workdir", "--name", "-p", "--publish", "--network", "--net",
	"--entrypoint", "-u", "--user", "--mount", "--env-file", "-l", "--label", "--platform", "-m", "--memory", "--cpus", "-h", "--hostname")

// runLine: docker run -v HOST:CTR IMAGE CMD... runs CMD with CTR standing
// for HOST, so rm -rf /h/code on -v $HOME:/h deletes ~/code.
func runLine(args []shell.Word, name string) (string, string, bool) {
	type mount struct{ host, ctr string }
	var mounts []mount
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i].S, "-"); i++ {
		a := args[i].S
		opt, val, inline := strings.Cut(a, "=")
		if !runValueOpts[opt] {
			continue
		}
		w := shell.Word{S: val}
		if !inline {
			if i+1 >= len(args) {
				break
			}
			i++
			w = args[i]
		}
		if opt == "-v" || opt == "--volume" {
			if host, ctr, ok := strings.Cut(fsPath(w), ":"); ok {
				ctr, _, _ = strings.Cut(ctr, ":")
				mounts = append(mounts, mount{host, strings.TrimSuffix(ctr, "/")})
			}
		}
	}
	if len(mounts) == 0 || i+1 >= len(args) {
		return "", "", false
	}
	cmd := make([]shell.Word, 0, len(args)-i-1)
	for _, w := range args[i+1:] {
		for _, m := range mounts {
			if m.ctr != "" && (w.S == m.ctr || strings.HasPrefix(w.S, m.ctr+"/")) {
				w = shell.Word{S: strings.TrimSuffix(m.host, "/") + strings.TrimPrefix(w.S, m.ctr)}
				break
			}
		}
		cmd = append(cmd, w)
	}
	return shellJoin(cmd), name + " run", true
}

// awkTemplate turns the argument of awk's system(), a concatenation of
// string literals and expressions ("rm -rf " $1 "/"), into a command line
// whose expressions are {}; false when it has no expression.
func awkTemplate(arg string) (string, bool) {
	var b strings.Builder
	dyn, last := false, 0
	for _, loc := range awkStringLit.FindAllStringSubmatchIndex(arg, -1) {
		if strings.TrimSpace(arg[last:loc[0]]) != "" {
			b.WriteString("{}")
			dyn = true
		}
		b.WriteString(arg[loc[2]:loc[3]])
		last = loc[1]
	}
	if strings.TrimSpace(arg[last:]) != "" {
		b.WriteString("{}")
		dyn = true
	}
	return b.String(), dyn
}
