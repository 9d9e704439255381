package danger

import (
	"path"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Deletions whose targets a single simple command does not show: what find
// selects, what a producer pipes into xargs rm or a while-read loop, the
// items a for loop binds, and the directory an earlier cd moved to.

// findSelectsProtected reports whether find c, started where it is, selects
// files whose deletion the policy protects: a protected tree with no name
// test, a negated one, or a name that is not a known artifact (*.py, src).
func findSelectsProtected(c shell.Command) bool {
	starts, expr := findSplit(c.Args[1:])
	protected := false
	for _, s := range starts {
		// find /tmp -mtime +7 -delete is how temporary directories are cleaned.
		protected = protected || treeProtected[classifyPath(fsPath(s))] && !isTempDir(fsPath(s)) && !rotatedLogsOnly(fsPath(s), expr)
	}
	if !protected {
		return false
	}
	named, negated := false, false
	for i, w := range expr {
		switch w.S {
		case "-empty":
			return false
		case "!", "-not":
			negated = true
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			if i+1 >= len(expr) {
				continue
			}
			if negated {
				return true
			}
			if i+3 < len(expr) && expr[i+2].S == "-prune" && (expr[i+3].S == "-o" || expr[i+3].S == "-or") {
				continue // -path ./node_modules -prune excludes, it does not select
			}
			named = true
			if !artifactPattern(expr[i+1].S) {
				return true
			}
		default:
			negated = false
		}
	}
	return !named
}

// findSplit separates find's starting points from its expression.
func findSplit(args []shell.Word) (starts, expr []shell.Word) {
	i := 0
	for i < len(args) && (args[i].S == "-H" || args[i].S == "-L" || args[i].S == "-P" || strings.HasPrefix(args[i].S, "-O")) {
		i++
	}
	for ; i < len(args) && !findExpr(args[i].S); i++ {
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []shell.Word{{S: "."}}
	}
	return starts, args[i:]
}

// artifactPattern: a find name test that selects generated files
// (*.pyc, __pycache__, core.*, *~).
func artifactPattern(p string) bool {
	p = strings.TrimPrefix(strings.TrimPrefix(p, "*/"), "./")
	if alts, ok := bracketAlternatives(p); ok {
		return slices.ContainsFunc(alts, artifactPattern) // *.[oa], *.s[ol]
	}
	ext := strings.TrimLeft(p, "*")
	switch {
	case osJunk[p]:
		return true
	case strings.HasPrefix(p, "core") || strings.HasSuffix(p, "~") || strings.HasPrefix(p, "#") || strings.HasPrefix(p, ".#"):
		return true
	case scratchNames[p] || scratchWord.MatchString(p) || scratchWord.MatchString("x"+ext):
		return true
	}
	return artifactExts[strings.TrimPrefix(ext, ".")] || artifactExts[strings.TrimPrefix(path.Ext(p), ".")] || artifactGlob(p)
}

var osJunk = shell.Set(".DS_Store", "Thumbs.db", "desktop.ini", "._*", ".directory", "ehthumbs.db")

var artifactExts = shell.Set("lto", "wasm", "lst", "dyn", "profraw", "profdata", "profclang", "d", "dep", "elc", "hi", "cmi", "cmo", "cmx",
	"rlib", "rmeta", "ko", "gch", "pch", "ilk", "pdb", "tlog", "gcov", "map", "pyo", "crdownload", "part", "DS_Store", "swo", "gcda", "gcno", "obj", "retry", "out",
	"tsbuildinfo", "snap", "exe", "dll", "so", "a", "dylib", "dSYM", "whl", "zip", "tar.gz", "tgz", "bak", "old", "cache", "lock")

// producesProtected reports whether the stage c writes to its stdout the
// names of paths whose deletion needs confirmation (recursively when
// recursive): find as above, ls of a protected tree or glob.
func producesProtected(c shell.Command, recursive bool) bool {
	switch c.Name {
	case "git":
		// the project's tracked sources, or those git grep -l finds, in this
		// checkout or another (git -C ~/src/api ls-files)
		i := 1 + gitSubcommand(c.Args[1:])
		if i >= len(c.Args) {
			return false
		}
		if c.Args[i].S == "grep" {
			return grepListsProtected(shell.Command{Name: "git", Args: c.Args[i-1:]})
		}
		if c.Args[i].S == "status" || c.Args[i].S == "diff" && slices.ContainsFunc(c.Args, func(w shell.Word) bool { return w.S == "--name-only" || w.S == "--name-status" }) {
			return true // the files with uncommitted changes: the work not yet in git
		}
		return (c.Args[i].S == "ls-files" || c.Args[i].S == "ls-tree" && slices.ContainsFunc(c.Args, func(w shell.Word) bool { return w.S == "--name-only" })) &&
			!artifactPathspecs(c.Args[i+1:])
	case "echo", "printf":
		// printf '%s\n' * lists the glob's matches, like ls
		ops := c.Args[1:]
		if c.Name == "printf" && len(ops) > 0 {
			ops = ops[1:]
		}
		if deleteVerdict(ops, recursive).Dangerous {
			return true
		}
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "ack-grep", "ug":
		return grepListsProtected(c)
	case "find", "fd", "fdfind":
		return c.Name == "find" && findSelectsProtected(c)
	case "ls":
		ops := shell.ParseOpts(c.Args[1:], "IwT").Operands
		if len(ops) == 0 {
			ops = []shell.Word{{S: "*"}}
		}
		for _, w := range ops {
			v := fileVerdict(fsPath(w))
			if recursive {
				v = treeVerdict(fsPath(w))
			}
			if v.Dangerous {
				return true
			}
		}
	}
	return false
}

// passesNames: pipeline stages that filter names without making new ones.
var passesNames = shell.Set("grep", "egrep", "fgrep", "sort", "uniq", "head", "tail", "sed", "awk", "cut", "tr", "cat", "tee")

// deletesInput reports whether c deletes the names that arrive on its
// stdin (xargs rm -rf), and whether recursively.
func deletesInput(c shell.Command) (deletes, recursive bool) {
	if c.Name == "parallel" && !slices.ContainsFunc(c.Args, func(w shell.Word) bool { return strings.HasPrefix(w.S, ":::") }) {
		// parallel with no ::: takes its arguments from stdin, as xargs does.
		i := shell.AfterOptions(c.Args, "jNSaIdE", nil)
		if i >= len(c.Args) {
			return false, false
		}
		c = shell.Command{Name: shell.ProgName(c.Args[i].S), Args: c.Args[i:], MoreArgs: true}
	}
	if c.MoreArgs && posixShells[c.Name] {
		return shellDeletesArgs(c)
	}
	if !c.MoreArgs || !deleters[c.Name] {
		return false, false
	}
	o := shell.ParseOpts(c.Args[1:], "")
	for _, w := range o.Operands {
		// xargs -I{} rm -rf packages/{}/dist deletes what the template names
		if strings.Contains(w.S, "{}") && classifyPath(strings.ReplaceAll(w.S, "{}", "x")) == pcScratch {
			return false, false
		}
	}
	return true, c.Name == "rm" && o.Has("rR", "recursive")
}

// checkNamePipeline flags producer | filters... | xargs rm, and
// yes | ssh-keygen -f KEY (yes answers "Overwrite?").
func checkNamePipeline(stages []shell.Command) Verdict {
	for i, c := range stages {
		if c.Name == "ssh-keygen" && i > 0 && stages[i-1].Name == "yes" {
			for _, f := range optionValues(c.Args[1:], "-f", "") {
				if v := overwriteVerdict(f, byWrite); v.Dangerous {
					return v
				}
			}
		}
		del, rec := deletesInput(c)
		if !del {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if producesProtected(stages[j], rec) {
				return hit("delete-protected-tree")
			}
			if !passesNames[stages[j].Name] {
				break
			}
		}
	}
	return Verdict{}
}

// loopDeletes reports whether the body deletes the loop variable's value,
// and whether recursively: rm -rf "$d", find "$d" -delete.
func loopDeletes(body []*syntax.Stmt, name string) (deletes, recursive bool) {
	syntax.Walk(&syntax.Block{Stmts: body}, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		c, ok := shell.BuildCommand(call)
		if !ok || !deleters[c.Name] {
			return true
		}
		o := shell.ParseOpts(c.Args[1:], "")
		for _, w := range o.Operands {
			if w.Node != nil && paramName(w.Node) == name && !scratchSuffix(w.Node) {
				deletes = true
				recursive = recursive || c.Name == "rm" && o.Has("rR", "recursive")
			}
		}
		return true
	})
	return deletes, recursive
}

