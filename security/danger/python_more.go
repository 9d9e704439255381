package danger

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// More Python checks: code run by eval/exec (including code fetched from the
// network), signals to every process, writes to system files and devices,
// permission changes, Redis/MongoDB wipes, fork loops and GitPython's git
// commands. code and strs come
// from scanPython: string literals are "\x01<n>\x02" in code.

var (
	pyEvalCall  = regexp.MustCompile(`\b(?:exec|eval|compile)\s*\(`)
	pyFetch     = regexp.MustCompile(`\b(?:urlopen|requests\s*\.\s*get|httpx\s*\.\s*get|urllib3?\b[\w.]*\.\s*request)\s*\(`)
	pyKillAll   = regexp.MustCompile(`\bos\s*\.\s*(?:kill|killpg)\s*\(\s*-\s*1\s*,`)
	pyOpen      = regexp.MustCompile(`(?:\bopen|\bio\s*\.\s*open|\bos\s*\.\s*open)\s*\(`)
	pyWriteText = regexp.MustCompile(`\bPath\s*\(\s*\x01(\d+)\x02\s*\)\s*\.\s*write_(?:text|bytes)\s*\(`)
	pyChmod     = regexp.MustCompile(`\bos\s*\.\s*(?:chmod|chown|lchown)\s*\(`)
	pyRedis     = regexp.MustCompile(`\.\s*(?:flushall|flushdb)\s*\(`)
	pyMongo     = regexp.MustCompile(`\.\s*drop_database\s*\(|\.\s*delete_many\s*\(\s*\{\s*\}\s*\)`)
	pyMongoDrop = regexp.MustCompile(`\.\s*drop\s*\(\s*\)`)
	pyForkLoop  = regexp.MustCompile(`\bwhile\s+(?:True|1)\s*:[\s\S]*?\bos\s*\.\s*fork\s*\(`)
	pyAssign    = regexp.MustCompile(`(?m)(?:^|;)[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*(?:\x01(\d+)\x02[ \t]*(?:;|$)|(tempfile\s*\.\s*mkdtemp\s*\(|tempfile\s*\.\s*gettempdir\s*\())`)
	pyWithTemp  = regexp.MustCompile(`\bwith\s+tempfile\s*\.\s*\w+\s*\([^\n]*?\)\s+as\s+([A-Za-z_]\w*)`)
	pyIdentArg  = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*[,)]`)
	pyPathCall  = regexp.MustCompile(`^\s*(?:(?:pathlib\s*\.\s*)?Path|os\s*\.\s*path\s*\.\s*(?:expanduser|abspath|realpath|normpath))\s*\(`)
)

// pyEval judges the string given to eval/exec as Python, and flags code
// fetched from the network and executed in the same statement.
func pyEval(code string, strs []string, depth int) Verdict {
	for _, loc := range pyEvalCall.FindAllStringIndex(code, -1) {
		rest := code[loc[1]:]
		line, _, _ := strings.Cut(rest, "\n")
		if pyFetch.MatchString(line) {
			return hit("pipe-to-shell")
		}
		if src, ok := pyStringArg(rest, strs); ok {
			if v := classifyPython(shell.ForParser(src, Python), depth+1); v.Dangerous {
				return via(v, "Python eval/exec")
			}
		}
	}
	return Verdict{}
}

var (
	djangoAdminsDeleted = regexp.MustCompile(`\.\s*objects\s*\.\s*filter\s*\(\s*is_(?:superuser|staff)\s*=\s*True\s*\)\s*\.\s*delete\s*\(`)
	// A queryset update (Django) or query update (SQLAlchemy) that empties the password column.
	ormPasswordBlanked = regexp.MustCompile(`\.\s*update\s*\(\s*(?:(password|password_hash|hashed_password|encrypted_password)\s*=|\{\s*(` + pyL + `)\s*:)\s*(` + pyL + `|None)`)
)

var (
	// open(F, 'w').write(requests.get(URL).text): F now holds downloaded code.
	pyWriteDownload = regexp.MustCompile(`\bopen\s*\(\s*(` + pyL + `)\s*,\s*` + pyL + `\s*\)\s*\.\s*write\s*\(\s*(?:requests|httpx|urllib\w*(?:\s*\.\s*request)?)\s*\.\s*(?:get|urlopen)\s*\(`)
	pyRunCall       = regexp.MustCompile(`\b(?:subprocess\s*\.\s*\w+|os\s*\.\s*(?:system|exec\w*|spawn\w*|popen))\s*\(([^\n]*)`)
)

// pyRunsDownloaded: a file written from a download and then run by a
// subprocess or os.system in the same input (download and execute).
func pyRunsDownloaded(code string, strs []string) bool {
	for _, m := range pyWriteDownload.FindAllStringSubmatch(code, -1) {
		f := litValue(m[1], strs)
		for _, r := range pyRunCall.FindAllStringSubmatch(code, -1) {
			for _, l := range pyLit.FindAllStringSubmatch(r[1], -1) {
				if v := pyLiteral(l[1], strs); v == f || strings.HasSuffix(v, " "+f) {
					return true
				}
			}
		}
	}
	return false
}

var passwordColumns = shell.Set("password", "password_hash", "hashed_password", "encrypted_password")

func pyMisc(code string, strs []string, _ int) Verdict {
	switch {
	case pyKillAll.MatchString(code):
		return hit("kill-all")
	case pyForkLoop.MatchString(code):
		return hit("fork-bomb")
	case pyRedis.MatchString(code) && !codeRedisDisposable(code, strs):
		return hit("redis-flush")
	case (pyMongo.MatchString(code) || strings.Contains(code, "Mongo") && pyMongoDrop.MatchString(code)) && !mongoScratchOnly(code, strs):
		return hit("mongo-drop")
	}
	if v := codeStoreEffects(code, strs); v.Dangerous {
		return v
	}
	if v := pyWrites(code, strs); v.Dangerous {
		return v
	}
	if v := pyPublicACL(code, strs); v.Dangerous {
		return v
	}
	if pyCoreDeleteAll(code) {
		return hit("orm-delete-all")
	}
	if codeWipesQueue(code, strs) {
		return hit("queue-purge")
	}
	if pyRunsDownloaded(code, strs) {
		return hit("pipe-to-shell")
	}
	if djangoAdminsDeleted.MatchString(code) {
		return hit("account-change") // every superuser or staff account: no one left to administer
	}
	for _, m := range ormPasswordBlanked.FindAllStringSubmatch(code, -1) {
		key := m[1]
		if m[2] != "" {
			key = litValue(m[2], strs)
		}
		if passwordColumns[key] && (m[3] == "None" || litValue(m[3], strs) == "") {
			return hit("account-change") // passwd -d, for every account the queryset holds
		}
	}
	if pyKillCall.MatchString(code) && pyNamesDaemon(code, strs) {
		return hit("kill-daemon")
	}
	for _, loc := range pyChmod.FindAllStringIndex(code, -1) {
		if p, ok := pyStringArg(code[loc[1]:], strs); ok && (isSystemFile(p) || isAuthorizedKeys(p)) {
			return hit("chmod-chown-system")
		}
		if v := pyChmodEffect(code[loc[0]:loc[1]], code[loc[1]:], strs); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// pyWrites: open(path, "w"/"a"/"r+"...) or Path(path).write_text on a device,
// system file or authorized_keys.
func pyWrites(code string, strs []string) Verdict {
	for _, loc := range pyOpen.FindAllStringIndex(code, -1) {
		args := pyCallArgs(code[loc[1]:])
		if len(args) < 2 {
			continue
		}
		mode := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(args[1]), "mode="))
		m := pyLit.FindStringSubmatch(mode)
		if m == nil || m[0] != mode || !strings.ContainsAny(pyLiteral(m[1], strs), "wax+") {
			continue
		}
		if p, ok := pyPathArg(args[0]+")", strs, nil); ok {
			if v := checkWriteTarget(p); v.Dangerous {
				return v
			}
		}
	}
	for _, m := range pyWriteText.FindAllStringSubmatch(code, -1) {
		if v := checkWriteTarget(pyLiteral(m[1], strs)); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// pyCallArgs splits the arguments of a call whose "(" was just read, at
// top-level commas, up to its closing parenthesis.
func pyCallArgs(rest string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return append(out, rest[start:i])
			}
			depth--
		case ',':
			if depth == 0 {
				out = append(out, rest[start:i])
				start = i + 1
			}
		}
	}
	return out
}

// pyVars collects names assigned a string literal, or a fresh temporary
// directory, anywhere in the input, so rmtree(out) can be judged by out's
// value. A name assigned more than once is left unknown.
func pyVars(code string, strs []string) map[string]string {
	vars := map[string]string{}
	seen := map[string]int{}
	for _, m := range pyAssign.FindAllStringSubmatch(code, -1) {
		seen[m[1]]++
		if m[3] != "" {
			vars[m[1]] = "/tmp/" + shell.DynMark
		} else {
			vars[m[1]] = pyLiteral(m[2], strs)
		}
	}
	for _, m := range pyWithTemp.FindAllStringSubmatch(code, -1) {
		seen[m[1]]++
		vars[m[1]] = "/tmp/" + shell.DynMark
	}
	for name, n := range seen {
		if n > 1 {
			delete(vars, name)
		}
	}
	return vars
}

// pyPathArg reads a first argument that is a string literal, Path(literal)
// or a name from vars.
func pyPathArg(rest string, strs []string, vars map[string]string) (string, bool) {
	for loc := pyPathCall.FindStringIndex(rest); loc != nil; loc = pyPathCall.FindStringIndex(rest) {
		rest = rest[loc[1]:]
	}
	if p, ok := pyStringArg(rest, strs); ok {
		return p, true
	}
	if m := pyIdentArg.FindStringSubmatch(rest); m != nil {
		p, ok := vars[m[1]]
		return p, ok
	}
	return "", false
}

var (
	// GitPython: repo.git.<command>(*args, **kwargs) runs "git <command>" with
	// the args, and kwargs as options (force=True is --force, f=True is -f).
	pyGitCmd   = regexp.MustCompile(`\.\s*git\s*\.\s*([a-z_]+)\s*\(([^()]*)\)`)
	pyGitKw    = regexp.MustCompile(`^([A-Za-z_]\w*)\s*=\s*(True|\x01(\d+)\x02)$`)
	pyHeadWipe = regexp.MustCompile(`\.\s*(?:head|index)\s*\.\s*reset\s*\([^()]*\bworking_tree\s*=\s*True`)
	// GitPython's object API: Repo.delete_head(name, force=True) is branch -D,
	// Remote.push(..., force=True) is push --force.
	pyGitAPI  = regexp.MustCompile(`\.\s*(delete_head|push)\s*\(([^()]*)\)`)
	pyForceKw = regexp.MustCompile(`\bforce\s*=\s*True\b`)
)

// pyGitPython judges GitPython's calls as the git commands they run:
// repo.git.stash('clear') is git stash clear, repo.git.push(force=True) is
// git push --force; Repo.head.reset(working_tree=True) is reset --hard.
func pyGitPython(code string, strs []string, depth int) Verdict {
	if pyHeadWipe.MatchString(code) {
		return hit("git-discard-work")
	}
	for _, m := range pyGitAPI.FindAllStringSubmatch(code, -1) {
		if !pyForceKw.MatchString(m[2]) {
			continue
		}
		var names []string
		for _, l := range pyLit.FindAllStringSubmatch(m[2], -1) {
			names = append(names, shellQuote(pyLiteral(l[1], strs)))
		}
		line := "git branch -D " + strings.Join(names, " ") // repo.delete_head('x', force=True)
		if m[1] == "push" {                                 // remote.push('HEAD:main', force=True): the remote object's name is not in view
			line = "git push --force origin " + strings.Join(names, " ")
		}
		if v := classifyShell(line, depth+1); v.Dangerous {
			return via(v, "GitPython")
		}
	}
	calls := pyGitCmd.FindAllStringSubmatch(code, -1)
	for _, m := range calls {
		words := []string{"git", strings.ReplaceAll(m[1], "_", "-")}
		for _, a := range strings.Split(m[2], ",") {
			a = strings.TrimSpace(a)
			if kw := pyGitKw.FindStringSubmatch(a); kw != nil {
				opt := "--" + strings.ReplaceAll(kw[1], "_", "-")
				if len(kw[1]) == 1 {
					opt = "-" + kw[1]
				}
				if kw[3] != "" {
					opt += "=" + pyLiteral(kw[3], strs)
				}
				words = append(words, opt)
				continue
			}
			if l := pyLit.FindStringSubmatch(a); l != nil && l[0] == a {
				words = append(words, shellQuote(pyLiteral(l[1], strs)))
			}
		}
		if v := classifyShell(strings.Join(words, " "), depth+1); v.Dangerous {
			return via(v, "GitPython")
		}
	}
	return Verdict{}
}

var (
	pyACLCall = regexp.MustCompile(`\bput_bucket_acl\s*\(|\bput_object_acl\s*\(|\.\s*Acl\s*\(\s*\)\s*\.\s*put\s*\(`)
	pyACLArg  = regexp.MustCompile(`\bACL\s*=\s*\x01(\d+)\x02`)
)

var (
	pyUploadCall = regexp.MustCompile(`\.\s*(?:upload_file|upload_fileobj|put_object)\s*\(`)
	pyACLEntry   = regexp.MustCompile(`(?:\bACL\s*=|\x01(\d+)\x02\s*:)\s*\x01(\d+)\x02`)
)

// pyPublicUpload: a data export uploaded with a public canned ACL
// (upload_file('customers.csv', …, ExtraArgs={'ACL': 'public-read'})).
func pyPublicUpload(code string, strs []string) bool {
	for _, loc := range pyUploadCall.FindAllStringIndex(code, -1) {
		args := strings.Join(pyCallArgs(code[loc[1]:]), ",")
		public, export := false, false
		for _, m := range pyACLEntry.FindAllStringSubmatch(args, -1) {
			if (m[1] == "" || pyLiteral(m[1], strs) == "ACL") && publicGrant.MatchString(pyLiteral(m[2], strs)) {
				public = true
			}
		}
		for _, l := range pyLit.FindAllStringSubmatch(args, -1) {
			export = export || dataExport.MatchString(pyLiteral(l[1], strs))
		}
		if public && export {
			return true
		}
	}
	return false
}

// pyPublicACL: boto3's put_bucket_acl / put_object_acl (and Bucket.Acl().put)
// with a canned ACL that grants everyone, as aws s3api put-bucket-acl --acl
// public-read does.
func pyPublicACL(code string, strs []string) Verdict {
	if pyPublicUpload(code, strs) {
		return hit("storage-made-public")
	}
	for _, loc := range pyACLCall.FindAllStringIndex(code, -1) {
		args := strings.Join(pyCallArgs(code[loc[1]:]), ",")
		for _, m := range pyACLArg.FindAllStringSubmatch(args, -1) {
			if publicGrant.MatchString(pyLiteral(m[1], strs)) {
				return hit("storage-made-public")
			}
		}
		for _, l := range pyLit.FindAllStringSubmatch(args, -1) {
			if strings.Contains(pyLiteral(l[1], strs), "global/AllUsers") {
				return hit("storage-made-public")
			}
		}
	}
	return Verdict{}
}

var (
	// pyKillCall: a signal sent from Python (os.kill/killpg, psutil's
	// Process.kill/terminate/send_signal, subprocess objects' kill).
	pyKillCall  = regexp.MustCompile(`\bos\s*\.\s*kill(?:pg)?\s*\(|\.\s*(?:kill|terminate|send_signal)\s*\(`)
	pyNameMatch = regexp.MustCompile(`(?:==|\bin\s*[\[({]?)\s*\x01(\d+)\x02`)
	pidFile     = regexp.MustCompile(`^/(?:var/)?run/(?:([\w.-]+)/)?([\w.-]+?)\.pid$`)
	// runDirs: the runtime directories services keep their pid files in,
	// named for the service rather than its process (/run/postgresql/15-main.pid).
	runDirs = shell.Set("postgresql", "mysql", "mysqld", "mariadb", "redis", "php", "docker", "mongodb", "rabbitmq", "elasticsearch", "sshd", "nginx", "apache2", "httpd")
)

// pidFileDaemon: p is a system daemon's pid file, named for the daemon
// (/run/nginx.pid) or kept in the service's runtime directory
// (/run/postgresql/15-main.pid, /var/run/mysqld/mysqld.pid).
func pidFileDaemon(p string) bool {
	m := pidFile.FindStringSubmatch(path.Clean(p))
	return m != nil && (daemons[m[2]] || daemons[m[1]] || runDirs[m[1]])
}

// pyNamesDaemon: the code names a system daemon, as the process name it
// matches (p.info['name'] == 'postgres') or by its pid file (/run/sshd.pid).
func pyNamesDaemon(code string, strs []string) bool {
	for _, s := range strs {
		if pidFileDaemon(s) {
			return true
		}
	}
	for _, m := range pyNameMatch.FindAllStringSubmatch(code, -1) {
		if s := pyLiteral(m[1], strs); daemons[s] && !temporaryName(s) {
			return true
		}
	}
	return false
}

// SQLAlchemy's core statements: delete(Model) and update(Model).values(…)
// executed with no .where() touch every row.
var pyCoreStmt = regexp.MustCompile(`\bexecute\s*\(\s*(?:(?:sa|sqlalchemy)\s*\.\s*)?(?:delete|update)\s*\(\s*[A-Z]\w*(?:\s*\.\s*__table__)?\s*\)((?:\s*\.\s*values\s*\([^()]*\))?)\s*([.)])`)

func pyCoreDeleteAll(code string) bool {
	for _, m := range pyCoreStmt.FindAllStringSubmatch(code, -1) {
		if m[2] == ")" { // nothing chained after it: no where()
			return true
		}
	}
	return false
}
