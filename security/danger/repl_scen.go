package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Framework calls that empty or drop a whole database from a console: the
// Rails tasks and Django commands that do so, SQL in a tagged template
// (prisma.$executeRaw`…`), and pandas writing over a kept table.

var (
	// railsJoin: Rails.root.join('tmp', 'cache') names a path in the project.
	railsJoin = regexp.MustCompile(`\bRails\s*\.\s*root\s*\.\s*join\s*\(\s*((?:\x01\d+\x02\s*,\s*)*\x01\d+\x02)\s*\)`)
	// rakeTask: Rake::Task['db:drop'].invoke (the task name is literal n).
	rakeTask = regexp.MustCompile(`\bRake\s*::\s*Task\s*\[\s*\x01(\d+)\x02\s*\]\s*\.\s*(?:invoke|execute)\b`)
	// djangoCommand: call_command('flush') and the like (first literal).
	djangoCommand = regexp.MustCompile(`\bcall_command\s*\(\s*\x01(\d+)\x02`)
	// taggedSQL: prisma.$executeRaw`DROP TABLE …`, sql`…` templates run as SQL.
	taggedSQL = regexp.MustCompile(`\$\s*(?:executeRaw|queryRaw)(?:Unsafe)?\s*\x01(\d+)\x02`)
	// toSQLReplace: df.to_sql('users', engine, if_exists='replace') drops
	// and recreates the table.
	toSQLReplace = regexp.MustCompile(`\.\s*to_sql\s*\(\s*(?:name\s*=\s*)?\x01(\d+)\x02[^\n]*\bif_exists\s*=\s*\x01(\d+)\x02`)
	// ormEmptyFilter: M.objects.filter().delete() filters nothing.
	// pyProcFilter: a loop over every process that picks some by name or
	// command line kills only those.
	pyProcFilter = regexp.MustCompile(`==|\.\s*(?:startswith|endswith)\s*\(|\bre\s*\.\s*(?:match|search|fullmatch)\s*\(|\bin\s*[(\[{\x01]|\x02\s+in\b`)
	// pyListFiltered: a listing narrowed by prefix or filter (list_blobs(prefix=…)).
	pyListFiltered = regexp.MustCompile(`\b(?:[Pp]refix|\w*Prefix|[Ff]ilters?|match_glob)\s*=`)
	// pyIAMDelete: deleting IAM identities (users, roles, service accounts).
	pyIAMDelete = regexp.MustCompile(`\.\s*delete_(?:user|role|group|service_account|instance_profile)\s*\(`)
	iamWord     = regexp.MustCompile(`\biam`)
	// gdbKill: call kill(1, 9) / kill(-1, 9) from the inferior.
	gdbKill = regexp.MustCompile(`^(?:call|print|p)\b.*\bkill\s*\(\s*(-?1)\s*,`)
	// redisFlush: client.flushall() / flushDb() from any console.
	redisFlush = regexp.MustCompile(`\.\s*(?i:flushall|flushdb)\b\s*(?:\(|;|$)`)
	// pyTypedGlob: <dir>.glob('*.ext') / .rglob('*.ext') on a directory
	// held in a variable.
	pyTypedGlob = regexp.MustCompile(`^\s*[A-Za-z_]\w*\s*\.\s*r?glob\s*\(\s*\x01(\d+)\x02\s*\)\s*$`)
	pyReadBack  = regexp.MustCompile(`\.\s*read(?:_text|_bytes)?\s*\(\s*\)\s*\.\s*(?:replace|format|strip|rstrip|splitlines)\b|\bre\s*\.\s*sub\s*\(`)
	// redisScanDelete: deleting every key a scan or KEYS returns
	// (scan_iter('*'), keys()), as FLUSHDB does.
	redisScanDelete = regexp.MustCompile(`\b(?:scan_iter|keys)\s*\(\s*(?:(?:match\s*=\s*)?\x01(\d+)\x02)?\s*\)[^\n]*\.\s*(?:delete|unlink)\s*\(|` +
		`\.\s*(?:delete|unlink)\s*\([^\n]*\bfor\b[^\n]*\b(?:scan_iter|keys)\s*\(\s*(?:(?:match\s*=\s*)?\x01(\d+)\x02)?\s*\)`)
	// mongoDropTarget: what a MongoDB drop names: db.<coll>.drop(),
	// db['coll'].drop(), drop_database('name'), drop_collection('name').
	mongoDropTarget = regexp.MustCompile(`\bdb\s*(?:\.\s*(\w+)|(?:\[|\.\s*collection\s*\()\s*\x01(\d+)\x02\s*[\])])\s*\.\s*drop\s*\(\s*\)|\.\s*drop_(?:database|collection)\s*\(\s*\x01(\d+)\x02\s*\)|\.\s*(?:db|getSiblingDB)\s*\(\s*\x01(\d+)\x02\s*\)\s*\.\s*dropDatabase\s*\(\s*\)`)
	mongoDropAny    = regexp.MustCompile(`\.\s*(?:drop|drop_database|dropDatabase|drop_collection|delete_many|remove)\s*\(`)
	ormEmptyFilter  = regexp.MustCompile(`\.\s*objects\s*\.\s*(?:filter|exclude)\s*\(\s*\)\s*\.\s*(?:delete|update)\s*\(`)
)

