package danger

import (
	"path"
	"regexp"
	"strings"
)

// A session switched to a test suite's database (psql's \c app_test, mysql's
// USE shop_test; or \u shop_test, sqlite3's .open test.db) runs what follows there: emptying or
// dropping its tables is the suite's reset, as psql -d app_test -c '…' is.
// What reaches beyond that database (DROP DATABASE, roles, files, programs)
// is judged as anywhere.

var sqlSwitch = regexp.MustCompile("(?im)(?:^[ \\t]*(?:\\\\(?:c|connect|u)|\\.open(?:[ \\t]+--\\S+)*)[ \\t]+(?:-reuse-previous=\\S+[ \\t]+)?['\"`]?([^\\s'\"`;]+)['\"`]?[^\\n]*$|\\bUSE[ \\t]+`?([A-Za-z_][\\w$]*)`?[ \\t]*(?:;|$))")

// inDatabaseRules: the rules whose effect stays inside the database the
// session is connected to.
var inDatabaseRules = map[string]bool{"sql-drop": true, "sql-truncate": true, "sql-delete-no-where": true, "sql-update-no-where": true}

var sqlBeyondDatabase = regexp.MustCompile(`(?i)\b(?:DROP\s+(?:DATABASE|ROLE|USER|TABLESPACE|OWNED)|PROGRAM|INTO\s+(?:OUT|DUMP)FILE|ALTER\s+SYSTEM)\b`)

// testSessionSegments splits input at each switch of database. It reports
// false when no segment is in a test database.
func testSessionSegments(input string) (segs []string, test []bool, ok bool) {
	locs := sqlSwitch.FindAllStringSubmatchIndex(input, -1)
	if len(locs) == 0 {
		return nil, nil, false
	}
	start, inTest := 0, false
	for _, m := range locs {
		segs, test = append(segs, input[start:m[0]]), append(test, inTest)
		name := ""
		if m[2] >= 0 {
			name = input[m[2]:m[3]]
		} else {
			name = input[m[4]:m[5]]
		}
		inTest = testDatabase(connDatabase(name)) || testDBFile(name)
		ok = ok || inTest
		start = m[1]
	}
	return append(segs, input[start:]), append(test, inTest), ok
}

// classifySQLSession judges each part of a session that switches databases
// on its own, passing the in-database rules of the parts run in a test
// database.
func classifySQLSession(input string, depth int) (Verdict, bool) {
	segs, test, ok := testSessionSegments(input)
	if !ok {
		return Verdict{}, false
	}
	for i, seg := range segs {
		if strings.TrimSpace(seg) == "" {
			continue
		}
		v := classifySQL(seg, depth+1)
		if v.Dangerous && (!test[i] || !inDatabaseRules[v.Rule] || sqlBeyondDatabase.MatchString(seg)) {
			return v, true
		}
	}
	return Verdict{}, true
}

// testDBFile: an SQLite database file named for tests (test.db, e2e.sqlite3,
// tests.sqlite3, app_test.db, test_shop.sqlite), as a server's database
// named shop_test is a test suite's.
func testDBFile(p string) bool {
	base := strings.ToLower(path.Base(p))
	ext := path.Ext(base)
	switch ext {
	case ".db", ".sqlite", ".sqlite3", ".db3":
	default:
		return false
	}
	stem := strings.TrimSuffix(base, ext)
	return stem == "test" || stem == "tests" || stem == "testing" || stem == "e2e" || testDatabase(stem)
}
