package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Overwrites: truncating or replacing a file whose contents cannot be
// regenerated (keys, credentials, dotfiles, databases), and a command whose
// output truncates the very file it reads (sort f > f).

// How a file's contents are replaced: by another file (cp, install), by
// written output (> f, tee, openssl -out), or by nothing (: > f, truncate).
type replaceKind int

const (
	byCopy replaceKind = iota
	byWrite
	byEmpty
)

// overwriteVerdict judges replacing the contents of p. Setup writes a
// project's .env, keys and dev databases afresh and installs dotfiles by
// copying, so those count only when emptied (or named for production); a
// home credential or a key in ~/.ssh is lost whatever replaces it.
func overwriteVerdict(p string, how replaceKind) Verdict {
	c := classifyPath(p)
	local := !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "/")
	base := path.Base(p)
	switch {
	case isAuthorizedKeys(p):
		return Verdict{} // write-authorized-keys judges who may log in
	case publicKeyring(p):
		return Verdict{} // a package source's public signing key, fetched again at will
	case c == pcCredential && credDirs[base]:
		return Verdict{} // a directory: cp key ~/.ssh/ adds a file
	case (c == pcCredential || c == pcDatabase) && local && how != byEmpty && !prodName.MatchString(base) && !releaseSigningKey.MatchString(base):
		return Verdict{}
	case c == pcCredential && how == byCopy && !local && !credHeld(p):
		return Verdict{} // cp ~/.ssh/id_rsa ~/backup/id_rsa makes a copy, not a loss
	case (c == pcCredential || c == pcDatabase) && how == byCopy && !local && inBackupDir(p):
		return Verdict{} // cp dump.rdb ~/backups/dump-$(date +%F).rdb takes a copy; the live one stays
	case c == pcCredential || c == pcDatabase, (c == pcData || c == pcFile && !dataExport.MatchString(p)) && dbServiceFile(p), c == pcVCS && how == byEmpty:
		return hit("overwrite-protected")
	case prodConfig.MatchString(base) && how != byWrite:
		return hit("overwrite-protected") // config/production.yml emptied, or replaced by another file
	case c == pcData && (how == byEmpty || how == byWrite) && strings.HasPrefix(path.Clean(p), "/var/log/"):
		return hit("log-tamper") // the system's record, emptied or written over
	case how == byEmpty && serviceConfig(p):
		return hit("overwrite-protected") // a service's flags or settings emptied: it starts with none
	case how == byEmpty && accessLists[base] && !local:
		return hit("overwrite-protected") // an empty pg_hba.conf lets nobody in
	case c == pcHome && isDotfile(p) && (how == byEmpty || how == byWrite && coreDotfiles[base]):
		return hit("overwrite-protected")
	}
	return Verdict{}
}

// releaseSigningKey: the key a store knows the app by (an Android release or
// upload keystore, an iOS distribution certificate, an App Store Connect
// key): replaced, every later update is signed by a key the store refuses.
// A debug keystore is made again by the build.
var releaseSigningKey = regexp.MustCompile(`(?i)(?:^|[-_.])(?:release|upload|distribution|dist|appstore|playstore)[-_.]?[^/]*\.(?:keystore|jks|p12|pfx|p8)$`)

// emptyDocument: text that empties a configuration as surely as no text:
// an empty JSON object or array, null, a bare YAML document marker.
func emptyDocument(text string) bool {
	switch strings.TrimSpace(strings.ReplaceAll(text, `\n`, "")) {
	case "", "{}", "[]", "null", "---":
		return true
	}
	return false
}

// serviceConfig: a deployed service's configuration file (under /etc, or in
// an application tree under /srv, /opt or /var/www), which the service reads
// on its next start or reload.
func serviceConfig(p string) bool {
	clean := path.Clean(p)
	deployed := strings.HasPrefix(clean, "/etc/")
	for _, dir := range []string{"/srv/", "/opt/", "/var/www/"} {
		comps := components(strings.TrimPrefix(clean, dir))
		deployed = deployed || strings.HasPrefix(clean, dir) && slices.ContainsFunc(comps, func(c string) bool { return configDirs[c] })
	}
	// a package's default site emptied is how it is switched off
	return deployed && configExt.MatchString(path.Base(clean)) && !strings.HasPrefix(path.Base(clean), "default")
}

