package danger

// Rules and examples from round-5 shell probes: an SQL client's shell escape
// that deletes the database file it has open.

func init() { rules = append(rules, r5aRules...) }

var r5aRules = []rule{
	{"sql-escape-delete-db", catData,
		"This runs a shell from the database client to delete or empty a database file: the database it holds is gone, like DROP DATABASE.",
		sql(".shell rm -f app.db", "  .system rm app.sqlite3 app.sqlite3-wal", ".shell cd data && rm -f app.db", ".system unlink dev.sqlite3",
			"\\! rm -f orders.db3", ".open app.db\n.shell cp app.db /tmp/ && rm app.db"),
		sql(".shell ls -la", ".shell cp app.db app.db.bak", ".system rm -f app.db-journal.tmp", ".shell rm -f export.csv", ".open app.db", ".backup backup.db",
			"\\! cat dump.sql")},
}
