package danger

import (
	"regexp"
	"strings"
)

// Database access from code: ORM calls that delete or update every row of a
// model, and SQL or MongoDB commands passed as strings to a driver from the
// JavaScript and Ruby consoles (Python's are in python.go).

var (
	// ormAll: Django Model.objects.all().delete() / .objects.update(…),
	// SQLAlchemy session.query(M).delete() / M.query.delete(), ActiveRecord
	// M.delete_all / destroy_all / update_all, Sequelize destroy({where: {}})
	// or truncate: true.
	ormAll = regexp.MustCompile(`\.\s*objects\s*(?:\.\s*all\s*\(\s*\))?\s*\.\s*(?:delete|update)\s*\(|` +
		`\.\s*query\s*(?:\(\s*[\w.]+\s*\))?\s*\.\s*(?:delete|update)\s*\(|` +
		`\b[A-Z]\w*\s*(?:\.\s*all)?\s*\.\s*(?:delete_all|destroy_all|update_all)\b|` +
		`\.\s*destroy\s*\(\s*\{\s*(?:where\s*:\s*\{\s*\}|truncate\s*:\s*true)`)
	// driverSQL: a string given to a driver's query method.
	driverSQL = regexp.MustCompile(`\.\s*(?:query|execute|exec|raw|run|prepare|unsafe)\s*\(\s*`)
)

var (
	// querySet: an expression that stands for every row of a model: Django's
	// Model.objects (.all()), SQLAlchemy's session.query(Model) and
	// Model.query, ActiveRecord's Model.all.
	querySet = regexp.MustCompile(`^(?:[A-Z]\w*\s*\.\s*objects(?:\s*\.\s*all\s*\(\s*\))?|[\w.]+\s*\.\s*query\s*\(\s*[\w.]+\s*\)|` +
		`[A-Z]\w*\s*\.\s*query|[A-Z][\w:]*\s*\.\s*all(?:\s*\(\s*\))?)$`)
	// querySetWrite: a name's delete or update, as ormAll's calls end.
	querySetWrite = regexp.MustCompile(`(?:^|[^\w.$])([A-Za-z_]\w*)\s*\.\s*(?:delete|update|delete_all|destroy_all|update_all)\b`)
)

// inlineQuerySets puts back, where a name's delete or update is called, the
// query set the name was last bound to before the call when that stands for
// every row (qs = Order.objects.all() … qs.delete()); a name narrowed
// since (qs = qs.filter(…)) is left alone.
func inlineQuerySets(code string) string {
	binds := boundAssign.FindAllStringSubmatchIndex(code, -1)
	uses := querySetWrite.FindAllStringSubmatchIndex(code, -1)
	for i := len(uses) - 1; i >= 0; i-- { // from the end, so the earlier offsets hold
		u, expr := uses[i], ""
		for _, b := range binds {
			if b[1] <= u[2] && code[b[2]:b[3]] == code[u[2]:u[3]] {
				expr = strings.TrimSpace(code[b[4]:b[5]])
			}
		}
		if querySet.MatchString(expr) {
			code = code[:u[2]] + expr + code[u[3]:]
		}
	}
	return code
}

// checkORM flags ORM calls that touch every row. Storage SDKs also have
// .objects.all().delete(); those are sdk-bulk-delete, checked first.
func checkORM(code string) Verdict {
	return hitIf(ormAll.MatchString(code) && !strings.Contains(code, "Bucket"), "orm-delete-all")
}

// checkDriverCalls judges SQL strings given to a driver (pool.query('DROP
// TABLE t'), connection.execute(...)) and MongoDB commands in code.
func checkDriverCalls(code string, strs []string, depth int) Verdict {
	for _, loc := range driverSQL.FindAllStringIndex(code, -1) {
		if q, ok := pyStringArg(code[loc[1]:], strs); ok && looksLikeSQL(q) {
			if v := classifySQL(q, depth+1); v.Dangerous {
				return via(v, "a database driver")
			}
		}
	}
	if v := checkORM(code); v.Dangerous {
		return v
	}
	return hitIf(mongoDrop.MatchString(code) && !mongoScratchOnly(code, strs), "mongo-drop")
}