// scratchSuffix: the word goes on from its variable into an artifact
// ("$d/node_modules", "$d"/build), which is all the loop deletes.
func scratchSuffix(w *syntax.Word) bool {
	parts := w.Parts
	if dq, ok := parts[0].(*syntax.DblQuoted); ok && len(parts) == 1 {
		parts = dq.Parts
	} else if ok {
		parts = append(append([]syntax.WordPart{}, dq.Parts...), parts[1:]...)
	}
	rest := shell.ResolveWord(&syntax.Word{Parts: parts[1:]}).S
	return len(parts) > 1 && classifyPath("x/"+rest) == pcScratch
}

// paramName: the variable a word starts with ("$d", "${d}/").
func paramName(w *syntax.Word) string {
	parts := w.Parts
	if len(parts) > 0 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) > 0 {
		if p, ok := parts[0].(*syntax.ParamExp); ok && p.Param != nil {
			return p.Param.Value
		}
	}
	return ""
}

// checkForLoop: for d in ~/code/*/; do rm -rf "$d"; done deletes each item.
func checkForLoop(f *syntax.ForClause) Verdict {
	it, ok := f.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil {
		return Verdict{}
	}
	del, rec := loopDeletes(f.Do, it.Name.Value)
	if !del {
		return Verdict{}
	}
	var items []shell.Word
	for _, w := range it.Items {
		if cs, ok := firstPart(w).(*syntax.CmdSubst); ok && len(cs.Stmts) == 1 {
			if call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr); ok {
				if p, ok := shell.BuildCommand(call); ok && (producesProtected(p, rec) || rec && readsListFile(p)) {
					return hit("delete-protected-tree") // for d in $(ls); do rm -rf $d, or $(cat list)
				}
			}
		}
		items = append(items, shell.ResolveWord(w))
	}
	return deleteVerdict(items, rec)
}

