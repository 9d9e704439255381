package danger

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// More SQL: privileges (REVOKE ALL, superusers, grants to everyone), server
// programs and files (COPY … TO PROGRAM, INTO OUTFILE), psql's output pipes
// and \gexec, and terminating every backend. Scratch tables (tmp_*, temp_*,
// scratch_*, *_tmp) may be dropped and truncated freely.

// scratchObjects reports whether DROP/TRUNCATE rest names only scratch tables
// (or a TEMPORARY one).
func scratchObjects(rest []string) bool {
	// An index holds no data of its own: dropping it loses none.
	if len(rest) > 0 && (rest[0] == "TEMPORARY" || rest[0] == "TEMP" || rest[0] == "INDEX") {
		return true
	}
	names, parens := 0, 0
	for i, t := range rest {
		switch {
		case t == "(" || t == ")" || parens > 0: // a function's argument types
			if t == "(" {
				parens++
			} else if t == ")" {
				parens--
			}
		case t == "FUNCTION" || t == "PROCEDURE":
		case t == "TABLE" || t == "VIEW" || t == "DATABASE" || t == "SCHEMA" || t == "IF" || t == "EXISTS" || t == "ONLY" || t == "CASCADE" ||
			t == "RESTRICT" || t == "MATERIALIZED" || t == "," || t == ";" || t == "*":
		case t == "." && i+1 < len(rest):
		case isWord(t) && (i+1 >= len(rest) || rest[i+1] != "."):
			// temp_migration_backup is the copy kept in case a migration went wrong; only
			// a cleanup written to run either way (IF EXISTS) drops it as scratch.
			kept := keptCopy.MatchString(strings.ToLower(t)) && indexDepth0(rest, "EXISTS") < 0
			fixture := fixtureTable.MatchString(strings.ToLower(t)) && indexDepth0(rest, "EXISTS") >= 0
			if kept || !scratchTable(t) && !fixture && !((rest[0] == "DATABASE" || rest[0] == "KEYSPACE") && (testDatabase(t) || ciRunName(t))) {
				return false
			}
			names++
		case isWord(t): // a schema name before "."
		default:
			return false
		}
	}
	return names > 0
}

func scratchTable(name string) bool {
	n := strings.ToLower(strings.Trim(name, "_"))
	for _, p := range []string{"tmp", "temp", "scratch"} {
		if strings.HasPrefix(n, p) || strings.HasSuffix(n, "_"+p) {
			return true
		}
	}
	return false
}

// fixtureTable: a table named for a test suite's fixtures; dropped IF EXISTS
// (the suite's cleanup, written to run either way) it is scratch.
var fixtureTable = regexp.MustCompile(`^(?:test|tests|fixture|fixtures|e2e|spec)_|_(?:test|tests|fixture|fixtures)$`)

// keptCopy: a table named as a backup, snapshot or archive is a copy someone
// kept on purpose, whatever else its name says (see scratchObjects).
var keptCopy = regexp.MustCompile(`(?:^|_)(?:backup|backups|bak|snapshot|archive|archived|copy)(?:$|_)`)

// sqlMoreRule: the statement rules beyond sql.go's.
func sqlMoreRule(verb string, rest []string) string {
	switch verb {
	case "REVOKE":
		if indexDepth0(rest, "ALL") >= 0 && !fromPublicOnly(rest) {
			return "sql-revoke-all"
		}
	case "ALTER", "CREATE":
		if len(rest) > 0 && (rest[0] == "ROLE" || rest[0] == "USER") &&
			(indexDepth0(rest, "SUPERUSER") >= 0 || indexDepth0(rest, "BYPASSRLS") >= 0) {
			return "sql-superuser"
		}
	case "GRANT":
		// GRANT ALL ON *.* (every database of a MySQL server).
		if indexDepth0(rest, "ALL") >= 0 && strings.Contains(strings.Join(rest, ""), "ON*.*") {
			return "sql-grant-public"
		}
		to := indexDepth0(rest, "TO")
		if to < 0 {
			to = len(rest)
		}
		for _, t := range rest[:to] {
			if serverRoles[t] {
				return "sql-superuser"
			}
		}
	case "SHUTDOWN": // MySQL: stops the server
		if len(rest) == 0 || rest[0] == ";" {
			return "sql-terminate-backends"
		}
	case "SELECT":
		if terminatesAll(rest) {
			return "sql-terminate-backends"
		}
	}
	return mergeEveryRow(verb, rest)
}