var (
	configDirs = shell.Set("config", "conf", "etc", "settings", "conf.d")
	configExt  = regexp.MustCompile(`(?i)\.(?:json|ya?ml|toml|ini|conf|cfg|properties|env)$`)
)

// accessLists: a service's list of who may connect or log in; emptied, the
// service turns everyone away.
var accessLists = shell.Set("pg_hba.conf", "pg_ident.conf", "htpasswd", ".htpasswd", "users.acl", "access.conf", "hosts.allow")

// datedName: a file named with a year or a date (shop-2027.key,
// tls-20261127.pem), written afresh beside the one it succeeds.
var datedName = regexp.MustCompile(`(?:^|[-_.])(?:19|20)\d\d(?:[-_.]?\d\d){0,2}[-_.]`)

// backupDirs are where copies are kept, not the files programs use.
var backupDirs = shell.Set("backup", "backups", "bak", "archive", "archives", "snapshots", "dumps")

// inBackupDir: a directory above p is named for keeping copies.
func inBackupDir(p string) bool {
	comps := components(path.Clean(p))
	return len(comps) > 1 && slices.ContainsFunc(comps[:len(comps)-1], func(c string) bool { return backupDirs[strings.ToLower(c)] })
}

// prodConfig: a deployment's configuration named for production
// (production.yml, prod.json, settings_production.py, production.rb).
var prodConfig = regexp.MustCompile(`(?i)^(?:[a-z]+[._-])?(?:prod|production)\.(?:ya?ml|json|toml|ini|conf|cfg|properties|py|rb|exs|php)$`)

// credHeld: p is where a credential is kept (a home's .ssh, .aws,
// a dotfile such as ~/.pgpass, a tool's credential file), not a copy of one.
func credHeld(p string) bool {
	comps := components(p)
	return isDotfile(p) || slices.ContainsFunc(comps, func(c string) bool { return credDirs[c] }) ||
		slices.ContainsFunc(homeCredFiles, func(h string) bool { return strings.HasSuffix(p, h) })
}

// coreDotfiles exist in nearly every home, so writing one with > replaces
// it; writing another dotfile usually creates it.
var coreDotfiles = shell.Set(".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile", ".zshenv", ".gitconfig", ".bash_login", ".bash_logout", ".vimrc", ".tmux.conf")

// isDotfile: a file directly in a home directory whose name starts with a
// dot (~/.bashrc, ~/.gitconfig).
func isDotfile(p string) bool {
	dir, base := path.Split(path.Clean(p))
	dir = strings.TrimSuffix(dir, "/")
	home := dir == "~" || dir == "/root" || strings.Count(dir, "/") == 2 && (strings.HasPrefix(dir, "/home/") || strings.HasPrefix(dir, "/Users/"))
	return home && strings.HasPrefix(base, ".") && len(base) > 1 && !strings.ContainsAny(base, "*?[")
}

// truncating redirections replace the target; appending ones (>>) do not.
var truncating = map[syntax.RedirOperator]bool{syntax.RdrOut: true, syntax.RdrClob: true, syntax.RdrAll: true, syntax.RdrAllClob: true}

// checkOverwriteRedirects flags > onto a protected file, and > onto a file
// the same command reads (bash truncates it before the command starts).
// upstream are the files earlier stages of its pipeline read (cat f | sort > f).
func checkOverwriteRedirects(s *syntax.Stmt, upstream ...string) Verdict {
	reads := append(stmtReads(s), upstream...)
	for _, r := range s.Redirs {
		if r == nil || !truncating[r.Op] {
			continue
		}
		t := fsPath(shell.ResolveWord(r.Word))
		how := byWrite
		if writesNothing(s) {
			how = byEmpty
		}
		if v := overwriteVerdict(t, how); v.Dangerous {
			return v
		}
		for _, in := range reads {
			if in == path.Clean(t) && !strings.Contains(t, shell.DynMark) && !scratchPath(path.Clean(t)) {
				return hit("overwrite-own-input")
			}
		}
	}
	return Verdict{}
}