// checkReadLoop: producer | while read d; do rm -rf "$d"; done, and the
// same loop fed by < <(producer).
func checkReadLoop(s *syntax.Stmt, producers []shell.Command) Verdict {
	w, ok := s.Cmd.(*syntax.WhileClause)
	if !ok || len(w.Cond) != 1 {
		return Verdict{}
	}
	call, ok := w.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return Verdict{}
	}
	c, ok := shell.BuildCommand(call)
	if !ok || c.Name != "read" {
		return Verdict{}
	}
	ops := shell.ParseOpts(c.Args[1:], "adnNptu").Operands
	if len(ops) == 0 {
		return Verdict{}
	}
	del, rec := loopDeletes(w.Do, ops[len(ops)-1].S)
	if !del {
		return Verdict{}
	}
	for _, r := range s.Redirs {
		if ps, ok := firstPart(r.Word).(*syntax.ProcSubst); ok && len(ps.Stmts) == 1 {
			if pc, ok := ps.Stmts[0].Cmd.(*syntax.CallExpr); ok {
				if p, ok := shell.BuildCommand(pc); ok {
					producers = append(producers, p)
				}
			}
		}
	}
	if rec && stdinFile(s.Redirs) {
		return hit("delete-protected-tree") // the names kept in a file: done < dirs.txt
	}
	for _, p := range producers {
		if producesProtected(p, rec) || rec && readsListFile(p) {
			return hit("delete-protected-tree")
		}
	}
	return Verdict{}
}

func firstPart(w *syntax.Word) syntax.WordPart {
	if w == nil || len(w.Parts) == 0 {
		return nil
	}
	return w.Parts[0]
}

// cwdDeleters are the commands whose relative targets an earlier cd moves.
var cwdDeleters = shell.Set("rm", "shred", "find")

