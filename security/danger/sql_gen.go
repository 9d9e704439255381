package danger

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// SQL by effect, across dialects: statements nested in parentheses (a
// data-modifying CTE), WHERE clauses that do not depend on the row, server
// roles of other vendors, commands and native code run inside the server,
// and files the server or client writes where they become code or config.

// nestedStatementRule judges statements in parentheses: WITH gone AS
// (DELETE FROM t RETURNING *) SELECT ... deletes every row of t.
func nestedStatementRule(toks []string) string {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] != "(" || !sqlWriteVerbs[toks[i+1]] {
			continue
		}
		depth, end := 0, len(toks)
		for j := i; j < len(toks); j++ {
			if toks[j] == "(" {
				depth++
			} else if toks[j] == ")" {
				if depth--; depth == 0 {
					end = j
					break
				}
			}
		}
		if id := sqlStatementRule(toks[i+1 : end]); id != "" {
			return id
		}
	}
	return ""
}

var sqlWriteVerbs = shell.Set("DELETE", "UPDATE", "TRUNCATE", "DROP")

// constantCondition: a WHERE condition that names no column (1 <> 2, NOT
// 1=0, TRUE AND TRUE, 'a' = 'a') holds for every row or for none; only the
// first is written on purpose. Parameters ($1, ?, :id) are not constants.
func constantCondition(t []string) bool {
	if len(t) == 0 {
		return false
	}
	joined := strings.Join(t, "")
	if strings.ContainsAny(joined, "$?:@") || joined == "FALSE" || joined == "0" || joined == "1=0" || joined == "0=1" {
		return false
	}
	for _, tok := range t {
		if isWord(tok) && !(tok[0] >= '0' && tok[0] <= '9') && !sqlConstWords[tok] {
			return false
		}
	}
	return true
}

var sqlConstWords = shell.Set("TRUE", "NOT", "AND", "OR", "IS", "NULL", "IN", "BETWEEN", "LIKE")

// everyConjunct: every top-level AND term is a tautology (1=1 AND 2=2).
func everyConjunct(t []string) bool {
	if indexDepth0(t, "AND") < 0 {
		return false
	}
	for len(t) > 0 {
		i := indexDepth0(t, "AND")
		if i < 0 {
			return tautology(t)
		}
		if !tautology(t[:i]) {
			return false
		}
		t = t[i+1:]
	}
	return true
}

// serverRoleGrant: SQL Server's and Oracle's ways of making a superuser:
// ALTER SERVER ROLE sysadmin ADD MEMBER x, GRANT CONTROL SERVER, and GRANT
// ALL PRIVILEGES without ON (every system privilege).
func serverRoleGrant(verb string, rest []string) bool {
	switch verb {
	case "ALTER":
		if len(rest) > 1 && rest[0] == "SERVER" {
			rest = rest[1:]
		}
		return len(rest) > 1 && rest[0] == "ROLE" && serverRoles[rest[1]] && indexDepth0(rest, "ADD") >= 0
	case "GRANT":
		to := indexDepth0(rest, "TO")
		if to < 0 {
			return false
		}
		head := strings.Join(rest[:to], " ")
		return strings.Contains(head, "CONTROL SERVER") || rest[0] == "ALL" && indexDepth0(rest[:to], "ON") < 0
	}
	return false
}

var (
	// sqlOSCommand: commands and native code run inside the server: SQL
	// Server's xp_cmdshell (and switching it on), MySQL UDFs, C functions
	// bound to a library symbol.
	sqlOSCommand = regexp.MustCompile(`(?is)\bEXEC(?:UTE)?\s+(?:master\s*\.\s*(?:dbo\s*)?\.\s*)?xp_cmdshell\b|` +
		`\bsp_configure\s+'xp_cmdshell'\s*,\s*1\b|\bsys_(?:exec|eval)\s*\(|` +
		`\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\b[^;]*\bAS\s+'[^']*\.(?:so|dll)(?:\.\d+)*'`)
	sqlAddSrvRole = regexp.MustCompile(`(?is)\bsp_add(?:srv)?rolemember\b[^;]*'(?:sysadmin|securityadmin|serveradmin|db_owner|db_securityadmin)'|` +
		`\bmysql\s*\.\s*user\b[^;]*\b(?:authentication_string|password)\s*=\s*(?:''|""|PASSWORD\s*\(\s*''\s*\))`)
	// sqlFileTarget: the file a statement makes the server or client write.
	sqlFileTarget = regexp.MustCompile(`(?is)\bINTO\s+(?:OUT|DUMP)FILE\s+'([^']*)'|\bCOPY\b[^;]*?\bTO\s+'([^']*)'|` +
		`\blo_export\s*\([^;]*,\s*'([^']*)'\s*\)|\bpg_(?:file_write|write_file)\s*\(\s*'([^']*)'|\bATTACH\s+(?:DATABASE\s+)?'([^']*)'`)
	// sqlUntrusted: function bodies in untrusted languages run as the server's OS user.
	sqlUntrusted = regexp.MustCompile(`(?i)\bLANGUAGE\s+'?(plpython\w*u|plperlu|plsh)\b`)
	// sqliteOut: sqlite3's .once/.output to a pipe.
	sqliteOut = regexp.MustCompile(`^\.(?:once|output|o)\s+(?:-\w+\s+)*['"]?\|\s*(.+?)['"]?$`)
)

