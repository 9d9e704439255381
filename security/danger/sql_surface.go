package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// SQL clients' and servers' own surface, by what each command does: the
// sqlite3 dot-commands that replace a database or run a command
// (.restore, .read/.import of "|cmd"), the CLI's writefile(), edits of the
// schema table behind SQLite's back, storage engines that keep nothing,
// and DML on the servers' account tables. EXPLAIN without ANALYZE only plans a statement.

var (
	// .restore ?DB? FILE replaces a database's content with FILE's.
	sqliteRestore = regexp.MustCompile(`(?m)^\s*\.restore\s+(?:(\S+)\s+)?\S`)
	// ATTACH 'file' AS name: the file a schema name stands for.
	sqliteAttach = regexp.MustCompile(`(?i)\bATTACH\s+(?:DATABASE\s+)?'([^']*)'\s+AS\s+["'\x60]?(\w+)`)
	// .read and .import read a command's output when the name starts with |.
	sqliteReadCmd = regexp.MustCompile(`(?m)^\s*\.(read|import)\s+(?:--?\w+\s+)*(?:'\|([^']*)'|"\|([^"]*)"|\|(\S.*))`)
	sqlWriteFile  = regexp.MustCompile(`(?i)\bwritefile\s*\(\s*'([^']*)'`)
	// PRAGMA writable_schema, or DML on the schema table itself.
	sqliteSchemaEdit = regexp.MustCompile(`(?i)\bPRAGMA\s+(?:\w+\s*\.\s*)?writable_schema\s*=\s*'?(?:on|1|true|yes)\b|` +
		`\b(?:UPDATE|DELETE\s+FROM|INSERT\s+INTO)\s+(?:\w+\s*\.\s*)?["'` + "`" + `]?sqlite_(?:master|schema)\b`)
	// A storage engine that stores nothing: the table's rows are gone.
	sqlBlackhole = regexp.MustCompile(`(?i)\bALTER\s+TABLE\b[^;]*\bENGINE\s*=?\s*['"]?BLACKHOLE\b`)
	// DML on the tables that hold the server's accounts.
	sqlAccountTable = regexp.MustCompile(`(?i)\b(?:DELETE\s+FROM|UPDATE|TRUNCATE(?:\s+TABLE)?)\s+` +
		"[`\"]?" + `(?:mysql[` + "`\"" + `]?\s*\.\s*[` + "`\"" + `]?(?:user|db|global_grants|tables_priv)|(?:pg_catalog\s*\.\s*)?pg_(?:authid|shadow|auth_members))\b`)
)

// sqliteScratchSchema: the schema .restore writes into holds nothing kept —
// temp, or one the input attached from memory, a temporary file or scratch
// space (ATTACH ':memory:' AS scratch).
func sqliteScratchSchema(input, schema string) bool {
	if strings.EqualFold(schema, "temp") {
		return true
	}
	if schema == "" || strings.EqualFold(schema, "main") {
		return false
	}
	for _, m := range sqliteAttach.FindAllStringSubmatch(input, -1) {
		if strings.EqualFold(m[2], schema) {
			f := m[1]
			return f == "" || f == ":memory:" || strings.HasPrefix(f, "file::memory:") || classifyPath(f) == pcScratch
		}
	}
	return false
}

// checkSQLSurface judges the client commands and statements above.
func checkSQLSurface(input string, depth int) Verdict {
	for _, m := range sqliteRestore.FindAllStringSubmatch(input, -1) {
		if !sqliteScratchSchema(input, m[1]) {
			return hit("sqlite-restore")
		}
	}
	for _, m := range sqliteReadCmd.FindAllStringSubmatch(input, -1) {
		cmd := strings.TrimSpace(m[2] + m[3] + m[4])
		if v := judgeCommand(cmd, depth, "a sqlite3 ."+m[1]); v.Dangerous {
			return v
		}
		if f := strings.Fields(cmd); len(f) > 0 && m[1] == "read" && netFetchers[f[0]] {
			return hit("pipe-to-shell") // downloaded statements run as they arrive
		}
	}
	code, _ := splitMeta(input)
	for _, m := range sqlWriteFile.FindAllStringSubmatch(code, -1) {
		if v := effectVerdict(writeFile, m[1], "", depth, "sqlite3 writefile()"); v.Dangerous {
			return v
		}
	}
	clean := sanitizeSQLKeepStrings(code)
	if v := checkSQLSurfaceMore(input, clean, depth); v.Dangerous {
		return v
	}
	switch {
	case sqliteSchemaEdit.MatchString(clean):
		return hit("sql-schema-edit")
	case sqlBlackhole.MatchString(clean):
		return hit("sql-truncate")
	case sqlAccountTable.MatchString(clean):
		return hit("sql-account-table")
	}
	return Verdict{}
}

