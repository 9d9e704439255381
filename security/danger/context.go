package danger

import "github.com/mcp-terminal/mcp-terminal/security/internal/shell"

// Context says which language an input is written in, so Classify knows which
// rule sets apply. It comes from the session's foreground program.
type Context = shell.Context

const (
	Unknown = shell.Unknown // unknown program: every rule set applies
	Shell   = shell.Shell
	SQL     = shell.SQL    // psql, mysql, mariadb, sqlite3
	Python  = shell.Python // python, python3, python3.12, ipython

	Node     = shell.Node     // node, deno, bun
	Ruby     = shell.Ruby     // irb, pry
	Debugger = shell.Debugger // gdb, lldb
	Editor   = shell.Editor   // vim, vi, nvim
	Pager    = shell.Pager    // less, more, man
	Redis    = shell.Redis    // redis-cli, valkey-cli, keydb-cli
	Mongo    = shell.Mongo    // mongosh, mongo
)

// ContextOf maps the basename of a foreground program to its Context. A login
// shell's leading "-" (as in "-bash") is ignored.
func ContextOf(program string) Context { return shell.ContextOf(program) }
