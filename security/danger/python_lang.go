package danger

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Python checks by effect, on code pyNormalize has rewritten: recursive
// deletes by whether their target is scratch space, bulk unlink loops,
// credential and database files destroyed, argv-style process calls
// (os.exec*, os.spawn*), signals to init, cloud and container SDK bulk
// deletes, and secrets posted to the network.

var (
	pyLoop      = regexp.MustCompile(`\bfor\s+(\w+(?:\s*,\s*\w+)*)\s+in\s+([^:\]\n]+)`)
	pyMapRmtree = regexp.MustCompile(`\bmap\s*\(\s*(?:shutil\s*\.\s*)?rmtree\s*,`)
	pyExecv     = regexp.MustCompile(`\bos\s*\.\s*(exec|spawn)([lv])p?e?\s*\(`)
	pyUnlink    = regexp.MustCompile(`\.\s*unlink\s*\(\s*\)|\bos\s*\.\s*(?:remove|unlink)\s*\(|\bshutil\s*\.\s*rmtree\s*\(`)
	pyListing   = regexp.MustCompile(`\.\s*(?:r?glob|iterdir|walk|scandir)\s*\(|\bos\s*\.\s*(?:listdir|scandir|walk)\s*\(|\bglob\s*\.\s*i?glob\s*\(`)
	pyDestroy   = regexp.MustCompile(`\bos\s*\.\s*(?:remove|unlink|truncate)\s*\(`)
	pyWriteCall = regexp.MustCompile(`(` + pyL + `)\s*\.\s*write_(?:text|bytes)\s*\(`)
	pyLitUnlink = regexp.MustCompile(`(` + pyL + `)\s*\.\s*(?:unlink|rmdir)\s*\(`)
	pyRcWrite   = regexp.MustCompile(`\bopen\s*\(\s*(` + pyL + `)\s*,\s*(` + pyL + `)\s*\)\s*\.\s*write\s*\(\s*(` + pyL + `)`)
	// A socket connected out whose descriptors become a shell's: a reverse shell.
	pyReverseShell = regexp.MustCompile(`(?s)\bsocket\b.*\.\s*connect\s*\(.*\bdup2\s*\(.*(?:\bpty\s*\.\s*spawn|\bsubprocess\s*\.\s*\w+|\bos\s*\.\s*(?:system|exec\w*))\s*\(`)
	pyKillInit     = regexp.MustCompile(`\bos\s*\.\s*kill\s*\(\s*1\s*,|\bos\s*\.\s*killpg\s*\(\s*(?:0|1|os\s*\.\s*getpgrp\s*\(\s*\))\s*,`)
	pyAsyncProc    = regexp.MustCompile(`\basyncio\s*\.\s*create_subprocess_(?:shell|exec)\s*\(`)
	// Bulk deletes through SDKs: every object of a bucket, whole buckets,
	// instances, databases, tables, stacks, clusters and namespaces, and
	// Docker volumes.
	// object_versions.filter(Prefix=…).delete() too: every version under the prefix, the copies a versioned bucket keeps to undo a delete
	pyS3Objects = regexp.MustCompile(`\.\s*(?:objects|object_versions)\s*(?:\.\s*all\s*\(\s*\))?\s*\.\s*delete\s*\(|\.\s*object_versions\s*\.\s*filter\s*\([^()]*\)\s*\.\s*delete\s*\(`)
	pySDKDelete = regexp.MustCompile(`\.\s*(?:delete_bucket|terminate_instances|delete_db_instance|delete_db_cluster|delete_table|delete_stack|delete_cluster|` +
		`delete_namespace|delete_file_system|delete_repository|delete_hosted_zone|delete_collection_namespaced_\w+|delete_users|` +
		`delete_namespaced_(?:stateful_set|persistent_volume_claim)|delete_persistent_volume|` +
		// restore points: RDS and EC2 snapshots, AWS Backup's recovery points and vaults
		`delete_db_snapshot|delete_db_cluster_snapshot|delete_snapshot|delete_recovery_point|delete_backup_vault|delete_backup|` +
		// credentials, as aws iam delete-access-key: whatever signs in with them stops working
		`delete_access_key|delete_login_profile|delete_service_specific_credential|delete_signing_certificate)\s*\(|` +
		// BigQuery's dataset with the tables in it (without delete_contents only an empty one goes)
		`\.\s*delete_dataset\s*\([^\n]*\bdelete_contents\s*=\s*True|` +
		`\bget_repo\s*\([^()]*\)\s*\.\s*delete\s*\(|` +
		`\bindices\s*\.\s*delete\s*\(|` +
		// model registries: MLflow's registered models and their versions, a W&B artifact, runs with their artifacts
		`\.\s*(?:delete_registered_model|delete_model_version)\s*\(|\bartifact\s*\([^()]*\)\s*\.\s*delete\s*\(|\.\s*delete\s*\([^()\n]*\bdelete_artifacts\s*=\s*True|` +
		`\bvolumes\s*\.\s*prune\s*\(`)
	// A loop or comprehension deleting (or force-removing) every item a listing call returns.
	// The listing may be a describe_* call, and the body the next line.
	pySDKLoop = regexp.MustCompile(`\.\s*(?:delete(?:_\w+)?\s*\(|remove\s*\(\s*force\s*=\s*True)[^\n]*\bfor\s+\w+\s+in\b[^\n]*\.\s*(?:list\w*|all|describe_\w+)\s*\(|\bfor\s+\w+\s+in\b[^\n]*\.\s*(?:list\w*|all|describe_\w+)\s*\([^\n]*:\s*[^\n]*\.\s*(?:delete(?:_\w+)?\s*\(|remove\s*\(\s*force\s*=\s*True)`)
	// pyPost: calls that send a body off the machine: HTTP, mail (smtplib's
	// sendmail, send_message), sockets, FTP uploads.
	pyPost = regexp.MustCompile(`\b(?:requests|httpx|session|s|client|http)\s*\.\s*(?:post|put|patch)\s*\(|\burlopen\s*\(|\burllib\s*\.\s*request\s*\.\s*Request\s*\(|` +
		`\.\s*(?:sendmail|send_message|sendall|storbinary|storlines)\s*\(`)
	pyOpenRead = regexp.MustCompile(`\bopen\s*\(\s*(` + pyL + `)`)
	// (pyNormalize has already joined Path.home() / 'x' and joinpath into one literal.)
	pyPathRead = regexp.MustCompile(`(?:\bPath\s*\(\s*(` + pyL + `)\s*\)|(` + pyL + `)\s*\)?)\s*(?:\.\s*expanduser\s*\(\s*\))?\s*\.\s*read_(?:bytes|text)\s*\(`)
)

