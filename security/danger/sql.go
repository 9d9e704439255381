package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// classifySQL judges SQL statement by statement, after removing comments and
// string literals so that keywords inside them are not seen. Client
// meta-commands that run a shell (psql/mysql \!, mysql system, sqlite3
// .shell/.system) are judged with the shell rules.
func classifySQL(input string, depth int) Verdict {
	if strings.ContainsAny(input, `\uU.`) { // \c app_test, USE shop_test, .open test.db
		if v, ok := classifySQLSession(input, depth); ok {
			return v
		}
	}
	if v := checkPsqlMeta(input, depth); v.Dangerous {
		return v
	}
	if v := checkSQLOutputFile(input); v.Dangerous {
		return v
	}
	code, shellCmds := splitMeta(input)
	for _, cmd := range shellCmds {
		if v := classify(Shell, cmd, depth+1); v.Dangerous {
			return via(v, "a client shell escape")
		}
		if escapeDeletesDB(cmd) {
			return via(hit("sql-escape-delete-db"), "a client shell escape")
		}
	}
	if v := checkEmbeddedSQL(code, depth); v.Dangerous {
		return v
	}
	if v := checkSQLText(code); v.Dangerous {
		return v
	}
	if v := checkStateBackendSQL(code); v.Dangerous {
		return v // sql_state_backend.go
	}
	if v := checkSQLExposeAudit(code); v.Dangerous {
		return v
	}
	if v := checkSQLServer(code, depth); v.Dangerous {
		return v
	}
	if v := checkSQLAdmin(code, depth); v.Dangerous {
		return v
	}
	if v := checkSQLSurface(input, depth); v.Dangerous {
		return v
	}
	// Whether a backslash escapes a quote depends on the server and its
	// settings; judging both readings means neither can hide a statement.
	for _, escapes := range []bool{false, true} {
		for _, toks := range sqlStatements(sanitizeSQL(code, escapes)) {
			if id := sqlStatementRule(toks); id != "" {
				return hit(id)
			}
		}
	}
	return Verdict{}
}

var shellEscape = regexp.MustCompile(`^(?:\\!|(?i:system)\s|\.(?i:shell|system)\s)`)