// serverFile reports whether a file the server writes becomes code, config
// or a login: system files, authorized_keys, web roots, libraries, scripts,
// shell startup files.
func serverFile(p string) bool {
	base := path.Base(p)
	ext := path.Ext(base)
	return isSystemFile(p) || isAuthorizedKeys(p) || strings.Contains(p, "/www/") || strings.Contains(p, "/html/") ||
		strings.Contains(p, "/cron") || startupFiles[base] ||
		shell.Set(".so", ".dll", ".php", ".jsp", ".asp", ".aspx", ".py", ".sh", ".pl", ".cgi")[ext]
}

// checkSQLServer: OS commands, native code and dangerous file writes.
func checkSQLServer(code string, depth int) Verdict {
	if sqlOSCommand.MatchString(code) {
		return hit("sql-server-command")
	}
	if sqlAddSrvRole.MatchString(code) {
		return hit("sql-superuser")
	}
	for _, m := range sqlFileTarget.FindAllStringSubmatch(code, -1) {
		for _, p := range m[1:] {
			if p != "" && serverFile(p) {
				return hit("sql-export")
			}
		}
	}
	if m := sqlUntrusted.FindStringSubmatch(code); m != nil {
		for _, b := range sqlBody.FindAllStringSubmatch(code, -1) {
			body := b[2]
			var v Verdict
			if strings.HasPrefix(strings.ToLower(m[1]), "plpython") {
				v = classifyPython(body, depth+1)
			} else {
				v = judgeCommand(body, depth, "an untrusted-language function")
			}
			if v.Dangerous {
				return via(v, "a server-side function")
			}
		}
	}
	return Verdict{}
}

// pipeTarget judges the command a client pipes query output into: by the
// shell rules, as running the output when it is a shell or interpreter, and
// as exfiltration when it sends to the network.
func pipeTarget(cmd string, depth int, how string) Verdict {
	if v := classify(Shell, cmd, depth+1); v.Dangerous {
		return via(v, how)
	}
	f := strings.Fields(cmd)
	for len(f) > 0 && (f[0] == "sudo" || f[0] == "env" || strings.Contains(f[0], "=")) {
		f = f[1:]
	}
	if len(f) == 0 {
		return Verdict{}
	}
	prog := shell.ProgName(f[0])
	switch {
	case outputRunners[prog] && (len(f) == 1 || f[1] == "-" || f[1] == "-s" || f[1] == "-i"):
		return hit("pipe-to-shell")
	case netSenders[prog]:
		return hit("sql-export")
	}
	return Verdict{}
}

// outputRunners run what they read on stdin as code.
var outputRunners = shell.Set("sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node", "php")

// codeObjects hold code, not data: dropping one loses no rows (unless
// CASCADE takes the columns and tables that depend on it along).
var codeObjects = shell.Set("FUNCTION", "PROCEDURE", "ROUTINE", "OPERATOR", "AGGREGATE", "CAST", "TRIGGER", "RULE", "STATISTICS",
	"VIEW", "MATERIALIZED", "EVENT", "EXTENSION")

func codeObject(rest []string) bool {
	return len(rest) > 0 && codeObjects[rest[0]] && indexDepth0(rest, "CASCADE") < 0
}

// membershipOnly: ALTER EXTENSION x DROP FUNCTION f and ALTER OPERATOR
// FAMILY … DROP OPERATOR only detach a member; nothing is deleted.
var membershipOnly = shell.Set("EXTENSION", "OPERATOR")

// fromPublicOnly: REVOKE … FROM PUBLIC withdraws the default grant every
// role has, the documented hardening step; named roles keep their grants.
func fromPublicOnly(rest []string) bool {
	from := indexDepth0(rest, "FROM")
	if from < 0 {
		return false
	}
	for _, t := range rest[from+1:] {
		if t != "PUBLIC" && t != ";" && t != "," && t != "CASCADE" && t != "RESTRICT" {
			return false
		}
	}
	return true
}