// scratchPath: a device, or a file under a temporary directory (a fifo a pipeline
// reads and writes, a scratch file): emptying it loses nothing.
func scratchPath(p string) bool {
	for _, dir := range []string{"/dev/", "/tmp/", "/var/tmp/", "/dev/shm/"} {
		if strings.HasPrefix(p, dir) {
			return true
		}
	}
	return false
}

// subcommandTools take a subcommand as their first operand.
var subcommandTools = shell.Set("git", "go", "docker", "podman", "kubectl", "npm", "yarn", "pnpm", "cargo", "hg", "svn", "gh",
	"apt", "apt-get", "brew", "pip", "pip3", "systemctl", "journalctl", "helm", "terraform", "aws", "gcloud", "az", "dotnet", "make")

// writesOnly are commands whose operands are text, not files they read.
var writesOnly = shell.Set("echo", "printf", "date", "true", ":", "yes", "seq", "curl", "wget")

// checkOverwriteCommand: tee (without -a), cp/mv/install onto, dd of=,
// truncate, and openssl/ssh-keygen writing their output over a key.
func checkOverwriteCommand(c shell.Command) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	var targets []string
	switch c.Name {
	case "tee":
		if !o.Has("a", "append") {
			targets = shell.Lits(o.Operands)
		}
	case "truncate":
		targets = shell.Lits(shell.ParseOpts(c.Args[1:], "sr").Operands)
	case "cp", "install", "mv":
		// -n and -u keep the target, -b keeps a copy; -i asks first (unless a later -f overrides it)
		if o.Has("nu", "no-clobber", "update", "backup") || strings.Contains(o.Short, "b") ||
			o.Has("i", "interactive") && strings.LastIndex(o.Short, "i") > strings.LastIndex(o.Short, "f") {
			return Verdict{}
		}
		ops := shell.ParseOpts(c.Args[1:], "tSmog").Operands
		if len(ops) >= 2 {
			targets = []string{fsPath(ops[len(ops)-1])}
		}
		if c.Name == "mv" && len(ops) == 2 && ops[1].S == "/dev/null" {
			return treeVerdict(fsPath(ops[0]))
		}
	case "dd":
		for _, w := range c.Args[1:] {
			if t, ok := strings.CutPrefix(w.S, "of="); ok {
				targets = append(targets, t)
			}
		}
	case "openssl":
		// req -keyout writes the new private key, as -out writes the output;
		// a key named for its year or date is a new one beside the old
		targets = slices.DeleteFunc(append(optionValues(c.Args[1:], "-out", ""), optionValues(c.Args[1:], "-keyout", "")...),
			func(t string) bool { return datedName.MatchString(path.Base(t)) })
	case "sort", "pg_dump", "pg_dumpall", "mysqldump", "shuf":
		// sort(1) -o FILE, pg_dump(1) -f FILE, mysqldump --result-file: the
		// output replaces FILE
		targets = append(optionValues(c.Args[1:], "-o", "--output"), optionValues(c.Args[1:], "-f", "--file")...)
		targets = append(targets, optionValues(c.Args[1:], "-r", "--result-file")...)
		if c.Name == "sort" || c.Name == "shuf" {
			targets = optionValues(c.Args[1:], "-o", "--output")
		}
	case "find":
		// find(1)'s -fprint, -fprint0, -fprintf and -fls truncate FILE
		// before writing the list into it, whatever the list is
		for i := 1; i+1 < len(c.Args); i++ {
			switch c.Args[i].S {
			case "-fprint", "-fprint0", "-fprintf", "-fls":
				targets = append(targets, fsPath(c.Args[i+1]))
			}
		}
	case "gpg", "gpg2", "curl", "age", "sops", "wget":
		// decrypted or downloaded over a key
		short, long := "o", "--output"
		if c.Name == "wget" {
			short, long = "O", "--output-document"
		}
		targets = append(optionValues(c.Args[1:], "-"+short, long), clusteredValues(c.Args[1:], short)...)
		if slices.ContainsFunc(targets, isAuthorizedKeys) {
			return hit("write-authorized-keys") // who may log in is replaced
		}
	case "ln":
		// ln -sf X KEY replaces KEY with a link; its contents are gone.
		ops := shell.ParseOpts(c.Args[1:], "tS").Operands
		if o.Has("f", "force") && len(ops) == 2 {
			targets = []string{fsPath(ops[1])}
		}
	case "sed":
		if files, ok := sedEmpties(c); ok {
			for _, f := range files {
				if v := overwriteVerdict(f, byEmpty); v.Dangerous {
					return v
				}
			}
		}
	}
	if slices.ContainsFunc(targets, isAuthorizedKeys) {
		return hit("write-authorized-keys") // who may log in is replaced
	}
	how := byWrite
	switch {
	case c.Name == "truncate" || c.Name == "dd" || slices.ContainsFunc(o.Operands, func(w shell.Word) bool { return w.S == "/dev/null" }):
		how = byEmpty
	case c.Name == "cp" || c.Name == "mv" || c.Name == "install" || c.Name == "ln":
		how = byCopy
	}
	for _, t := range targets {
		if reportWriters[c.Name] {
			// a report's output file is written as > FILE writes it (sort -o /etc/passwd, find -fls /dev/sda)
			if v := checkWriteTarget(t); v.Dangerous {
				return v
			}
		}
		if v := overwriteVerdict(t, how); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// reportWriters write a listing, a sort or a dump into the file an option names.
var reportWriters = shell.Set("sort", "shuf", "find", "pg_dump", "pg_dumpall", "mysqldump")

// clusteredValues: the values of a short option given last in a cluster
// (curl -sSLo FILE, wget -qO FILE).
func clusteredValues(args []shell.Word, letter string) []string {
	var out []string
	for i, w := range args {
		if len(w.S) > 2 && w.S[0] == '-' && w.S[1] != '-' && strings.HasSuffix(w.S, letter) && i+1 < len(args) {
			out = append(out, args[i+1].S)
		}
	}
	return out
}

// writesNothing: a statement whose output is empty (> f, : > f, echo > f,
// echo "" > f, printf ” > f, cat /dev/null > f).
func writesNothing(s *syntax.Stmt) bool {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if s.Cmd == nil {
		return true
	}
	if !ok {
		return false
	}
	c, ok := shell.BuildCommand(call)
	if !ok {
		return false
	}
	rest := strings.Join(shell.Lits(c.Args[1:]), "")
	switch c.Name {
	case ":", "true":
		return true
	case "echo", "printf":
		return strings.Trim(rest, "-n") == "" || emptyDocument(strings.TrimPrefix(rest, "-n"))
	case "cat":
		return rest == "/dev/null"
	}
	return false
}

// stmtReads are the files a statement reads: its command's operands, and
// its < redirection.
func stmtReads(s *syntax.Stmt) []string {
	var reads []string
	if call, ok := s.Cmd.(*syntax.CallExpr); ok {
		if c, ok := shell.BuildCommand(call); ok && !writesOnly[c.Name] {
			ops := shell.ParseOpts(c.Args[1:], "").Operands
			if subcommandTools[c.Name] && len(ops) > 0 {
				ops = ops[1:] // git log > log: "log" names what git does, not a file it reads
			}
			for _, w := range ops {
				reads = append(reads, path.Clean(fsPath(w)))
			}
		}
	}
	for _, r := range s.Redirs {
		if r != nil && r.Op == syntax.RdrIn {
			reads = append(reads, path.Clean(fsPath(shell.ResolveWord(r.Word))))
		}
	}
	return reads
}

// checkPipelineOverwrite: a later stage's > truncates a file an earlier
// stage reads; all stages start together, so the file is usually empty first.
func checkPipelineOverwrite(stages []*syntax.Stmt) Verdict {
	var reads []string
	for _, s := range stages {
		if len(reads) > 0 {
			if v := checkOverwriteRedirects(s, reads...); v.Dangerous {
				return v
			}
		}
		reads = append(reads, stmtReads(s)...)
	}
	return Verdict{}
}

// sedDeletesAll: sed scripts that print nothing (d, 1,$d), so sed -i
// leaves the file empty.
var sedDeletesAll = regexp.MustCompile(`^\s*(?:(?:1|0)\s*,\s*\$\s*)?d\s*;?\s*$`)

// sedEmpties returns the files sed -i would leave empty: its script
// deletes every line, or -n with a script that prints nothing.
func sedEmpties(c shell.Command) ([]string, bool) {
	var scripts, ops []string
	inPlace, quiet := false, false
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				i++
				scripts = append(scripts, args[i].S)
			}
		case strings.HasPrefix(a, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
		case a == "-f" || a == "--file":
			return nil, false
		case a == "--quiet" || a == "--silent":
			quiet = true
		case strings.HasPrefix(a, "--in-place"):
			inPlace = true
		case a == "--":
			for _, w := range args[i+1:] {
				ops = append(ops, fsPath(w))
			}
			i = len(args)
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			flags, _, _ := strings.Cut(a[1:], "e")
			inPlace = inPlace || strings.Contains(flags, "i")
			quiet = quiet || strings.Contains(flags, "n")
			if strings.HasSuffix(a, "e") && i+1 < len(args) {
				i++
				scripts = append(scripts, args[i].S)
			}
		default:
			if a == "" && i > 0 && args[i-1].S == "-i" {
				continue // BSD sed -i '' (no backup suffix)
			}
			ops = append(ops, fsPath(args[i]))
		}
	}
	if !inPlace {
		return nil, false
	}
	if len(scripts) == 0 && len(ops) > 0 {
		scripts, ops = ops[:1], ops[1:]
	}
	if len(scripts) == 0 || len(ops) == 0 {
		return nil, false
	}
	for _, sc := range scripts {
		if sedDeletesAll.MatchString(sc) {
			return ops, true
		}
	}
	if quiet && !strings.ContainsAny(strings.Join(scripts, ";"), "pPwW") {
		return ops, true
	}
	return nil, false
}