// splitMeta separates client meta-commands (lines starting with \ or .) from SQL.
func splitMeta(input string) (code string, shell []string) {
	var b strings.Builder
	for line := range strings.Lines(input) {
		t := strings.TrimSpace(line)
		if m := shellEscape.FindString(t); m != "" {
			shell = append(shell, strings.TrimSpace(t[len(m):]))
			continue
		}
		if c, ok := strings.CutPrefix(t, `\copy `); ok { // psql's client-side COPY
			b.WriteString("COPY " + c + "\n")
			continue
		}
		if strings.HasPrefix(t, `\`) || strings.HasPrefix(t, ".") {
			if _, after, ok := strings.Cut(t, `\\`); ok && strings.HasPrefix(t, `\`) { // \c db \\ SQL
				b.WriteString(after + "\n")
			}
			continue
		}
		b.WriteString(line)
	}
	return b.String(), shell
}

var dollarQuote = regexp.MustCompile(`^\$[A-Za-z_]*\$`)

// sanitizeSQL drops comments, replaces string literals with an empty
// literal and quoted identifiers with x.
func sanitizeSQL(s string, backslashEscapes bool) string {
	mysqlHash := backslashEscapes // the MySQL reading: # starts a comment too
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "--") || s[i] == '#' && mysqlHash:
			i = skipTo(s, i, "\n")
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "/*!"):
			// MySQL runs the text of a /*! ... */ comment (after an optional
			// version number) as SQL; keep it.
			i += 3
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "*/"):
			i += 2
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "/*"):
			i = skipTo(s, i+2, "*/")
			b.WriteByte(' ') // DROP/**/TABLE is DROP TABLE
		case s[i] == '\'' || s[i] == '"' || s[i] == '`':
			q, start := s[i], i
			i = skipQuoted(s, i+1, q, backslashEscapes && q == '\'')
			switch name := s[start+1 : max(start+1, i-1)]; {
			case q == '\'' && name != "" && strings.Trim(name, "%") == "":
				b.WriteString(" " + anyString + " ") // LIKE '%' matches every value
			case q == '\'':
				b.WriteString("''")
			case plainIdent.MatchString(name):
				b.WriteString(name) // "tmp_import" is the table tmp_import
			default:
				b.WriteString("x")
			}
		case s[i] == '$' && dollarQuote.MatchString(s[i:]) && (i == 0 || !isIdentByte(s[i-1])):
			tag := dollarQuote.FindString(s[i:])
			i = skipTo(s, i+len(tag), tag)
			b.WriteString("''")
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// skipTo returns the index just after the next end at or after i (or len(s)).
func skipTo(s string, i int, end string) int {
	if j := strings.Index(s[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(s)
}

func skipQuoted(s string, i int, q byte, backslash bool) int {
	for i < len(s) {
		switch {
		case backslash && s[i] == '\\':
			i += 2
		case s[i] == q && i+1 < len(s) && s[i+1] == q:
			i += 2
		case s[i] == q:
			return i + 1
		default:
			i++
		}
	}
	return len(s)
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

var sqlToken = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_$]*|[^\sA-Za-z_]`)

func sqlTokens(stmt string) []string {
	toks := sqlToken.FindAllString(stmt, -1)
	for i, t := range toks {
		toks[i] = strings.ToUpper(t)
	}
	return toks
}

var keepDrops = shell.Set("CONSTRAINT", "DEFAULT", "NOT", "INDEX", "KEY", "IDENTITY", "EXPRESSION", "FOREIGN", "PRIMARY", "CHECK")

// sqlStatementRule returns the id of the rule a statement breaks, or "".
func sqlStatementRule(toks []string) string {
	if explainOnly(toks) {
		return ""
	}
	if id := nestedStatementRule(toks); id != "" {
		return id
	}
	verb, rest := mainVerb(inlineCTEs(toks))
	if id, ok := dialectRule(verb, rest); ok {
		return id
	}
	switch {
	case serverRoleGrant(verb, rest):
		return "sql-superuser"
	case verb == "ALTER" && len(rest) > 0 && rest[0] == "TABLE" && indexDepth0(rest, "TRUNCATE") >= 0:
		return "sql-truncate"
	case (verb == "DROP" || verb == "TRUNCATE") && scratchObjects(rest), verb == "DROP" && codeObject(rest), verb == "TRUNCATE" && loadTables(rest),
		verb == "ALTER" && len(rest) > 0 && membershipOnly[rest[0]]:
		return ""
	case verb == "DROP" && len(rest) > 0 && isWord(rest[0]):
		return "sql-drop"
	case verb == "ALTER":
		if i := indexDepth0(rest, "DROP"); i >= 0 && i+1 < len(rest) && !keepDrops[rest[i+1]] {
			return "sql-drop"
		}
	case verb == "TRUNCATE" && len(rest) > 0 && isWord(rest[0]):
		return "sql-truncate"
	case (everyRowSubquery(verb, rest) || joinOnlyWrite(verb, rest)) && verb == "DELETE":
		return "sql-delete-no-where"
	case everyRowSubquery(verb, rest) || joinOnlyWrite(verb, rest):
		return "sql-update-no-where"
	case verb == "DELETE" && indexDepth0(rest, "FROM") >= 0 && !filtered(rest) && !scratchObjects(rest[indexDepth0(rest, "FROM")+1:]):
		return "sql-delete-no-where"
	case verb == "UPDATE" && indexDepth0(rest, "SET") >= 0 && !filtered(rest):
		return "sql-update-no-where"
	case verb == "GRANT" && indexDepth0(rest, "ALL") >= 0:
		if i := indexDepth0(rest, "TO"); i >= 0 && slices.ContainsFunc(rest[i+1:], anyoneRole) {
			return "sql-grant-public"
		}
	}
	return sqlMoreRule(verb, rest)
}

// anyoneRole: a grantee that is everyone — PUBLIC, or the role a database's
// HTTP API (PostgREST, Supabase) serves requests without a login as (anon,
// web_anon): every table granted to it can be read by anyone with the
// project's public URL.
func anyoneRole(t string) bool {
	switch strings.ToLower(strings.Trim(t, `"`)) {
	case "public", "anon", "web_anon", "anonymous":
		return true
	}
	return false
}

// mainVerb skips EXPLAIN ANALYZE and WITH clauses to the statement's verb.
func mainVerb(toks []string) (string, []string) {
	for len(toks) > 0 && (toks[0] == "EXPLAIN" || toks[0] == "ANALYZE" || toks[0] == "VERBOSE" || toks[0] == "(") {
		toks = toks[1:]
	}
	if len(toks) == 0 {
		return "", nil
	}
	if toks[0] != "WITH" {
		return toks[0], toks[1:]
	}
	for _, v := range []string{"DELETE", "UPDATE", "INSERT", "SELECT", "MERGE"} {
		if i := indexDepth0(toks[1:], v); i >= 0 {
			return v, toks[i+2:]
		}
	}
	return "WITH", toks[1:]
}

// indexDepth0 finds tok outside parentheses.
func indexDepth0(toks []string, tok string) int {
	depth := 0
	for i, t := range toks {
		switch {
		case t == "(":
			depth++
		case t == ")":
			depth--
		case depth == 0 && t == tok:
			return i
		}
	}
	return -1
}

func isWord(t string) bool { return t != "" && isIdentByte(t[0]) }

var sqlVerbs = shell.Set("select", "insert", "update", "delete", "drop", "truncate", "alter", "grant", "revoke",
	"create", "with", "merge", "replace", "explain", "exec", "execute", "declare", "prepare", "reset", "purge", "dbcc")

// looksLikeSQL decides whether SQL rules apply to input of an unknown program:
// its first word is an SQL verb, or a line is a client meta-command.
func looksLikeSQL(input string) bool {
	code, shell := splitMeta(input)
	if len(shell) > 0 {
		return true
	}
	fields := strings.Fields(sanitizeSQL(code, false))
	if len(fields) == 0 {
		return false
	}
	first := strings.TrimRight(strings.ToLower(fields[0]), ";(")
	return sqlVerbs[first]
}