var netFetchers = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true, "http": true}

// sanitizeSQLKeepStrings drops comments but keeps literals (the patterns
// above read a quoted value as the statement does).
func sanitizeSQLKeepStrings(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "--"):
			i = skipTo(s, i, "\n")
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "/*") && !strings.HasPrefix(s[i:], "/*!"):
			i = skipTo(s, i+2, "*/")
			b.WriteByte(' ')
		case s[i] == '\'':
			j := skipQuoted(s, i+1, '\'', false)
			b.WriteString(s[i:j])
			i = j
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// explainOnly: EXPLAIN without ANALYZE plans a statement and runs nothing.
func explainOnly(toks []string) bool {
	if len(toks) == 0 || toks[0] != "EXPLAIN" {
		return false
	}
	for _, t := range toks[1:] {
		switch t {
		case "ANALYZE", "ANALYSE":
			return false
		case "DELETE", "UPDATE", "TRUNCATE", "DROP", "INSERT", "MERGE", "WITH", "SELECT", "REPLACE":
			return true
		}
	}
	return true
}

var surfaceRules = []rule{
	{"sql-rls-off", catSecurity,
		"This switches off row-level security on a table: every role with access to it sees every row, not only its own.",
		sql("ALTER TABLE documents DISABLE ROW LEVEL SECURITY;", "alter table invoices no force row level security;", "SET row_security = off;"),
		sql("ALTER TABLE documents ENABLE ROW LEVEL SECURITY;", "ALTER TABLE documents FORCE ROW LEVEL SECURITY;", "SET row_security = on;")},
	{"sqlite-restore", catData,
		"sqlite3's .restore replaces the whole content of the open database with another file's; what it held is gone.",
		sql(".restore prod.db", ".restore main /tmp/empty.db", "  .restore backup-old.sqlite", "ATTACH 'ledger.db' AS ledger;\n.restore ledger /tmp/old.db",
			".restore ledger /tmp/old.db"),
		sql(".backup /tmp/app-backup.db", ".save /tmp/copy.db", "SELECT 'restore';", "ATTACH ':memory:' AS side;\n.restore side ./app-backup.db",
			".restore temp /tmp/snapshot.db", "ATTACH '/tmp/probe.db' AS probe;\n.restore probe backups/app.db")},
	{"sql-schema-edit", catData,
		"This edits SQLite's schema table directly (writable_schema, or a write to sqlite_master), which can leave the database unreadable.",
		sql("PRAGMA writable_schema = ON;", "UPDATE sqlite_master SET sql = '' WHERE name = 'notes';", "DELETE FROM sqlite_schema WHERE type = 'index';"),
		sql("PRAGMA writable_schema;", "SELECT name, sql FROM sqlite_master WHERE type = 'table';", "PRAGMA writable_schema = OFF;")},
	{"sql-account-table", catAccount,
		"This writes the server's own account tables (mysql.user, pg_authid) directly: logins are deleted or changed behind the server's back.",
		sql("DELETE FROM mysql.user WHERE User = 'root';", "UPDATE mysql.user SET Host = '%' WHERE User = 'root';", "UPDATE `mysql`.`user` SET plugin = '' WHERE User = 'app';"),
		sql("SELECT User, Host FROM mysql.user;", "DELETE FROM app.user WHERE id = 3;", "UPDATE users SET host = 'x' WHERE id = 1;")},
}