// pyRmtreeDanger judges rmtree's first argument (rest follows its "("): a
// path that is not scratch space, or an unknown value whose name does not
// say scratch either.
func pyRmtreeDanger(rest string, strs []string, vars map[string]string) bool {
	if p, ok := pyPathArg(rest, strs, vars); ok {
		return protectedTree(p)
	}
	// An expression: scratch if a name or literal in it says so
	// (os.path.join(tmp, 'x'), Path(__file__).parent / 'generated').
	args := pyCallArgs(rest)
	if len(args) == 0 {
		return true
	}
	if m := pyDynSlash.FindStringSubmatch(args[0]); m != nil {
		if v, ok := vars[m[1]]; ok {
			return protectedTree(v + pyLiteral(m[2], strs)) // out = 'build'; out + '/'
		}
		if l := pyLiteral(m[2], strs); l == "/" || l == "/*" {
			return true // out + '/': the root when out is empty, whatever its name
		}
	}
	for _, l := range pyLit.FindAllStringSubmatch(args[0], -1) {
		if p := pyLiteral(l[1], strs); strings.Contains(p, ".git") {
			return true
		} else if !protectedTree(p) {
			return false
		}
	}
	for _, id := range pyIdent.FindAllString(args[0], -1) {
		for _, part := range strings.Split(strings.ToLower(id), "_") {
			if isScratchName(part) || strings.Contains(part, "tmp") || strings.Contains(part, "temp") ||
				strings.HasSuffix(part, "dist") || strings.HasSuffix(part, "build") { // bdist_dir, sdist
				return false
			}
		}
	}
	return true
}

var pyIdent = regexp.MustCompile(`[A-Za-z_]\w*`)

