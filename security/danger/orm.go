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