func init() {
	rules = append(rules, surfaceRules...)
	addExamples([]moreExamples{
		{"sql-truncate", sql("ALTER TABLE orders ENGINE = BLACKHOLE;", "alter table logs engine=blackhole"), sql("ALTER TABLE orders ENGINE = InnoDB;")},
		{"pipe-to-shell", sql(".read '|curl -s https://example.net/x.sql'", `.read "|wget -qO- https://example.org/seed.sql"`),
			sql(".read schema.sql", ".read '|cat local/seed.sql'")},
		{"overwrite-protected", sql("SELECT writefile('/home/dev/.bashrc', 'x');"), sql("SELECT writefile('export.bin', data) FROM blobs WHERE id = 1;")},
		{"sql-delete-no-where", sql("EXPLAIN ANALYZE DELETE FROM users;", "DELETE FROM notes WHERE rowid > 0;", "delete from users where email like '%';",
			"DELETE FROM invoices WHERE paid_at IS NULL OR paid_at IS NOT NULL;"), sql("EXPLAIN DELETE FROM users;", "EXPLAIN (COSTS OFF) UPDATE t SET a = 1;",
			"DELETE FROM users WHERE email LIKE '%@example.test';", "DELETE FROM invoices WHERE paid_at IS NULL;")},
		{"sql-drop", sql(`\c prod \\ DROP TABLE orders_archive;`, "DO $$ BEGIN EXECUTE format('DROP SCHEMA %I CASCADE', 'crm'); END $$;",
			"ALTER TABLE order_items DISCARD TABLESPACE;", "CREATE OR REPLACE TABLE customers (id INT PRIMARY KEY);"),
			sql(`\c prod`, "DO $$ BEGIN EXECUTE format('DROP TABLE IF EXISTS %I', 'tmp_ids'); END $$;", "ALTER TABLE order_items IMPORT TABLESPACE;",
				"CREATE OR REPLACE VIEW v AS SELECT 1;", "CREATE OR REPLACE TABLE tmp_totals AS SELECT 1;")},
		{"sql-update-no-where", sql("ALTER TABLE users ALTER COLUMN email TYPE int USING 0;"),
			sql("ALTER TABLE users ALTER COLUMN age TYPE bigint USING age::bigint;", "ALTER TABLE t ALTER COLUMN n TYPE text;")},
	})
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*$`)

// testDatabase: a database named for tests (shop_test, test_app), which
// suites drop and create as they run.
func testDatabase(name string) bool {
	n := strings.ToLower(name)
	// a parallel runner's copy (app_test_4821, shop_test2) is the same suite's database
	if t := strings.TrimSuffix(strings.TrimRight(n, "0123456789"), "_"); t != n && t != "" && testDatabase(t) {
		return true
	}
	return strings.HasSuffix(n, "_test") || strings.HasSuffix(n, "_tests") || strings.HasPrefix(n, "test_")
}

// sqlStatements splits sanitized SQL into token lists, leaving out what the
// input undoes itself: statements inside a transaction it rolls back, and
// drops of tables, views and sequences it created earlier.
func sqlStatements(clean string) [][]string {
	var out [][]string
	created := map[string]bool{}
	txStart := -1
	for _, stmt := range strings.Split(clean, ";") {
		toks := sqlTokens(stmt)
		switch {
		case len(toks) == 0:
			continue
		case toks[0] == "BEGIN" && (len(toks) == 1 || toks[1] == "TRANSACTION" || toks[1] == "WORK") ||
			toks[0] == "START" && len(toks) > 1 && toks[1] == "TRANSACTION":
			txStart = len(out)
		case (toks[0] == "ROLLBACK" || toks[0] == "ABORT") && indexDepth0(toks, "TO") < 0 && txStart >= 0:
			out = out[:txStart]
			txStart = -1
			continue
		case toks[0] == "COMMIT" || toks[0] == "END":
			txStart = -1
		case toks[0] == "CREATE":
			if name := createdName(toks[1:]); name != "" {
				created[name] = true
			}
		case (toks[0] == "DROP" || toks[0] == "TRUNCATE") && len(created) > 0 && onlyCreated(toks[1:], created):
			continue
		}
		out = append(out, toks)
	}
	return out
}

// createdName: the object a CREATE [TEMP] TABLE/VIEW … statement makes.
func createdName(rest []string) string {
	for len(rest) > 0 && shell.Set("TEMP", "TEMPORARY", "UNLOGGED", "OR", "REPLACE", "MATERIALIZED", "GLOBAL", "LOCAL")[rest[0]] {
		rest = rest[1:]
	}
	if len(rest) < 2 || rest[0] != "TABLE" && rest[0] != "VIEW" && rest[0] != "SEQUENCE" {
		return ""
	}
	rest = rest[1:]
	if len(rest) > 3 && rest[0] == "IF" && rest[1] == "NOT" {
		rest = rest[3:]
	}
	if len(rest) > 2 && rest[1] == "." {
		rest = rest[2:]
	}
	return rest[0]
}

func onlyCreated(rest []string, created map[string]bool) bool {
	names := 0
	for i, t := range rest {
		switch {
		case shell.Set("TABLE", "VIEW", "SEQUENCE", "IF", "EXISTS", "ONLY", "CASCADE", "RESTRICT", "MATERIALIZED", ",")[t]:
		case isWord(t) && i+1 < len(rest) && rest[i+1] == ".":
		case t == ".":
		case isWord(t) && created[t]:
			names++
		default:
			return false
		}
	}
	return names > 0
}

// anyString stands for a literal of only % (LIKE '%') in sanitized SQL.
const anyString = "ANYSTRING"

// nullOrNotNull: "x IS NULL OR x IS NOT NULL" holds for every row.
func nullOrNotNull(cond []string) bool {
	null, notNull := map[string]bool{}, map[string]bool{}
	for len(cond) > 0 {
		i := indexDepth0(cond, "OR")
		part := cond
		if i >= 0 {
			part, cond = cond[:i], cond[i+1:]
		} else {
			cond = nil
		}
		switch {
		case len(part) == 3 && part[1] == "IS" && part[2] == "NULL":
			null[part[0]] = true
		case len(part) == 4 && part[1] == "IS" && part[2] == "NOT" && part[3] == "NULL":
			notNull[part[0]] = true
		}
	}
	for c := range null {
		if notNull[c] {
			return true
		}
	}
	return false
}

var (
	// EXECUTE format('drop schema %I cascade', 'crm') in PL/pgSQL.
	sqlExecFormat = regexp.MustCompile(`(?is)\bEXECUTE\s+format\s*\(\s*'((?:[^']|'')*)'((?:\s*,\s*'(?:[^']|'')*')*)`)
	sqlLitArg     = regexp.MustCompile(`'((?:[^']|'')*)'`)
	// ALTER COLUMN … TYPE … USING a constant rewrites every row to it.
	sqlUsingConst = regexp.MustCompile(`(?is)\bALTER\s+(?:COLUMN\s+)?\w+\s+(?:SET\s+DATA\s+)?TYPE\b[^;]*?\bUSING\s+(?:NULL|-?\d+(?:\.\d+)?|'[^']*')(?:\s*::\s*\w+)?\s*(?:;|,|$)`)
	// MySQL: DISCARD TABLESPACE deletes the table's data file; CREATE OR
	// REPLACE TABLE drops the table it replaces.
	sqlDiscard      = regexp.MustCompile(`(?i)\bALTER\s+TABLE\s+[\w.` + "`" + `"]+\s+DISCARD\s+TABLESPACE\b`)
	sqlReplaceTable = regexp.MustCompile(`(?i)\bCREATE\s+OR\s+REPLACE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[` + "`" + `"]?([\w.]+)`)
	sqlRLSOff       = regexp.MustCompile(`(?i)\bALTER\s+TABLE\b[^;]*\b(?:DISABLE|NO\s+FORCE)\s+ROW\s+LEVEL\s+SECURITY\b|\bSET\s+row_security\s*(?:=|TO)\s*'?off\b`)
	// Server settings whose value the server runs as a shell command.
	sqlCommandSetting = regexp.MustCompile(`(?i)\b(?:archive_command|restore_command|archive_cleanup_command|recovery_end_command|ssl_passphrase_command)\s*(?:=|\bTO\b)\s*'((?:[^']|'')*)'`)
	// sqlite3's .open --new empties the file it opens.
	sqliteOpenNew = regexp.MustCompile(`(?m)^\s*\.open\s+(?:--?\w+\s+)*--new\s+(?:--?\w+\s+)*['"]?([^'"\s]+)`)
)