// serverRoles are privileges and roles that reach beyond the database: the
// server's files and programs, or superuser rights.
var serverRoles = shell.Set("SUPER", "FILE", "SHUTDOWN", "PG_EXECUTE_SERVER_PROGRAM", "PG_WRITE_SERVER_FILES",
	"PG_READ_SERVER_FILES", "POSTGRES", "RDS_SUPERUSER", "CLOUDSQLSUPERUSER", "AZURE_PG_ADMIN",
	"SYSADMIN", "SECURITYADMIN", "SERVERADMIN", "DBA", "SYSDBA", "ACCOUNTADMIN", "DB_OWNER", "DB_SECURITYADMIN")

// backendFilters are the columns of pg_stat_activity that pick some
// sessions (a database, a user, an application, idle ones) rather than all.
var backendFilters = shell.Set("DATNAME", "USENAME", "APPLICATION_NAME", "CLIENT_ADDR", "STATE", "QUERY",
	"BACKEND_TYPE", "QUERY_START", "XACT_START", "STATE_CHANGE", "BACKEND_START", "WAIT_EVENT", "LEADER_PID")

// terminatesAll: pg_terminate_backend over pg_stat_activity with no filter
// beyond "not me".
func terminatesAll(rest []string) bool {
	if indexDepth0(rest, "PG_TERMINATE_BACKEND") < 0 || indexDepth0(rest, "PG_STAT_ACTIVITY") < 0 {
		return false
	}
	w := indexDepth0(rest, "WHERE")
	if w < 0 {
		return true
	}
	for _, t := range rest[w:] {
		if backendFilters[t] {
			return false
		}
	}
	return true
}

// everyRow: conditions that hold for every row although they are not
// literal tautologies: id > 0, id >= 0, id IS NOT NULL, 2 > 1.
func everyRow(t []string) bool {
	if len(t) > 3 && t[1] == "." { // orders.id IS NOT NULL: the column, whichever table it is of
		t = t[2:]
	}
	switch {
	case len(t) > 3 && slices.Equal(t[len(t)-3:], []string{"IS", "NOT", "NULL"}) && bindParam(t[:len(t)-3]):
		return true // :d IS NOT NULL tests the value bound, not the row
	case len(t) == 4 && t[1] == "IS" && t[2] == "NOT" && t[3] == "NULL":
		return idColumn(t[0])
	case len(t) == 3 && (t[1] == ">" || t[1] == "<"):
		a, errA := strconv.Atoi(t[0])
		b, errB := strconv.Atoi(t[2])
		switch {
		case errA == nil && errB == nil:
			return t[1] == ">" && a > b || t[1] == "<" && a < b
		case t[1] == ">" && idColumn(t[0]) && errB == nil:
			return b <= 0
		}
	case len(t) == 3 && (t[1] == "LIKE" || t[1] == "ILIKE") && t[2] == anyString:
		return true // every non-null value matches '%'
	case len(t) == 4 && t[1] == ">" && t[2] == "=":
		n, err := strconv.Atoi(t[3])
		return err == nil && idColumn(t[0]) && n <= 1
	}
	return false
}

// bindParam: a placeholder as sqlTokens splits it: ?, :name, $1, %s, %(name)s.
func bindParam(t []string) bool {
	switch len(t) {
	case 1:
		return t[0] == "?"
	case 2:
		return t[0] == ":" && isWord(t[1]) || t[0] == "$" && isWord(t[1]) || t[0] == "%" && t[1] == "S"
	case 5:
		return t[0] == "%" && t[1] == "(" && t[3] == ")" && t[4] == "S"
	}
	return false
}

func idColumn(c string) bool {
	return c == "ID" || strings.HasSuffix(c, "_ID") || c == "ROWID" || c == "_ROWID_" || c == "OID" || c == "PK"
}