// pyDynSlash: a name, attribute or call, then + a literal (out + '/').
var pyDynSlash = regexp.MustCompile(`^\s*([A-Za-z_][\w.]*(?:\([^()]*\))?)\s*\+\s*\x01(\d+)\x02\s*$`)

// pyLoopVars gives loop and comprehension targets the path their listing
// walks: for p in Path('src').rglob('*.py') makes p "src/**/*.py".
func pyLoopVars(code string, strs []string, vars map[string]string) {
	for _, m := range pyLoop.FindAllStringSubmatch(code, -1) {
		var parts []string
		for _, l := range pyLit.FindAllStringSubmatch(m[2], -1) {
			parts = append(parts, pyLiteral(l[1], strs))
		}
		if len(parts) == 0 {
			continue
		}
		if pyListing.MatchString(m[2]) && len(parts) == 1 && !strings.Contains(m[2], "glob") {
			parts = append(parts, "*")
		}
		vars[m[1]] = strings.Join(parts, "/**/")
	}
}

func pyLangChecks(code string, strs []string, depth int) Verdict {
	vars := pyVars(code, strs)
	pyLoopVars(code, strs, vars)
	for _, loc := range pyMapRmtree.FindAllStringIndex(code, -1) {
		if l := pyLit.FindStringSubmatch(code[loc[1]:]); l == nil || protectedTree(pyLiteral(l[1], strs)) {
			return hit("py-rmtree")
		}
	}
	if v := pyBulkUnlink(code, strs, vars); v.Dangerous {
		return v
	}
	if v := pyDestroyFiles(code, strs); v.Dangerous {
		return v
	}
	if v := pySecretAdmin(code, strs); v.Dangerous {
		return v
	}
	if v := pyArgv(code, strs, depth); v.Dangerous {
		return v
	}
	if v := pyNamedArgs(code, vars, depth); v.Dangerous {
		return v
	}
	if v := pyStartupWrite(code, strs, depth); v.Dangerous {
		return v
	}
	switch {
	case pyReverseShell.MatchString(code):
		return hit("repl-reverse-shell")
	case pyKillInit.MatchString(code):
		return hit("kill-all")
	case pySDKDelete.MatchString(code) && !allTemporaryLiterals(pyResourceNames(code, strs)) && !pyDisposableTarget(code, strs), pySDKLoop.MatchString(code) && !pyListFiltered.MatchString(code),
		pyS3Objects.MatchString(code) && (strings.Contains(code, "Bucket") || strings.Contains(code, "s3")):
		return hit("sdk-bulk-delete")
	case stackDestroyed(code, strs).Dangerous: // Pulumi's Automation API (console_plane.go)
		return hit("terraform-destroy")
	}
	if v := checkORM(code); v.Dangerous {
		return v
	}
	return pySendSecrets(code, strs)
}

// pyBulkUnlink: a loop or comprehension unlinking what a listing returns,
// under a path that is not scratch space, unless the pattern only matches
// generated files (*.pyc, *.o, *.log).
func pyBulkUnlink(code string, strs []string, vars map[string]string) Verdict {
	for _, m := range pyLoop.FindAllStringSubmatch(code, -1) {
		p, ok := vars[m[1]]
		if l := pyBoundListing(code, m[2]); l != "" {
			// files = os.listdir('~/src') (or IPython's files = !ls ~/src); for f in files
			m = []string{m[0], m[1], l}
			if lit := pyLit.FindStringSubmatch(l); lit != nil {
				p, ok = pyLiteral(lit[1], strs), true
			}
		}
		if !pyListing.MatchString(m[2]) {
			continue
		}
		if l := pyLit.FindStringSubmatch(m[2]); !ok && l != nil && strings.Contains(m[1], ",") {
			p, ok = pyLiteral(l[1], strs), true // for root, dirs, files in os.walk('.'): the tree walked
		}
		body := strings.SplitN(code[strings.Index(code, m[0]):], "\n", 3)
		line := body[0]
		if !strings.HasSuffix(strings.TrimSpace(line), ":") {
			line = strings.Join(body[:min(2, len(body))], "\n")
		} else {
			line = pyBlockAfter(code, strings.Index(code, m[0])) // the loop's whole block, nested loops too
		}
		whole := code[:strings.Index(code, m[0])] // comprehension: the call precedes "for"
		if j := strings.LastIndex(whole, "["); j >= 0 {
			line = whole[j:] + line
		}
		if !pyUnlink.MatchString(line) && !pyEmpties(line, m[1], strs) {
			continue
		}
		if ok && underSystemLogs(p) {
			return hit("log-tamper") // the system's logs, whatever their suffix
		}
		if typedGlob(m[2], strs) || generatedSuffix(line, strs) {
			continue // dir.glob('*.dmg'): files of one type, as rm "$d"/*.dmg
		}
		if !ok || protectedTree(strings.ReplaceAll(p, "/**/", "/")) && !generatedFiles(path.Base(p)) {
			return hit("py-delete-files")
		}
	}
	return Verdict{}
}