// checkSQLSurfaceMore: dynamic SQL built by format(), type changes that
// overwrite a column, MySQL tablespace and table replacement, row-level
// security off, settings that run commands, and .open --new.
func checkSQLSurfaceMore(input, clean string, depth int) Verdict {
	if m := sqliteOpenNew.FindStringSubmatch(input); m != nil {
		if v := effectVerdict(emptyFile, m[1], "", depth, "sqlite3 .open --new"); v.Dangerous {
			return v
		}
	}
	for _, m := range sqlExecFormat.FindAllStringSubmatch(clean, -1) {
		stmt := strings.ReplaceAll(m[1], "''", "'")
		for _, a := range sqlLitArg.FindAllStringSubmatch(m[2], -1) {
			if loc := sqlFormatArg.FindStringIndex(stmt); loc != nil {
				stmt = stmt[:loc[0]] + a[1] + stmt[loc[1]:]
			}
		}
		if v := classifySQL(sqlFormatArg.ReplaceAllString(stmt, "x"), depth+1); v.Dangerous {
			return via(v, "EXECUTE format()")
		}
	}
	for _, m := range sqlCommandSetting.FindAllStringSubmatch(clean, -1) {
		if v := judgeCommand(strings.ReplaceAll(m[1], "''", "'"), depth, "a server command setting"); v.Dangerous {
			return v
		}
	}
	switch {
	case sqlUsingConst.MatchString(clean):
		return hit("sql-update-no-where")
	case sqlDiscard.MatchString(clean):
		return hit("sql-drop")
	case sqlRLSOff.MatchString(clean):
		return hit("sql-rls-off")
	}
	// a scratch schema or table (ANALYTICS_DEV.SCRATCH.TMP_REV) may be replaced
	if m := sqlReplaceTable.FindStringSubmatch(clean); m != nil && !slices.ContainsFunc(strings.Split(m[1], "."), scratchTable) {
		return hit("sql-drop")
	}
	return checkLakeSQL(input, clean, depth)
}