// checkAfterCd judges deletions against the directory the line changed to
// with cd: cd ~ && rm -rf * deletes the home directory's contents.
// The calls it judged with a known directory are returned, so they are not
// judged again as if run where the line started.
func checkAfterCd(f *syntax.File, depth int) (Verdict, map[*syntax.CallExpr]bool) {
	cwd := ""
	judged := map[*syntax.CallExpr]bool{}
	v := inOrder(f, func(call *syntax.CallExpr, c shell.Command) Verdict {
		switch {
		case c.Name == "cd" || c.Name == "pushd":
			cwd = cdTarget(c, cwd)
		case cwd != "" && cwdDeleters[c.Name]:
			judged[call] = true
			return checkCommand(relativeTo(c, cwd), depth)
		case cwd != "" && iacInDisposableDir(c, cwd):
			judged[call] = true // a sandbox's own configuration (platform_target.go)
		case cwd != "" && cwdExtractors[c.Name] != "":
			return checkCommand(extractIn(c, cwd), depth)
		}
		return Verdict{}
	})
	return v, judged
}

// inOrder hands judge each simple command of f, in the order they run, with
// its call, until a verdict is dangerous, and returns that verdict: the walk
// of the checks that carry what earlier commands did (a cd, an mv, a saved
// plan) to later ones.
func inOrder(f *syntax.File, judge func(call *syntax.CallExpr, c shell.Command) Verdict) Verdict {
	var v Verdict
	eachCommand(f, func(st *syntax.Stmt, c shell.Command) bool {
		v = judge(st.Cmd.(*syntax.CallExpr), c)
		return v.Dangerous
	})
	return v
}

// eachCommand hands fn each simple command under n, in the order they run,
// with the statement that holds it (its redirections), until fn returns true.
func eachCommand(n syntax.Node, fn func(st *syntax.Stmt, c shell.Command) (stop bool)) {
	stop := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if stop {
			return false
		}
		if st, ok := n.(*syntax.Stmt); ok {
			if call, ok := st.Cmd.(*syntax.CallExpr); ok {
				if c, ok := shell.BuildCommand(call); ok {
					stop = fn(st, c)
				}
			}
		}
		return !stop
	})
}

func cdTarget(c shell.Command, cwd string) string {
	ops := shell.ParseOpts(c.Args[1:], "").Operands
	switch {
	case len(ops) == 0:
		return "~"
	case ops[0].Dyn() && fsPath(ops[0]) == ops[0].S, ops[0].S == "-":
		return ""
	}
	p := fsPath(ops[0])
	if cwd != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		p = path.Join(cwd, p)
	}
	return p
}

// relativeTo rewrites c's relative path operands (find's starting points)
// to lie under dir.
func relativeTo(c shell.Command, dir string) shell.Command {
	args := append([]shell.Word{c.Args[0]}, c.Args[1:]...)
	end := len(args)
	if c.Name == "find" {
		_, expr := findSplit(args[1:])
		if len(expr) == len(args)-1 { // no explicit start: find's is "."
			args = append([]shell.Word{args[0], {S: "."}}, args[1:]...)
			end = 2
		} else {
			end = len(args) - len(expr)
		}
	}
	for i := 1; i < end; i++ {
		p := fsPath(args[i])
		if strings.HasPrefix(p, "-") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, shell.DynMark) {
			continue
		}
		if strings.HasPrefix(p, "..") {
			// cd app/build && rm -rf ../*: what ".." climbs to is the
			// directory above, not something under build.
			args[i] = shell.Word{S: path.Join(dir, p)}
			continue
		}
		args[i] = shell.Word{S: strings.TrimSuffix(dir, "/") + "/" + p}
	}
	c.Args = args
	return c
}