// checkTar: tar(1) extracting over the root, a system directory or a whole
// home (-x -C /: every file the archive holds replaces the one there), and
// an archive written onto a disk (-c -f /dev/sda). Options come bundled
// (xzf, -xzf), separate (-x -z -f a.tgz) or long (--extract --directory=/).
func checkTar(c shell.Command, depth int) Verdict {
	extract, create, overwrite := false, false, false
	removeFiles, deleteMembers := false, false
	var dir, file string
	var operands []string
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i].S
		value := func() string {
			if i+1 < len(args) {
				i++
				return fsPath(args[i])
			}
			return ""
		}
		switch {
		case a == "--extract" || a == "--get":
			extract = true
		case a == "--create" || a == "--append" || a == "--update":
			create = true
		case a == "--overwrite" || a == "--unlink-first" || a == "--recursive-unlink":
			overwrite = true
		case a == "--directory" || a == "--file":
			if v := value(); a == "--file" {
				file = v
			} else {
				dir = v
			}
		case strings.HasPrefix(a, "--directory="):
			dir = a[len("--directory="):]
		case strings.HasPrefix(a, "--file="):
			file = a[len("--file="):]
		case a == "--remove-files":
			removeFiles = true
		case a == "--delete":
			deleteMembers = true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") || i == 0 && !strings.ContainsAny(a, "/."): // old style: tar xzf a.tgz
			for _, l := range strings.TrimPrefix(a, "-") {
				switch l {
				case 'x':
					extract = true
				case 'U':
					overwrite = true
				case 'c', 'r', 'u':
					create = true
				case 'f':
					file = value()
				case 'C':
					dir = value()
				}
			}
		default:
			operands = append(operands, fsPath(args[i]))
		}
	}
	if v := checkTarCommands(args, depth); v.Dangerous {
		return v
	}
	if v := tarSideEffects(create, removeFiles, deleteMembers, file, dir, operands, depth); v.Dangerous {
		return v
	}
	switch {
	case create && isBlockDevice(file):
		return hit("write-block-device")
	case extract && dir != "":
		if v := extractVerdict(dir); v.Dangerous {
			return v
		}
		// a database's storage: its files replaced under the server (tar
		// replaces existing files unless told to keep them)
		if intoDatabase(dir) && !keepsOld(args) {
			return hit("overwrite-protected")
		}
		return hitIf(overwrite && (restoresOver(file, dir) || intoKeys(dir)), "overwrite-protected")
	}
	return Verdict{}
}

