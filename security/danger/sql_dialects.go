package danger

import (
	"strconv"
	"strings"
)

// The SQL of the datastores that speak a dialect of it (cqlsh, ClickHouse,
// InfluxQL), where their statements differ from PostgreSQL's and MySQL's:
//
//   - ClickHouse mutations, ALTER TABLE t DELETE|UPDATE … WHERE cond, judged
//     as DELETE and UPDATE are (a condition every row meets is none);
//   - partitions dropped or detached from a scratch, staging or test table
//     or schema (ALTER TABLE scratch.buf DROP PARTITION …) are that table's;
//   - MODIFY TTL … INTERVAL of a day or less deletes the rows already stored;
//   - INSERT INTO FUNCTION url(…)/s3(…)/remote(…) sends the rows elsewhere;
//   - InfluxQL's DROP SERIES … WHERE names some series, as DELETE … WHERE;
//   - CQL's ALTER KEYSPACE … replication down to one copy;
//   - InfluxQL's ALTER RETENTION POLICY … DURATION of a day or less.

// durationUnits: InfluxQL's duration units, as sqlTokens upper-cases them.
var durationUnits = map[string]bool{"NS": true, "U": true, "MS": true, "S": true, "M": true, "H": true, "D": true, "W": true}

// tableFunctionsOut: ClickHouse table functions that write outside the server.
var tableFunctionsOut = map[string]bool{"URL": true, "S3": true, "S3CLUSTER": true, "REMOTE": true, "REMOTESECURE": true, "HDFS": true,
	"AZUREBLOBSTORAGE": true, "GCS": true, "MYSQL": true, "POSTGRESQL": true, "MONGODB": true}

// dialectRule: the rule a dialect statement breaks, and whether the
// statement was the dialect's (decided here, "" meaning ordinary).
func dialectRule(verb string, rest []string) (string, bool) {
	switch {
	case verb == "ALTER" && len(rest) > 1 && rest[0] == "TABLE":
		return clickhouseAlter(rest[1:])
	case verb == "ALTER" && len(rest) > 1 && rest[0] == "KEYSPACE":
		if i := indexDepth0(rest, "REPLICATION"); i >= 0 {
			copies := 0
			for j := i; j < len(rest); j++ {
				if n, next := numberAt(rest, j); next > j {
					copies, j = max(copies, n), next
				}
			}
			if copies == 1 {
				return "store-replication", true
			}
		}
	case verb == "INSERT" && len(rest) > 3 && rest[0] == "INTO" && rest[1] == "FUNCTION" && tableFunctionsOut[rest[2]]:
		return "sql-export", true
	case verb == "ALTER" && len(rest) > 2 && rest[0] == "RETENTION" && rest[1] == "POLICY":
		if i := indexDepth0(rest, "DURATION"); i >= 0 {
			d := ""
			for _, t := range rest[i+1:] {
				if _, err := strconv.Atoi(t); err != nil && !durationUnits[t] {
					break
				}
				d += strings.ToLower(t)
			}
			if shortDuration(d) {
				return "data-expiry", true
			}
		}
		return "", true
	case verb == "DROP" && len(rest) > 0 && rest[0] == "SERIES":
		if indexDepth0(rest, "WHERE") >= 0 && filtered(rest) {
			return "", true
		}
		return "sql-drop", true
	}
	return "", false
}

// clickhouseAlter: ALTER TABLE's rest after TABLE.
func clickhouseAlter(rest []string) (string, bool) {
	name, after := qualifiedName(rest)
	switch {
	case len(after) > 0 && (after[0] == "DROP" || after[0] == "DETACH") && len(after) > 1 && after[1] == "PARTITION":
		if disposableQualified(name) {
			return "", true
		}
	case len(after) > 0 && after[0] == "DELETE" && indexDepth0(after, "WHERE") >= 0:
		if !filtered(after) && !disposableQualified(name) {
			return "sql-delete-no-where", true
		}
		return "", true
	case len(after) > 0 && after[0] == "UPDATE" && indexDepth0(after, "WHERE") >= 0:
		if !filtered(after) && !disposableQualified(name) {
			return "sql-update-no-where", true
		}
		return "", true
	case len(after) > 1 && after[0] == "MODIFY" && after[1] == "TTL":
		if shortInterval(after[2:]) && !expiringByDesign(strings.Join(name, ".")) {
			return "data-expiry", true
		}
		return "", true
	}
	return "", false
}

// qualifiedName splits db . table (or a bare table) off the tokens.
func qualifiedName(toks []string) ([]string, []string) {
	if len(toks) >= 3 && toks[1] == "." {
		return []string{toks[0], toks[2]}, toks[3:]
	}
	if len(toks) >= 1 {
		return toks[:1], toks[1:]
	}
	return nil, nil
}

// disposableQualified: a table, or the schema it sits in, named as scratch,
// temporary, staging or a test's.
func disposableQualified(parts []string) bool {
	for _, p := range parts {
		p = strings.ToLower(p)
		if scratchTable(p) || disposableStore(p) || stagingTable(p) {
			return true
		}
	}
	return false
}

// shortInterval: an INTERVAL n UNIT (or toIntervalUnit(n)) of a day or less
// in a TTL expression.
func shortInterval(toks []string) bool {
	units := map[string]int{"SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86400, "WEEK": 7 * 86400, "MONTH": 30 * 86400, "YEAR": 365 * 86400}
	for i := 0; i+2 < len(toks); i++ {
		if toks[i] == "INTERVAL" {
			n, next := numberAt(toks, i+1)
			if next < len(toks) && next > i+1 {
				if u, ok := units[strings.TrimSuffix(toks[next], "S")]; ok {
					return n*u <= 86400
				}
			}
		}
		if u, ok := units[strings.TrimPrefix(toks[i], "TOINTERVAL")]; ok && strings.HasPrefix(toks[i], "TOINTERVAL") && toks[i+1] == "(" {
			if n, next := numberAt(toks, i+2); next > i+2 {
				return n*u <= 86400
			}
		}
	}
	return false
}

// numberAt reads the decimal number sqlTokens split into one token per
// digit, from toks[i]; next is the index after it (i if there is none).
func numberAt(toks []string, i int) (n, next int) {
	for next = i; next < len(toks) && len(toks[next]) == 1 && toks[next][0] >= '0' && toks[next][0] <= '9'; next++ {
		n = n*10 + int(toks[next][0]-'0')
	}
	return n, next
}