// dbWipeTasks: Rails tasks and Django management commands that drop or empty
// the database, by the rule they fall under.
var dbWipeTasks = map[string]string{
	"db:drop": "sql-drop", "db:drop:all": "sql-drop", "db:reset": "sql-drop", "db:purge": "sql-drop",
	"db:schema:load": "sql-drop", "db:structure:load": "sql-drop", "db:migrate:reset": "sql-drop",
	"db:setup": "sql-drop", "db:truncate_all": "sql-truncate",
	"flush": "orm-delete-all", "reset_db": "sql-drop", "sqlflush": "orm-delete-all",
}

func litAt(strs []string, n string) string {
	return strings.TrimPrefix(pyLiteral(n, strs), "`")
}

// checkFrameworkWipes judges code whose literals were read by scanLiterals
// (or pyNormalize, which marks them the same way).
func checkFrameworkWipes(code string, strs []string, depth int) Verdict {
	for _, re := range []*regexp.Regexp{rakeTask, djangoCommand} {
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			if id, ok := dbWipeTasks[litAt(strs, m[1])]; ok {
				return hit(id)
			}
		}
	}
	for _, m := range taggedSQL.FindAllStringSubmatch(code, -1) {
		if v := classifySQL(litAt(strs, m[1]), depth+1); v.Dangerous {
			return via(v, "a database driver")
		}
	}
	if pyIAMDelete.MatchString(code) && (iamWord.MatchString(code) || slices.Contains(strs, "iam")) {
		return hit("cloud-teardown")
	}
	for _, m := range toSQLReplace.FindAllStringSubmatch(code, -1) {
		if t := litAt(strs, m[1]); litAt(strs, m[2]) == "replace" && !scratchTable(t) && !stagingTable(t) {
			return hit("sql-drop")
		}
	}
	if v := codeStoreEffects(code, strs); v.Dangerous {
		return v
	}
	if v := mongoEffects(code, strs); v.Dangerous {
		return v // the MongoDB driver's calls, as mongosh's
	}
	if redisFlush.MatchString(code) && !codeRedisDisposable(code, strs) {
		return hit("redis-flush")
	}
	for _, m := range redisScanDelete.FindAllStringSubmatch(code, -1) {
		if n := m[1] + m[2]; n == "" || strings.Trim(litAt(strs, n), "*") == "" {
			return hit("redis-flush")
		}
	}
	return hitIf(ormEmptyFilter.MatchString(code), "orm-delete-all")
}

// stagingTable: tables a load fills and empties by design (users_staging,
// stg_orders, orders_import).
func stagingTable(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "stg_") || strings.HasPrefix(n, "staging_") ||
		strings.HasSuffix(n, "_staging") || strings.HasSuffix(n, "_stg") || strings.HasSuffix(n, "_import")
}

// typedGlob: the iterable of a loop is dir.glob('*.ext'), a pattern naming
// files of one type (not '*' or '*.*') in one directory.
func typedGlob(iter string, strs []string) bool {
	m := pyTypedGlob.FindStringSubmatch(iter)
	if m == nil {
		return false
	}
	pat := strings.TrimPrefix(pyLiteral(m[1], strs), "**/")
	ext := strings.TrimPrefix(pat, "*.")
	return ext != pat && ext != "" && !strings.ContainsAny(ext, "*?[/")
}

// backupCopy: a copy kept beside a file (.env.bak, id_rsa.orig): the shell
// deletes these as scratch (scratchWord), and so does code.
func backupCopy(p string) bool {
	b := strings.ToLower(path.Base(p))
	for _, suf := range []string{".bak", ".orig", ".old", ".backup", "~"} {
		if strings.HasSuffix(b, suf) && len(b) > len(suf) {
			return true
		}
	}
	return false
}

// rewrittenFromItself: Path(p).write_text(Path(p).read_text().replace(…))
// edits a file in place; its content is kept, not emptied.
func rewrittenFromItself(code string, strs []string, p string) bool {
	if !pyReadBack.MatchString(code) {
		return false
	}
	n := 0
	for _, m := range pyLit.FindAllStringSubmatch(code, -1) {
		if pyLiteral(m[1], strs) == p {
			n++
		}
	}
	return n >= 2
}

// mongoScratchOnly: every MongoDB drop in code names a scratch database or
// collection (tmp_import, cache_tmp), as SQL's scratch tables pass.
func mongoScratchOnly(code string, strs []string) bool {
	ms := mongoDropTarget.FindAllStringSubmatch(code, -1)
	if len(ms) == 0 || len(ms) != len(mongoDropAny.FindAllString(code, -1)) {
		return false
	}
	for _, m := range ms {
		name := m[1]
		if n := m[2] + m[3] + m[4]; n != "" {
			name = litAt(strs, n)
		}
		if !scratchTable(name) && !(strings.Contains(strings.ToLower(m[0]), "database") && mongoDisposableDB(name)) {
			return false // a test suite's database (drop_database('app_test')) is its own to drop
		}
	}
	return true
}