// extractVerdict: unpacking an archive into dir replaces what is there;
// into the root or a system directory that is the system's own files, into
// a home the person's dotfiles and keys.
func extractVerdict(dir string) Verdict {
	p := path.Clean(dir)
	switch {
	case p == "/" || slices.Contains(systemFileDirs, p):
		return hit("write-system-file")
	case p == "~" || p == "/root" || strings.Count(p, "/") == 2 && (strings.HasPrefix(p, "/home/") || strings.HasPrefix(p, "/Users/")):
		return hit("overwrite-protected")
	}
	return Verdict{}
}

// checkUnzip: unzip(1) -o (overwrite without asking) into the root, a system
// directory, a home or a project tree; without -o it asks before each file.
func checkUnzip(c shell.Command, _ int) Verdict {
	overwrite, dir := false, ""
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "-d" && i+1 < len(args):
			i++
			dir = fsPath(args[i])
		case strings.HasPrefix(a, "-d") && len(a) > 2:
			dir = a[2:]
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
			overwrite = overwrite || strings.ContainsRune(a, 'o')
		}
	}
	if !overwrite || dir == "" {
		return Verdict{}
	}
	if v := extractVerdict(dir); v.Dangerous {
		return v
	}
	archive := ""
	if ops := shell.ParseOpts(args, "dx").Operands; len(ops) > 0 {
		archive = ops[0].S
	}
	return hitIf(restoresOver(archive, dir) || intoKeys(dir), "overwrite-protected")
}