// generatedFiles: glob patterns matching only files a build or run recreates.
func generatedFiles(pattern string) bool {
	ext := strings.ToLower(path.Ext(pattern))
	return strings.HasPrefix(pattern, "*") && shell.Set(".pyc", ".pyo", ".o", ".obj", ".class", ".log", ".tmp", ".bak",
		".orig", ".rej", ".swp", ".pyd", ".d", ".gcda", ".gcno", ".coverage")[ext] || isScratchName(strings.Trim(pattern, "*"))
}

// pyDestroyFiles: deleting, truncating or opening for writing a credential
// or database file.
func pyDestroyFiles(code string, strs []string) Verdict {
	var targets []string
	for _, loc := range pyDestroy.FindAllStringIndex(code, -1) {
		if p, ok := pyStringArg(code[loc[1]:], strs); ok && !backupCopy(p) {
			targets = append(targets, p)
		}
	}
	for _, loc := range pyOpen.FindAllStringIndex(code, -1) {
		args := pyCallArgs(code[loc[1]:])
		if len(args) < 2 {
			continue
		}
		mode := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(args[1]), "mode="))
		if m := pyLit.FindStringSubmatch(mode); m != nil && strings.ContainsAny(pyLiteral(m[1], strs), "w") {
			// Writing a database file is how one is downloaded or built;
			// only credentials count here.
			if p, ok := pyStringArg(args[0]+")", strs); ok && isSecretFile(p) {
				targets = append(targets, p)
			}
		}
	}
	for _, m := range pyLitUnlink.FindAllStringSubmatch(code, -1) {
		if p := pyLiteral(pyLit.FindStringSubmatch(m[1])[1], strs); !backupCopy(p) {
			targets = append(targets, p)
		}
	}
	for _, m := range pyWriteCall.FindAllStringSubmatch(code, -1) {
		if p := pyLiteral(pyLit.FindStringSubmatch(m[1])[1], strs); !rewrittenFromItself(code, strs, p) && !appConfig(p) {
			targets = append(targets, p)
		}
	}
	for _, p := range targets {
		switch {
		case isAuthorizedKeys(p):
			return hit("write-authorized-keys")
		case isSystemFile(p):
			return hit("py-remove-system")
		case isSecretFile(p) || isDataFile(p):
			return hit("code-destroy-file")
		}
	}
	return Verdict{}
}

// isSecretFile: keys, cloud credentials and .env files (not their examples).
func isSecretFile(p string) bool {
	base := path.Base(p)
	switch {
	case strings.Contains(p, ".ssh/") && (strings.HasPrefix(base, "id_") || base == "known_hosts" || base == "config"):
		return true
	case base == ".env" || strings.HasPrefix(base, ".env.") && !strings.Contains(base, "example") && !strings.Contains(base, "sample"):
		return true
	case shell.Set(".netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc")[base]:
		return true
	case p == "/etc/shadow" || p == "/etc/gshadow":
		return true
	}
	return homeCredential(p) || strings.Contains(p, ".aws/credentials") || strings.Contains(p, ".kube/config") || strings.Contains(p, ".gnupg/") ||
		strings.Contains(p, ".docker/config.json") || strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key")
}

// isDataFile: database files and the data directories of database servers.
func isDataFile(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	if shell.Set(".sqlite", ".sqlite3", ".db", ".mdb", ".ibd", ".frm")[ext] {
		return !strings.HasPrefix(path.Clean(p), "/tmp/") && !strings.Contains(p, "test")
	}
	for _, d := range []string{"/var/lib/mysql", "/var/lib/postgresql", "/var/lib/mongodb", "/var/lib/redis", "/var/lib/docker"} {
		if strings.HasPrefix(path.Clean(p), d) {
			return true
		}
	}
	return strings.HasPrefix(path.Base(p), "ibdata")
}

