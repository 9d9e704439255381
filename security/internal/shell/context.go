package shell

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Context says which language an input is written in, so Classify knows which
// rule sets apply. It comes from the session's foreground program.
type Context int

const (
	Unknown Context = iota // unknown program: every rule set applies
	Shell
	SQL    // psql, mysql, mariadb, sqlite3
	Python // python, python3, python3.12, ipython
	// REPLs whose shell escapes (and a few calls) are judged by the shell rules.
	Node     // node, deno, bun
	Ruby     // irb, pry
	Debugger // gdb, lldb
	Editor   // vim, vi, nvim, view
	Pager    // less, more, most, man
	// The datastores' own shells, whose commands are neither shell nor SQL.
	Redis // redis-cli, valkey-cli, keydb-cli: one Redis command per line
	Mongo // mongosh, mongo: JavaScript with the shell's db, use and show
)

func (c Context) String() string {
	switch c {
	case Shell:
		return "shell"
	case SQL:
		return "sql"
	case Python:
		return "python"
	case Node:
		return "node"
	case Ruby:
		return "ruby"
	case Debugger:
		return "debugger"
	case Editor:
		return "editor"
	case Pager:
		return "pager"
	case Redis:
		return "redis"
	case Mongo:
		return "mongo"
	}
	return "unknown"
}

// The programs ContextOf recognises, by basename.
var (
	ShellPrograms = Set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "tcsh", "csh", "busybox")
	SQLPrograms   = Set("psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "snowsql")
	// SQLDialects: shells whose statements are SQL in all that matters here
	// (DROP, TRUNCATE, DELETE, ALTER, GRANT, COPY): Cassandra's cqlsh, ClickHouse's
	// client and InfluxDB 1.x's influx shell (InfluxQL) in front of the terminal.
	SQLDialects = Set("cqlsh", "clickhouse-client", "clickhouse", "influx")
	// DatastoreShells: the key-value and document stores' own shells.
	DatastoreShells = map[string]Context{"redis-cli": Redis, "valkey-cli": Redis, "keydb-cli": Redis, "mongosh": Mongo, "mongo": Mongo}
	PythonProgram   = regexp.MustCompile(`^(?:i?python|pypy|bpython|i?pdb|pudb)[0-9.]*$`) // pdb(1): "!statement" and bare statements are Python
	REPLPrograms    = map[string]Context{"node": Node, "nodejs": Node, "deno": Node, "bun": Node, "irb": Ruby, "pry": Ruby,
		"gdb": Debugger, "lldb": Debugger, "vim": Editor, "vi": Editor, "nvim": Editor, "view": Editor, "vimdiff": Editor,
		"less": Pager, "more": Pager, "most": Pager, "man": Pager}
)

// ContextOf maps the basename of a foreground program to its Context. A login
// shell's leading "-" (as in "-bash") is ignored.
func ContextOf(program string) Context {
	name := strings.TrimPrefix(filepath.Base(strings.TrimSpace(program)), "-")
	switch {
	case ShellPrograms[name]:
		return Shell
	case SQLPrograms[name], SQLDialects[name]:
		return SQL
	case DatastoreShells[name] != Unknown:
		return DatastoreShells[name]
	case PythonProgram.MatchString(name):
		return Python
	case REPLPrograms[name] != Unknown:
		return REPLPrograms[name]
	}
	return Unknown
}

// Set is a set of names.
func Set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