var (
	sqlToProgram = regexp.MustCompile(`(?is)\bCOPY\b[^;]*\bTO\s+PROGRAM\b`)
	sqlOutfile   = regexp.MustCompile(`(?is)\bINTO\s+(?:OUT|DUMP)FILE\s+'([^']*)'`)
	sqlGrantAny  = regexp.MustCompile(`(?is)\bGRANT\s+ALL\b(?:[^;]*?\bON\s+(?:DATABASE\s+)?[` + "`" + `'"]?(\w+)[` + "`" + `'"]?\s*\.)?[^;]*\bTO\s+[^;]*@\s*['"` + "`" + `]%['"` + "`" + `]`)
	sqlEmptyPass = regexp.MustCompile(`(?is)\b(?:ALTER|CREATE)\s+(?:USER|ROLE)\b[^;]*\b(?:PASSWORD|IDENTIFIED\s+(?:WITH\s+\w+\s+)?BY)\s+(?:''|"")|\bPASSWORD\s+NULL\b|(?:^|;)\s*SET\s+PASSWORD\b[^;]*=\s*(?:''|""|PASSWORD\s*\(\s*(?:''|"")\s*\))`)
)

// grantsAnyHost: GRANT ALL … TO 'u'@'%', unless every such grant is on one
// test database (GRANT ALL ON test_shop.* TO 'ci'@'%': a CI runner's own).
func grantsAnyHost(code string) bool {
	for _, m := range sqlGrantAny.FindAllStringSubmatch(code, -1) {
		if m[1] == "" || !testDatabase(m[1]) && !temporaryName(m[1]) {
			return true
		}
	}
	return false
}

// checkSQLText: rules that need the literals sanitizeSQL blanks out.
func checkSQLText(code string) Verdict {
	switch {
	case sqlToProgram.MatchString(code):
		return hit("sql-export")
	case grantsAnyHost(code):
		return hit("sql-grant-public")
	case sqlEmptyPass.MatchString(code):
		return hit("sql-superuser")
	}
	for _, m := range sqlOutfile.FindAllStringSubmatch(code, -1) {
		if p := m[1]; isSystemFile(p) || isAuthorizedKeys(p) || strings.Contains(p, "/www/") || strings.Contains(p, "/html/") ||
			strings.HasSuffix(p, ".so") || strings.HasSuffix(p, ".php") {
			return hit("sql-export")
		}
	}
	return Verdict{}
}

var (
	// psqlPipe: \o |cmd, \g |cmd, \gx |cmd (anywhere on a line) send query
	// output to a shell command.
	psqlPipe = regexp.MustCompile(`\\(?:o|out|g|gx|w|write)\s*['"]?\|\s*(.+?)['"]?$`)
	// sqlPager: the program every result is piped through: mysql's pager
	// CMD / \P CMD, psql's \setenv PAGER (or PSQL_PAGER) CMD.
	sqlPager = regexp.MustCompile(`^(?:pager|\\P)\s+(.+)$|^\\setenv\s+(?:PSQL_)?PAGER\s+(.+)$`)
	psqlExec = regexp.MustCompile(`\\gexec\b`)
	// netSenders carry piped query results off the machine.
	netSenders   = shell.Set("nc", "ncat", "netcat", "socat", "curl", "wget", "ssh", "telnet", "scp", "openssl")
	sqlFormatArg = regexp.MustCompile(`%[ILs]`)
)

// checkPsqlMeta judges psql output pipes (by the shell rules, and as
// exfiltration when the command sends to the network) and \gexec, which runs
// every row of a query as a statement: the statements its string literals
// build are judged.
func checkPsqlMeta(input string, depth int) Verdict {
	// The query buffer (lines typed since a statement was last sent) and the
	// query last sent: \gexec on a line of its own runs the buffer, or when
	// it is empty the last query again.
	query, last := "", ""
	for line := range strings.Lines(input) {
		if !psqlExec.MatchString(line) {
			query += line
			if t := strings.TrimSpace(line); strings.HasSuffix(t, ";") {
				query, last = "", query
			}
		} else {
			if strings.TrimSpace(query) == "" {
				query = last
			}
			line, query = query+line, ""
		}
		if m := sqlPager.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			cmd := strings.Trim(strings.TrimSuffix(strings.TrimSpace(m[1]+m[2]), ";"), `'"`)
			if v := pipeTarget(cmd, depth, "the client's pager"); v.Dangerous {
				return v
			}
		}
		if m := psqlPipe.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			if v := pipeTarget(m[1], depth, "a psql output pipe"); v.Dangerous {
				return v
			}
		}
		if m := sqliteOut.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			if v := pipeTarget(m[1], depth, "an sqlite3 output pipe"); v.Dangerous {
				return v
			}
		}
		if !psqlExec.MatchString(line) {
			continue
		}
		if v := checkGeneratedSQL(line, depth); v.Dangerous {
			return via(v, `\gexec`)
		}
	}
	return Verdict{}
}

