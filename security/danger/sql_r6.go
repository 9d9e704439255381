package danger

import (
	"path"
	"regexp"
	"strings"
)

// SQL that exposes or hides: the server reading a key, credential or
// password file from its own filesystem into a query result (pg_read_file,
// LOAD_FILE, COPY FROM a file, LOAD DATA INFILE), and settings that stop
// the server recording what is done (log_statement none,
// sql_log_bin 0, pgaudit.log none, a server audit turned off).

var (
	sqlFileRead = regexp.MustCompile(`(?i)\b(?:pg_read_file|pg_read_binary_file|load_file|lo_import|pg_stat_file)\s*\(\s*'([^']*)'` +
		`|\bCOPY\s+[\w."]+(?:\s*\([^)]*\))?\s+FROM\s+'([^']*)'` +
		`|\bLOAD\s+DATA\s+(?:LOW_PRIORITY\s+|CONCURRENT\s+)?(?:LOCAL\s+)?INFILE\s+'([^']*)'` +
		`|\bLOAD\s+XML\s+(?:LOCAL\s+)?INFILE\s+'([^']*)'`)
	// sqlAuditOff: a logging or audit setting turned off, set to record
	// nothing, or a server audit stopped or dropped.
	sqlAuditOff = regexp.MustCompile(`(?i)\bSET\s+(?:GLOBAL\s+|SESSION\s+|PERSIST\s+|@@(?:global\.|session\.)?)?` +
		`(?:log_statement|pgaudit\.log|pgaudit\.log_level|log_destination|sql_log_bin|audit_log_policy|audit_log_disable|log_output|server_audit_logging|logging_collector|log_connections|log_disconnections)` +
		`\s*(?:=|\bTO\b)\s*'?(?:none|off|0|false|'')'?` +
		`|\bALTER\s+SERVER\s+AUDIT\b[^;]*\bSTATE\s*=\s*OFF|\bDROP\s+(?:SERVER|DATABASE)\s+AUDIT\b|\bUNINSTALL\s+PLUGIN\s+(?:audit_log|server_audit)\b|\bDROP\s+EXTENSION\s+(?:IF\s+EXISTS\s+)?pgaudit\b`)
)

// checkSQLExposeAudit: a secret file read into the database, or auditing
// switched off.
func checkSQLExposeAudit(code string) Verdict {
	for _, m := range sqlFileRead.FindAllStringSubmatch(code, -1) {
		for _, p := range m[1:] {
			if p != "" && (secretPath(p) || sqlSystemSecret.MatchString(p)) {
				return hit("sql-read-secret")
			}
		}
	}
	if sqlTransportOff.MatchString(code) {
		return hit("sql-transport-off")
	}
	if m := sqlAuditOff.FindString(code); m != "" {
		// log_destination '' and sql_log_bin 0 are off
		if !strings.Contains(strings.ToLower(m), "log_destination") || strings.HasSuffix(m, "''") {
			return hit("sql-audit-off")
		}
	}
	return Verdict{}
}

// sqlTransportOff: the server stops requiring (or offering) encrypted
// connections: PostgreSQL's ssl, MySQL's require_secure_transport; or
// stores new passwords as MD5 again (password_encryption), which a stolen
// hash replays.
var sqlTransportOff = regexp.MustCompile(`(?i)\b(?:ALTER\s+SYSTEM\s+SET|SET\s+(?:GLOBAL|PERSIST(?:_ONLY)?)|SET\s+@@(?:global|persist)\s*\.)\s*` +
	`(?:(?:ssl|require_secure_transport)\s*(?:=|\bTO\b)\s*['"]?(?:off|false|0|no)\b|password_encryption\s*(?:=|\bTO\b)\s*['"]?(?:md5|off|plain)\b)`)

// sqlSystemSecret: system files that hold secrets or identify the host's
// keys, beyond what secretPath knows.
var sqlSystemSecret = regexp.MustCompile(`^/(?:etc/(?:shadow|gshadow|sudoers|ssh/ssh_host_|ssl/private/|master\.passwd|mysql/debian\.cnf)|proc/(?:self|\d+)/environ|root/)|/\.my\.cnf$`)

// sqlOutputMeta: client commands that send query output to a file,
// replacing it (sqlite3 .output/.once, psql \o, mysql tee and \T, which append).
var sqlOutputMeta = regexp.MustCompile(`(?m)^\s*(?:\.(?:output|once|save)|\\o|\\out|\\w|\\write|tee|\\T)\s+('[^']*'|"[^"]*"|[^\s|][^\s]*)\s*$`)

// sqlFileWrite: statements and commands that write a file on their own:
// sqlite3 .backup [DB] FILE and VACUUM INTO 'file' (a copy of the database
// over whatever the file held), PostgreSQL's server-side COPY … TO 'file',
// MySQL's INTO OUTFILE/DUMPFILE.
var sqlFileWrite = regexp.MustCompile(`(?im)^\s*\.backup\s+(?:\w+\s+)?('[^']*'|"[^"]*"|\S+)\s*$|\bVACUUM\b(?:\s+\w+)?\s+INTO\s+('[^']*')|` +
	`\bCOPY\b[^;]*?\bTO\s+('[^']*')|\bINTO\s+(?:OUTFILE|DUMPFILE)\s+('[^']*')`)

// checkSQLOutputFile judges an output file as the shell's > onto it.
func checkSQLOutputFile(input string) Verdict {
	for _, m := range sqlFileWrite.FindAllStringSubmatch(input, -1) {
		how := byWrite
		if m[1]+m[2] != "" {
			how = byCopy // .backup and VACUUM INTO copy the database, as cp would
		}
		if v := overwriteVerdict(strings.Trim(m[1]+m[2]+m[3]+m[4], `'"`), how); v.Dangerous {
			return v // (what the file is for, such as authorized_keys or a system file, is judged with the export)
		}
	}
	for _, m := range sqlOutputMeta.FindAllStringSubmatch(input, -1) {
		p := strings.Trim(m[1], `'"`)
		if v := checkWriteTarget(p); v.Dangerous {
			return v
		}
		// Query output is text: sent to a file named as a database
		// (.output app.db, \o orders.sqlite3) it replaces the database
		// with the text, whatever is run next.
		if !strings.HasPrefix(strings.TrimSpace(m[0]), ".save") && dbFiles.MatchString(path.Base(p)) {
			return hit("overwrite-protected")
		}
		if v := overwriteVerdict(p, byWrite); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}
