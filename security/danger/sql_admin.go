package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Server administration through SQL: statements that turn off crash safety,
// throw away the server's recovery history, run a command string against
// every table, or MERGE on a condition that matches every row.

var (
	// sqlCrashSafety: settings whose "off" lets a crash corrupt committed
	// data (not merely lose the last commits, as synchronous_commit does),
	// and settings that discard damaged pages instead of failing.
	sqlCrashSafety = regexp.MustCompile(`(?i)\b(?:ALTER\s+SYSTEM\s+SET|SET\s+(?:GLOBAL|PERSIST(?:_ONLY)?)|SET\s+@@(?:GLOBAL|PERSIST)\s*\.)\s*` +
		`(fsync|full_page_writes|innodb_doublewrite|zero_damaged_pages|ignore_system_indexes|innodb_force_recovery)\s*(?:=|\bTO\b)\s*['"]?(\w+)`)
	// sqlRepairLoss: repairs that succeed by deleting what they cannot fix.
	sqlRepairLoss = regexp.MustCompile(`(?i)\bDBCC\s+CHECK(?:DB|TABLE|ALLOC)\b[^;]*\bREPAIR_ALLOW_DATA_LOSS\b`)
	// sqlCatalogWrite: DML straight into PostgreSQL's system catalogs.
	sqlCatalogWrite = regexp.MustCompile(`(?i)\b(?:UPDATE|DELETE\s+FROM|INSERT\s+INTO)\s+(?:pg_catalog\s*\.\s*)?pg_(?:authid|database|class|attribute|proc|namespace|type|index|constraint|depend|tablespace|auth_members|largeobject)\b`)
	// sqlHistoryPurge: the binary logs, WAL retention and recycle bin that
	// replicas, point-in-time recovery and FLASHBACK … TO BEFORE DROP need.
	// RESET REPLICA ALL (SLAVE ALL) forgets where the replica was and which source it follows.
	sqlHistoryPurge = regexp.MustCompile(`(?i)\bRESET\s+(?:MASTER|BINARY\s+LOGS|(?:REPLICA|SLAVE)\s+ALL)\b|\bPURGE\s+(?:BINARY|MASTER)\s+LOGS\s+BEFORE\s+(?:NOW|CURRENT_TIMESTAMP|SYSDATE)\b(?:\s*\(\s*\))?\s*(?:;|$)|` +
		`\bPURGE\s+DBA_RECYCLEBIN\b|\bpg_drop_replication_slot\s*\(`)
	// sqlStringRun: statements run from a string: SQL Server's procedures that
	// run one once per table or database ("?" standing for each name),
	// sp_executesql and EXEC('…') (sql_more.go reads EXECUTE '…').
	sqlStringRun = regexp.MustCompile(`(?i)\bsp_MSforEach(?:table|db|worker)\b|\bsp_executesql\b|\bEXEC(?:UTE)?\s*\(\s*N?'`)
	// sqlVarText: a string put in a variable (DECLARE @s … = N'…', SET @q = '…')
	// and sqlVarRun: the variable run as a statement.
	sqlVarText = regexp.MustCompile(`(?i)(@\w+)(?:\s+\w+(?:\s*\(\s*\w+\s*\))?)?\s*(?::=|=)\s*N?'((?:[^']|'')*)'`)
	sqlVarRun  = regexp.MustCompile(`(?i)\b(?:sp_executesql|EXEC(?:UTE)?(?:\s+IMMEDIATE)?|PREPARE\s+\w+\s+FROM)\s*\(?\s*(@\w+)`)
	sqlGuarded = regexp.MustCompile(`(?is)^\s*IF\b.*?\b(DROP|DELETE|TRUNCATE|UPDATE|ALTER|EXEC)\b`)
	sqlStrLit  = regexp.MustCompile(`N?'((?:[^']|'')*)'|"([^"]*)"`)
	// sqlKickAll: ALTER DATABASE … WITH ROLLBACK IMMEDIATE ends every other
	// session's transaction (to take the database single-user or offline).
	sqlKickAll = regexp.MustCompile(`(?is)\bALTER\s+DATABASE\b[^;]*\bWITH\s+ROLLBACK\s+(?:IMMEDIATE|AFTER\b)`)
	// sqlUnlinkAll: every large object unlinked, no filter.
	sqlUnlinkAll = regexp.MustCompile(`(?i)\blo_unlink\s*\(\s*\w+\s*\)\s+FROM\s+pg_largeobject(?:_metadata)?\s*(?:;|$)`)
)

// crashSafetyOff: the value turns the protection off (or, for
// zero_damaged_pages and the recovery switches, on).
func crashSafetyOff(name, val string) bool {
	name, val = strings.ToLower(name), strings.ToLower(val)
	switch name {
	case "zero_damaged_pages", "ignore_system_indexes":
		return val == "on" || val == "true" || val == "1" || val == "yes"
	case "innodb_force_recovery":
		return val != "0"
	}
	return val == "off" || val == "false" || val == "0" || val == "no"
}