// checkGeneratedSQL judges the statements a query's string literals build
// when its rows are run (\gexec, or its output piped into a client).
func checkGeneratedSQL(query string, depth int) Verdict {
	code, strs := scanLiterals(query, "--", "\x00")
	names := constrainedNames(query, code)
	done := map[string]bool{}
	for _, m := range sqlFormatCall.FindAllStringSubmatch(query, -1) {
		// format('DROP TABLE %I', tablename) … WHERE tablename LIKE 'tmp_%':
		// each placeholder stands for the column the query selects it from.
		tmpl := strings.ReplaceAll(m[1], "''", "'")
		done[tmpl] = true
		args := splitTopLevel(m[2])
		i := 0
		gen := sqlFormatArg.ReplaceAllStringFunc(tmpl, func(string) string {
			rep := "__dyn__"
			if i < len(args) {
				if n, ok := names[argColumn(args[i])]; ok {
					rep = n
				}
			}
			i++
			return rep
		})
		if v := classifySQL(gen, depth+1); v.Dangerous {
			return v
		}
	}
	for _, s := range strs {
		if done[s] {
			continue
		}
		gen := sqlFormatArg.ReplaceAllString(s, "__dyn__") + " __dyn__"
		if v := classifySQL(gen, depth+1); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

var (
	sqlFormatCall = regexp.MustCompile(`(?is)\bformat\s*\(\s*'((?:[^']|'')*)'\s*,((?:[^()]|\([^()]*\))*)\)`)
	// col [NOT] LIKE 'pattern' or col = 'name' in a query's filter.
	sqlNameFilter = regexp.MustCompile(`(?i)(?:\w+\.)?(\w+)\s+(NOT\s+)?I?LIKE\s+'([^']*)'|(?:\w+\.)?(\w+)\s*=\s*'([^']*)'`)
	sqlOr         = regexp.MustCompile(`(?i)\bOR\b`)
)

// constrainedNames: the columns a query's filter holds to one name or a
// name's prefix (tablename LIKE 'tmp_import_%'), each with a name it
// stands for; none when the filter has an OR (code is the query without
// its literals).
func constrainedNames(query, code string) map[string]string {
	names := map[string]string{}
	if sqlOr.MatchString(code) {
		return names
	}
	for _, m := range sqlNameFilter.FindAllStringSubmatch(query, -1) {
		col, pat := m[1]+m[4], m[3]+m[5]
		if m[2] != "" || pat == "" || strings.ContainsAny(pat[:1], "%_") {
			continue
		}
		names[strings.ToLower(col)] = strings.ReplaceAll(pat, "%", "x")
	}
	return names
}

// argColumn: the column a format() argument reads (quote_ident(t.relname) → relname).
func argColumn(arg string) string {
	arg = strings.TrimSpace(arg)
	for strings.HasSuffix(arg, ")") {
		_, inner, ok := strings.Cut(arg, "(")
		if !ok {
			break
		}
		arg = strings.TrimSpace(strings.TrimSuffix(inner, ")"))
	}
	if i := strings.LastIndex(arg, "."); i >= 0 {
		arg = arg[i+1:]
	}
	return strings.ToLower(strings.Trim(arg, `"`))
}

// splitTopLevel splits s at the commas outside parentheses.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// loadTable: a table an import loads into and empties before every load
// (staging_csv_rows, stg_orders, import_batch, landing_events): its rows are
// a copy of a file or feed on its way into the real tables.
var loadTable = regexp.MustCompile(`^(?:staging|stg|import|imports|load|landing)_\w+$`)

// loadTables: TRUNCATE [TABLE] [ONLY] t1, t2 … naming only load tables, and
// no CASCADE (which empties the tables that refer to them too).
func loadTables(rest []string) bool {
	names := 0
	for i, t := range rest {
		switch {
		case t == "TABLE" || t == "ONLY" || t == "," || t == "RESTART" || t == "CONTINUE" || t == "IDENTITY" || t == "RESTRICT":
		case t == "." && i+1 < len(rest):
		case isWord(t) && i+1 < len(rest) && rest[i+1] == ".": // a schema name
		case isWord(t) && !keptCopy.MatchString(strings.ToLower(t)) && loadTable.MatchString(strings.ToLower(t)):
			names++
		default:
			return false
		}
	}
	return names > 0
}