// substProducer: the command that lists a word's names, as in
// rm -rf $(ls | grep -v keep) or `find . -name x`.
func substProducer(w shell.Word) (shell.Command, bool) {
	if w.Node == nil {
		return shell.Command{}, false
	}
	part := firstPart(w.Node)
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) > 0 {
		part = dq.Parts[0]
	}
	cs, ok := part.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return shell.Command{}, false
	}
	stmt := cs.Stmts[0]
	if b, ok := stmt.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		stages := shell.Pipeline(b)
		for _, s := range stages[1:] {
			if c, ok := s.Cmd.(*syntax.CallExpr); !ok || len(c.Args) == 0 || !passesNames[shell.ProgName(shell.ResolveWord(c.Args[0]).S)] {
				return shell.Command{}, false
			}
		}
		stmt = stages[0]
	}
	call, ok := stmt.Cmd.(*syntax.CallExpr)
	if !ok {
		return shell.Command{}, false
	}
	return shell.BuildCommand(call)
}

var posixShells = shell.Set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox")

// shellDeletesArgs reports whether c is sh -c 'SCRIPT' _ ARGS... whose
// script deletes its positional arguments ("$1", "$@"), and whether
// recursively: find -exec sh -c 'rm -rf "$1"' _ {} \; and
// xargs sh -c 'rm -rf "$@"' _ delete what find and xargs hand them.
func shellDeletesArgs(c shell.Command) (deletes, recursive bool) {
	if !posixShells[c.Name] {
		return false, false
	}
	w, ok := shell.DashC(c.Args[1:], 'c', "")
	if !ok {
		return false, false
	}
	script := w.S
	if c.Replace != "" { // xargs -I % sh -c 'rm -rf %': each line is the script's "$1"
		script = strings.ReplaceAll(script, c.Replace, "$1")
	}
	f, err := shell.Parse(script)
	if err != nil {
		return false, false
	}
	for _, name := range []string{"1", "@", "*", "0"} {
		d, r := loopDeletes(f.Stmts, name)
		deletes, recursive = deletes || d, recursive || r
	}
	return deletes, recursive
}

// fdValueOpts are fd's options that take a value.
var fdValueOpts = shell.Set("-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth", "--min-depth", "--exact-depth",
	"-S", "--size", "--changed-within", "--changed-before", "-j", "--threads", "-c", "--color", "-o", "--owner", "--base-directory",
	"--search-path", "--ignore-file", "--max-results", "--path-separator", "--batch-size", "--format")

// checkFd: fd PATTERN PATH... -x rm / -X rm -rf deletes what it finds,
// judged like find -delete: a protected tree with a name that is not an
// artifact, or VCS state or credentials by name.
func checkFd(c shell.Command, depth int) Verdict {
	args := c.Args[1:]
	var pos, exts []string
	var execWords []shell.Word
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch":
			for i++; i < len(args) && args[i].S != ";"; i++ {
				execWords = append(execWords, shell.Word{S: strings.ReplaceAll(args[i].S, "{}", shell.DynMark), Node: args[i].Node})
			}
		case a == "-e" || a == "--extension":
			if i+1 < len(args) {
				i++
				exts = append(exts, args[i].S)
			}
		case a == "--search-path":
			if i+1 < len(args) {
				i++
				pos = append(pos, ".", args[i].S)
			}
		case fdValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if len(execWords) == 0 {
		return Verdict{}
	}
	sc := shell.Unwrap(execWords)
	if v := checkCommand(sc, depth); v.Dangerous {
		return v
	}
	shDel, _ := shellDeletesArgs(sc)
	if !deleters[sc.Name] && !shDel {
		return Verdict{}
	}
	pattern, roots := "", []string{"."}
	if len(pos) > 0 {
		pattern = pos[0]
	}
	if len(pos) > 1 {
		roots = pos[1:]
	}
	name := strings.NewReplacer("^", "", "$", "", `\`, "").Replace(pattern)
	if leafClass(name) == pcVCS || leafClass(name) == pcCredential {
		return hit("delete-protected-tree")
	}
	artifact := len(exts) > 0 || name != "" && name != "."
	for _, e := range exts {
		artifact = artifact && artifactPattern("*."+strings.TrimPrefix(e, "."))
	}
	if len(exts) == 0 && artifact {
		artifact = artifactPattern(name) || artifactPattern("*"+name)
	}
	for _, r := range roots {
		p := fsPath(shell.Word{S: r})
		if treeProtected[classifyPath(p)] && !isTempDir(p) && !artifact {
			return hit("delete-protected-tree")
		}
	}
	return Verdict{}
}