// pyArgv judges os.exec*/os.spawn* and asyncio subprocesses by the command
// line their arguments make.
func pyArgv(code string, strs []string, depth int) Verdict {
	for _, m := range pyExecv.FindAllStringSubmatchIndex(code, -1) {
		args := pyCallArgs(code[m[1]:])
		if code[m[2]:m[3]] == "spawn" && len(args) > 0 {
			args = args[1:] // the mode
		}
		if len(args) < 2 {
			continue
		}
		argv := args[1:]
		if code[m[4]:m[5]] == "v" {
			inner := strings.Trim(strings.TrimSpace(argv[0]), "[]()")
			argv = strings.Split(inner, ",")
		}
		if v := judgeCommand(pyWords(argv, strs), depth, "Python"); v.Dangerous {
			return v
		}
	}
	for _, loc := range pyAsyncProc.FindAllStringIndex(code, -1) {
		args := pyCallArgs(code[loc[1]:])
		if strings.Contains(code[loc[0]:loc[1]], "shell") {
			if cmd, ok := pyStringArg(code[loc[1]:], strs); ok {
				return judgeCommand(cmd, depth, "Python")
			}
		} else if v := judgeCommand(pyWords(args, strs), depth, "Python"); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// pyWords quotes literal arguments as shell words; others become run-time words.
func pyWords(args []string, strs []string) string {
	var words []string
	for _, a := range args {
		a = strings.TrimSpace(a)
		if l := pyLit.FindStringSubmatch(a); l != nil && l[0] == a {
			if q := shQuote(pyLiteral(l[1], strs)); q != `"$__dyn"` {
				words = append(words, q) // a leading ~ kept live: expanduser('~') was read as '~'
				continue
			}
		}
		if a != "" {
			words = append(words, `"$__dyn"`)
		}
	}
	return strings.Join(words, " ")
}

// pySendSecrets: an HTTP upload whose body is the environment or a
// credential file.
func pySendSecrets(code string, strs []string) Verdict {
	for _, loc := range pyPost.FindAllStringIndex(code, -1) {
		line, _, _ := strings.Cut(code[loc[1]:], "\n")
		if strings.Contains(line, "os.environ") {
			return hit("py-send-secrets")
		}
		for _, m := range pyOpenRead.FindAllStringSubmatch(line, -1) {
			if isSecretFile(pyLiteral(pyLit.FindStringSubmatch(m[1])[1], strs)) {
				return hit("py-send-secrets")
			}
		}
		// pathlib's reads: Path('~/.ssh/id_rsa').expanduser().read_bytes(),
		// Path.home().joinpath('.ssh/id_rsa').read_bytes(), (home / '.aws/credentials').read_text()
		for _, m := range pyPathRead.FindAllStringSubmatch(line, -1) {
			if isSecretFile(litValue(m[1]+m[2], strs)) {
				return hit("py-send-secrets")
			}
		}
	}
	return Verdict{}
}

// startupFiles run their contents in every new shell.
var startupFiles = shell.Set(".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile", ".bash_login", ".zshenv", "config.fish")

// pyStartupWrite judges text written into a shell startup file as the shell
// code it becomes.
func pyStartupWrite(code string, strs []string, depth int) Verdict {
	for _, m := range pyRcWrite.FindAllStringSubmatch(code, -1) {
		get := func(s string) string { return pyLiteral(pyLit.FindStringSubmatch(s)[1], strs) }
		if !startupFiles[path.Base(get(m[1]))] {
			continue
		}
		if v := judgeCommand(get(m[3]), depth, "a shell startup file"); v.Dangerous {
			return v
		}
		if hiddenLaunch(get(m[3])) {
			return hit("startup-inject")
		}
	}
	return Verdict{}
}

// pyNamedArgs judges commands and queries passed by name (cmd = 'rm -rf ~';
// os.system(cmd)) with the value the name was given.
func pyNamedArgs(code string, vars map[string]string, depth int) Verdict {
	for _, c := range []struct {
		call *regexp.Regexp
		ctx  Context
	}{{pyExec, Shell}, {pyQuery, SQL}} {
		for _, loc := range c.call.FindAllStringIndex(code, -1) {
			m := pyIdentArg.FindStringSubmatch(code[loc[1]:])
			if m == nil {
				continue
			}
			if val, ok := vars[m[1]]; ok {
				if v := classify(c.ctx, shell.ForParser(val, c.ctx), depth+1); v.Dangerous {
					return via(v, "Python")
				}
			}
		}
	}
	return Verdict{}
}

// allTemporaryLiterals: every string the code names is a disposable name
// (es.indices.delete(index='tmp-test-2024')).
func allTemporaryLiterals(strs []string) bool {
	for _, s := range strs {
		if !temporaryName(s) {
			return false
		}
	}
	return len(strs) > 0
}

// pyEmpties: the loop body opens its variable for writing (open(f, 'w')),
// which empties each file as os.truncate would.
func pyEmpties(body, loopVars string, strs []string) bool {
	for _, v := range strings.Split(loopVars, ",") {
		// os.truncate(f, 0), os.truncate(e.path, 0), os.truncate(os.path.join(d, f), 0)
		word := regexp.MustCompile(`\b` + regexp.QuoteMeta(strings.TrimSpace(v)) + `\b`)
		for _, m := range pyTruncateCall.FindAllStringSubmatch(body, -1) {
			if pyTruncSize0.MatchString(m[1]) && word.MatchString(m[1]) {
				return true
			}
		}
		re := regexp.MustCompile(`\bopen\s*\(\s*` + regexp.QuoteMeta(strings.TrimSpace(v)) + `\s*,\s*(` + pyL + `)`)
		for _, m := range re.FindAllStringSubmatch(body, -1) {
			if mode := litValue(m[1], strs); strings.HasPrefix(mode, "w") {
				return true
			}
		}
	}
	return false
}

// pyTruncateCall: a truncate call's arguments (one level of nested calls);
// pyTruncSize0: those that end with the size 0.
var (
	pyTruncateCall = regexp.MustCompile(`\btruncate\s*\(((?:[^()]|\([^()]*\))*)\)`)
	pyTruncSize0   = regexp.MustCompile(`,\s*0\s*$`)
)

// underSystemLogs: a path in the system's log directory.
func underSystemLogs(p string) bool {
	return p == "/var/log" || strings.HasPrefix(p, "/var/log/")
}

// pySDKService: literals that name an SDK's service or region, not a resource
// (boto3.client('cloudformation'), region_name='eu-west-1').
var pySDKService = regexp.MustCompile(`\b(?:client|resource|Session)\s*\(\s*(` + pyL + `)|\bregion_name\s*=\s*(` + pyL + `)`)

// pyResourceNames: the input's literals but those naming a service or region,
// so a delete whose every resource is named as disposable (StackName='pr-1432-preview') passes.
func pyResourceNames(code string, strs []string) []string {
	skip := map[string]bool{}
	for _, m := range pySDKService.FindAllStringSubmatch(code, -1) {
		skip[m[1]+m[2]] = true
	}
	var out []string
	for _, m := range pyLit.FindAllStringSubmatch(code, -1) {
		if !skip[m[0]] {
			out = append(out, pyLiteral(m[1], strs))
		}
	}
	return out
}

// pyBoundListing: the listing call a loop's iterable name was assigned
// (files = os.listdir('x')), or "".
func pyBoundListing(code, iter string) string {
	name := strings.TrimSpace(iter)
	if !plainIdent.MatchString(name) {
		return ""
	}
	re := regexp.MustCompile(`(?m)(?:^|;)\s*` + regexp.QuoteMeta(name) + `\s*=\s*([^\n;]+)`)
	ms := re.FindAllStringSubmatch(code, -1)
	// with os.scandir('x') as it: binds the listing as an assignment does.
	with := regexp.MustCompile(`(?m)^\s*(?:async\s+)?with\s+(.+?)\s+as\s+` + regexp.QuoteMeta(name) + `\s*:`)
	ms = append(ms, with.FindAllStringSubmatch(code, -1)...)
	if len(ms) != 1 || !pyListing.MatchString(ms[0][1]) {
		return ""
	}
	return ms[0][1]
}