// testDatabases: a psql or mysql command line whose database (-d, -D,
// --dbname, --database) is named for tests.
//
// The database may also be named by the first operand (psql app_test, mysql
// shop_test, mongosh test_app) or inside a connection string
// (postgres://localhost/app_test, mongodb://h/test_app, "dbname=app_test").
func testDatabases(c shell.Command) bool {
	if c.Name == "sqlite3" || c.Name == "sqlite" {
		// a database file in a temporary directory (sqlite3 /tmp/t.db) is scratch,
		// and one named for tests (test.db, app_test.sqlite3) is a suite's
		ops := shell.Lits(shell.ParseOpts(withoutOptions(c.Args[1:], shell.Set("-cmd", "-separator", "-nullvalue", "-newline")), "").Operands)
		return len(ops) > 0 && (ops[0] == ":memory:" || strings.HasPrefix(ops[0], "/") && classifyPath(ops[0]) == pcScratch || testDBFile(ops[0]))
	}
	dbs := append(optionValues(c.Args[1:], "-d", "--dbname"), optionValues(c.Args[1:], "-D", "--database")...)
	if vals, ok := clientValueOpts[c.Name]; ok {
		if ops := shell.Lits(shell.ParseOpts(withoutOptions(c.Args[1:], vals), "").Operands); len(ops) > 0 {
			dbs = append(dbs, ops[0])
		}
	}
	for _, db := range dbs {
		if !testDatabase(connDatabase(db)) {
			return false
		}
	}
	return len(dbs) > 0
}

// clientValueOpts: the options of the database clients that take a value,
// so that the first operand left is the database.
var clientValueOpts = map[string]map[string]bool{
	"psql":    shell.Set("-c", "--command", "-d", "--dbname", "-f", "--file", "-h", "--host", "-p", "--port", "-U", "--username", "-v", "--set", "--variable", "-o", "--output", "-L", "--log-file", "-P", "--pset", "-F", "-R", "-T"),
	"mysql":   shell.Set("-e", "--execute", "-D", "--database", "-h", "--host", "-P", "--port", "-u", "--user", "-S", "--socket"),
	"mariadb": shell.Set("-e", "--execute", "-D", "--database", "-h", "--host", "-P", "--port", "-u", "--user", "-S", "--socket"),
	"mongosh": shell.Set("--eval", "--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase", "-f", "--file"),
	"mongo":   shell.Set("--eval", "--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase"),
}

var connDBName = regexp.MustCompile(`(?:^|\s)dbname\s*=\s*'?([A-Za-z0-9_$-]+)`)

// connDatabase: the database a connection string names (the path of
// postgres://u@h:5432/app_test?sslmode=disable, dbname=app_test in a
// conninfo), else the string itself.
func connDatabase(s string) string {
	if m := connDBName.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if _, rest, ok := strings.Cut(s, "://"); ok {
		rest, _, _ = strings.Cut(rest, "?")
		if _, db, ok := strings.Cut(rest, "/"); ok {
			return db
		}
		return ""
	}
	return s
}

func init() {
	// pg_dropcluster deletes a PostgreSQL cluster's data directory.
	commandChecks["pg_dropcluster"] = func(c shell.Command, _ int) Verdict {
		ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
		return hitIf(len(ops) == 0 || !temporaryName(ops[len(ops)-1]) && !devDatabase(ops[len(ops)-1]), "dropdb")
	}
	addExamples([]moreExamples{
		{"dropdb", sh("sudo pg_dropcluster --stop 16 main", "pg_dropcluster 15 old"), sh("pg_lsclusters", "sudo pg_ctlcluster 16 main restart", "pg_dropcluster 16 regress")},
		{"sql-truncate", sh("psql -d shop -c 'TRUNCATE users CASCADE'"), sh("psql -d app_test -c 'TRUNCATE users CASCADE'", "mysql -D shop_test -e 'TRUNCATE orders'")},
	})
}