// intoKeys: a credentials directory (~/.ssh, ~/.aws, ~/.gnupg) unpacked
// into with overwriting (tar --overwrite, unzip -o, cpio -u) has its keys,
// tokens and authorized_keys replaced by the archive's, whatever it is.
func intoKeys(dir string) bool {
	return classifyPath(dir) == pcCredential
}

// oldArchive: an archive named as a backup or an old copy.
var oldArchive = regexp.MustCompile(`(?i)backup|snapshot|(?:^|[-_.])(?:old|bak|prev|previous)(?:$|[-_.])`)

// restoresOver: an old copy unpacked with overwriting (tar --overwrite,
// unzip -o) over a project or home tree puts old files over newer work;
// refreshing fixtures or vendored files in a subdirectory does not.
func restoresOver(archive, dir string) bool {
	return treeProtected[classifyPath(dir)] && oldArchive.MatchString(path.Base(archive))
}

// intoDatabase: dir is a database server's storage (/var/lib/postgresql/15/main,
// /var/lib/mysql) or named as one (pgdata, mysql-data).
func intoDatabase(dir string) bool {
	p := fsPath(shell.Word{S: dir})
	if classifyPath(p) == pcScratch {
		return false
	}
	return dbServiceFile(path.Join(p, "x")) || dbDataDir.MatchString(path.Base(path.Clean(p)))
}

// keepsOld: tar told not to replace files that exist (-k, --keep-old-files,
// --skip-old-files, --keep-newer-files), or only to list (-t).
func keepsOld(args []shell.Word) bool {
	for _, w := range args {
		a := w.S
		if a == "--keep-old-files" || a == "--skip-old-files" || a == "--keep-newer-files" || a == "--list" ||
			strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "kt") {
			return true
		}
	}
	return false
}
