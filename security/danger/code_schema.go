package danger

import (
	"regexp"
	"strings"
)

// Database effects shared by the code consoles (Python, JavaScript, Ruby):
// schema builders and migration helpers that drop tables and columns
// (knex, Sequelize, Alembic, ActiveRecord), raw-SQL escape hatches of ORMs
// (Prisma's $executeRaw…), and bulk ORM calls with an empty filter
// (deleteMany(), updateMany({}, …)).

var (
	schemaDrop = regexp.MustCompile(`\b(?:dropTable|dropTableIfExists|dropColumns?|dropSchema|dropAllTables|dropAllSchemas|` +
		`drop_table|drop_column|remove_columns?|drop_schema|removeColumn)\s*[( ]\s*(\x01\d+\x02|:\w+)?`)
	// Sequelize's sync({ force: true }) drops and recreates every table.
	schemaReset = regexp.MustCompile(`\.\s*sync\s*\(\s*\{[^}]*\bforce\s*:\s*true`)
	ormRawSQL   = regexp.MustCompile(`\$(?:executeRaw|executeRawUnsafe|queryRaw|queryRawUnsafe)\s*(?:\(\s*|` + "`" + `)`)
	// deleteMany() / deleteMany({}) / updateMany({}, …) / updateMany({ data })
	// with no where: every row or document.
	// knex('users').del() / .truncate() straight on the table: every row.
	ormEmptyMany = regexp.MustCompile(`\.\s*(?:deleteMany\s*\(\s*\)|updateMany\s*\(\s*(?:\{\s*\}|\{\s*data\s*:))|` +
		`\b(?:knex|db|trx)\s*\(\s*\x01\d+\x02\s*\)\s*\.\s*(?:del|delete|truncate)\s*\(\s*\)`)
	mongoEmpty = regexp.MustCompile(`\.\s*deleteMany\s*\(\s*\{\s*\}\s*\)`)
)

// checkSchemaCode flags schema drops, raw SQL and empty-filter bulk calls in code.
func checkSchemaCode(code string, strs []string, depth int) Verdict {
	for _, ix := range schemaDrop.FindAllStringSubmatchIndex(code, -1) {
		if definedAt(code, ix[0]) {
			continue
		}
		m := []string{"", ""}
		if ix[2] >= 0 {
			m[1] = code[ix[2]:ix[3]]
		}
		name := strings.TrimPrefix(m[1], ":")
		if strings.HasPrefix(name, "\x01") {
			name = litValue(name, strs)
		}
		if name == "" || !scratchTable(name) {
			return hit("sql-drop")
		}
	}
	if schemaReset.MatchString(code) {
		return hit("sql-drop")
	}
	for _, loc := range ormRawSQL.FindAllStringIndex(code, -1) {
		rest := code[loc[1]:]
		if strings.HasSuffix(code[:loc[1]], "`") {
			rest = code[loc[1]-1:]
		}
		if q, ok := pyStringArg(rest, strs); ok {
			if v := classifySQL(strings.TrimPrefix(q, "`"), depth+1); v.Dangerous {
				return via(v, "an ORM's raw SQL")
			}
		}
	}
	if mongoEmpty.MatchString(code) { // MongoDB and Mongoose: every document
		return hit("mongo-drop")
	}
	return hitIf(ormEmptyMany.MatchString(code), "orm-delete-all")
}
