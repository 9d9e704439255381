package danger

import (
	"regexp"
	"strings"
)

// Round 7 Python rewrites, applied before the other checks:
//   - map(os.remove, files) and friends pass a delete function as a value;
//     it is judged as the comprehension [os.remove(x) for x in files].
//   - a variable named for a temporary directory (tmpdir, tmp_path,
//     temp_dir) is one, as tempfile.mkdtemp() is.
//   - in a command string, {os.getcwd()}, {Path.cwd()} and their parents
//     and {Path.home()} are the directories they name (f-strings).

var (
	pyMapDelete      = regexp.MustCompile(`\b(?:\w+\s*\.\s*)?map\s*\(\s*((?:os\s*\.\s*(?:remove|unlink|rmdir|removedirs)|shutil\s*\.\s*rmtree|Path\s*\.\s*(?:unlink|rmdir)|rmtree))\s*,`)
	pyTempVar        = regexp.MustCompile(`(?i)\b(?:tmp|temp)_?(?:dir|path|d|folder|root|_path)?\b`)
	pyCwdParentField = regexp.MustCompile(`^\{\s*(?:os\s*\.\s*path\s*\.\s*dirname\s*\(\s*os\s*\.\s*getcwd\s*\(\s*\)\s*\)|Path\s*\.\s*cwd\s*\(\s*\)\s*\.\s*parent)\s*\}?$`)
	pyCwdField       = regexp.MustCompile(`^\{\s*(?:os\s*\.\s*getcwd\s*\(\s*\)|Path\s*\.\s*cwd\s*\(\s*\))\s*\}?$`)
)

func (n *pyNorm) rewriteR7(code string) string {
	for {
		loc := pyMapDelete.FindStringSubmatchIndex(code)
		if loc == nil {
			break
		}
		fn := code[loc[2]:loc[3]]
		end := closingParen(code, loc[1])
		if end < 0 {
			break
		}
		iter := code[loc[1]:end]
		call := fn + "(_x)"
		if strings.HasPrefix(fn, "Path") { // map(Path.unlink, paths): each path's own unlink()
			call = "_x." + strings.TrimSpace(strings.SplitN(fn, ".", 2)[1]) + "()"
		}
		code = code[:loc[0]] + "[" + call + " for _x in " + strings.TrimSpace(iter) + "]" + code[end+1:]
	}
	var b strings.Builder
	last := 0
	for _, m := range pyTempVar.FindAllStringIndex(code, -1) {
		before := strings.TrimRight(code[:m[0]], " \t")
		after := strings.TrimLeft(code[m[1]:], " \t")
		if strings.HasSuffix(before, ".") || strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "==") ||
			strings.HasPrefix(after, ".") && !strings.HasPrefix(after, ".glob") && !strings.HasPrefix(after, ".iterdir") && !strings.HasPrefix(after, ".rglob") ||
			strings.HasSuffix(before, "def") || strings.HasSuffix(before, "for") || strings.HasSuffix(before, "as") || strings.HasSuffix(before, "import") {
			continue
		}
		b.WriteString(code[last:m[0]])
		b.WriteString(n.lit("/tmp/tmpdir"))
		last = m[1]
	}
	b.WriteString(code[last:])
	return b.String()
}

// closingParen: the index of the ")" closing a call whose arguments start
// at i, or -1.
func closingParen(s string, i int) int {
	depth := 1
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if s[j] != ')' {
					return -1
				}
				return j
			}
		}
	}
	return -1
}

// pyFieldDir: the directory an f-string field names ({os.getcwd()},
// {Path.cwd().parent}); field is the text from "{" up to "}".
func pyFieldDir(field string) (string, bool) {
	switch {
	case pyCwdParentField.MatchString(field):
		return "..", true
	case pyCwdField.MatchString(field):
		return ".", true
	}
	return "", false
}

// pyInMemoryDB: the line's only database is an in-memory SQLite one, which
// nothing outlives.
var (
	pyConnect  = regexp.MustCompile(`\b(?:connect|create_engine|create_async_engine)\s*\(\s*(?:database\s*=\s*)?\x01(\d+)\x02`)
	pyConnAny  = regexp.MustCompile(`\b(?:connect|create_engine|create_async_engine)\s*\(`)
	inMemoryDB = regexp.MustCompile(`^(?::memory:|sqlite(?:\+\w+)?:///?(?::memory:)?|file::memory:.*)$`)
)

func pyInMemoryDB(code string, strs []string) bool {
	ms := pyConnect.FindAllStringSubmatch(code, -1)
	if len(ms) == 0 || len(ms) != len(pyConnAny.FindAllString(code, -1)) {
		return pyTestDBOnly(code, strs)
	}
	for _, m := range ms {
		if l := pyLiteral(m[1], strs); !inMemoryDB.MatchString(l) && !testDatabase(connDatabase(l)) && !testDBFile(connDatabase(l)) {
			return pyTestDBOnly(code, strs)
		}
	}
	return true
}

// pyDBKwarg: a connection's database given by keyword (psycopg2.connect(host=h,
// dbname='app_test'), pymysql.connect(database='shop_test')).
var pyDBKwarg = regexp.MustCompile(`\b(?:dbname|database|db)\s*=\s*\x01(\d+)\x02`)

// pyTestDBOnly: every connection the line opens is to a test suite's database,
// named by keyword inside the connect call.
func pyTestDBOnly(code string, strs []string) bool {
	locs := pyConnAny.FindAllStringIndex(code, -1)
	for _, loc := range locs {
		args, _, _ := strings.Cut(code[loc[1]:], ")")
		m := pyDBKwarg.FindStringSubmatch(args)
		if m == nil || !testDatabase(pyLiteral(m[1], strs)) {
			return false
		}
	}
	return len(locs) > 0
}