// checkSQLAdmin judges the raw statement text (string literals intact).
func checkSQLAdmin(code string, depth int) Verdict {
	for _, m := range sqlCrashSafety.FindAllStringSubmatch(code, -1) {
		if crashSafetyOff(m[1], m[2]) {
			return hit("sql-crash-safety-off")
		}
	}
	if sqlRepairLoss.MatchString(code) || sqlCatalogWrite.MatchString(code) {
		return hit("sql-crash-safety-off")
	}
	if sqlHistoryPurge.MatchString(code) {
		return hit("sql-purge-history")
	}
	if sqlKickAll.MatchString(code) {
		return hit("sql-terminate-backends")
	}
	if sqlUnlinkAll.MatchString(code) {
		return hit("sql-delete-no-where")
	}
	if depth <= shell.MaxDepth {
		for _, r := range sqlVarRun.FindAllStringSubmatch(code, -1) {
			for _, m := range sqlVarText.FindAllStringSubmatch(code, -1) {
				if strings.EqualFold(m[1], r[1]) {
					if v := classifySQL(strings.ReplaceAll(m[2], "''", "'"), depth+1); v.Dangerous {
						return via(v, "a statement run from a variable")
					}
				}
			}
		}
	}
	for _, loc := range sqlStringRun.FindAllStringIndex(code, -1) {
		if depth > shell.MaxDepth {
			break
		}
		rest := code[loc[0]:]
		prev := 0
		for _, ix := range sqlStrLit.FindAllStringSubmatchIndex(rest, -1) {
			if strings.Contains(rest[prev:ix[0]], ";") {
				break // the literals of the next statement
			}
			prev = ix[1]
			m := []string{"", "", ""}
			for k := 1; k <= 2; k++ {
				if ix[2*k] >= 0 {
					m[k] = rest[ix[2*k]:ix[2*k+1]]
				}
			}
			s := m[1] + m[2]
			s = strings.ReplaceAll(s, "''", "'")
			s = strings.NewReplacer("[?]", "each_table", "?", "each_table").Replace(s)
			// IF … DROP DATABASE [?]: the statement after a guard.
			if ix := sqlGuarded.FindStringSubmatchIndex(s); ix != nil {
				s = s[ix[2]:]
			}
			if v := classifySQL(s, depth+1); v.Dangerous {
				return via(v, "a statement run from a string")
			}
		}
	}
	return Verdict{}
}

// mergeEveryRow: MERGE … ON <constant> WHEN MATCHED THEN DELETE or UPDATE
// matches every target row with the source, so it deletes or rewrites them
// all.
func mergeEveryRow(verb string, rest []string) string {
	if verb != "MERGE" {
		return ""
	}
	on := indexDepth0(rest, "ON")
	if on < 0 {
		return ""
	}
	cond := rest[on+1:]
	if w := indexDepth0(cond, "WHEN"); w >= 0 {
		cond = cond[:w]
	}
	if !tautology(cond) && !constantCondition(cond) {
		return ""
	}
	for i := on; i+3 < len(rest); i++ {
		if rest[i] == "WHEN" && rest[i+1] == "MATCHED" {
			j := indexDepth0(rest[i:], "THEN")
			if j < 0 || i+j+1 >= len(rest) {
				continue
			}
			// WHEN MATCHED AND <cond> THEN … filters again.
			if j > 2 {
				continue
			}
			switch rest[i+j+1] {
			case "DELETE":
				return "sql-delete-no-where"
			case "UPDATE":
				return "sql-update-no-where"
			}
		}
	}
	return ""
}

var restoreScratch = shell.Set("postgres", "template1")

// checkPgRestore: pg_restore --clean (or --create) into a database drops
// its objects (or the database) before restoring; without -d it only
// prints a script.
func checkPgRestore(c shell.Command, _ int) Verdict {
	var clean, create, list bool
	db := ""
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i].S
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case a == "--help" || a == "--version" || a == "-l" || a == "--list" || a == "-?":
			list = true
		case a == "--clean":
			clean = true
		case a == "--create":
			create = true
		case name == "--dbname":
			if hasVal {
				db = val
			} else if i+1 < len(args) {
				i++
				db = args[i].S
			}
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				ch := a[j]
				if ch == 'c' {
					clean = true
				} else if ch == 'C' {
					create = true
				} else if ch == 'l' {
					list = true
				} else if strings.IndexByte("dfhpUnNtTIPLjeSOxF", ch) >= 0 {
					v := a[j+1:]
					if v == "" && i+1 < len(args) {
						i++
						v = args[i].S
					}
					if ch == 'd' {
						db = v
					}
					break
				}
			}
		}
	}
	switch {
	case list || db == "" || !(clean || create):
		return Verdict{}
	case !clean && restoreScratch[db]:
		return Verdict{} // --create alone: CREATE DATABASE from the maintenance db
	}
	return hitIf(!temporaryName(db) && !devDatabase(db), "db-restore-clean")
}
