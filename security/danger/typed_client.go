package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Lines typed after a line that starts an interactive client: `psql "$URL"⏎
// TRUNCATE auth.sessions;` or `sqlite3 app.db⏎DROP TABLE t;` sends the later
// lines to the client, not to the shell, so they are judged with that
// client's rules. Only a client left reading its prompt counts: no command
// or script given (-c, -f, -e, a second sqlite3 operand), nothing piped or
// redirected into it.
func checkTypedIntoClient(input string, depth int) Verdict {
	lines := strings.Split(input, "\n")
	for i := 0; i < len(lines)-1; i++ {
		ctx, ok := interactiveClient(lines[i])
		if !ok {
			continue
		}
		rest := strings.Join(lines[i+1:], "\n")
		if strings.TrimSpace(rest) == "" {
			return Verdict{}
		}
		return via(classify(ctx, rest, depth+1), "the client it starts")
	}
	return Verdict{}
}

// interactiveClient: line is one command starting an SQL client or a Python
// REPL at its prompt.
func interactiveClient(line string) (Context, bool) {
	f, err := shell.Parse(line)
	if err != nil || len(f.Stmts) != 1 {
		return 0, false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || len(st.Redirs) > 0 {
		return 0, false
	}
	c, ok := shell.BuildCommand(call)
	if !ok {
		return 0, false
	}
	ctx := ContextOf(c.Name)
	args := c.Args[1:]
	switch ctx {
	case SQL:
		o := shell.ParseOpts(args, "cfeUhpdDu")
		if o.Has("cfe", "command", "file", "execute") || o.Has("", "version", "help") {
			return 0, false
		}
		// sqlite3 DB 'SQL' and duckdb DB 'SQL' run the SQL and exit.
		if (c.Name == "sqlite3" || c.Name == "sqlite" || c.Name == "duckdb") && len(o.Operands) > 1 {
			return 0, false
		}
		return SQL, true
	case Python:
		if len(args) == 0 || len(args) == 1 && (args[0].S == "-q" || args[0].S == "-i") {
			return Python, true
		}
		// python manage.py shell (Django's console) and dbshell (its database's client)
		if len(args) == 2 && path.Base(args[0].S) == "manage.py" {
			return frameworkConsole(args[1].S)
		}
	case Node, Ruby:
		if len(args) == 0 {
			return ctx, true
		}
	}
	switch {
	case c.Name == "manage.py" && len(args) == 1:
		return frameworkConsole(args[0].S)
	case (c.Name == "rails" || c.Name == "flask") && len(args) == 1:
		return frameworkConsole(args[0].S)
	}
	return 0, false
}

// frameworkConsole: the console a framework's subcommand leaves at its
// prompt (Django's shell and dbshell, rails console and dbconsole, flask shell).
func frameworkConsole(sub string) (Context, bool) {
	switch sub {
	case "shell", "shell_plus":
		return Python, true
	case "dbshell", "dbconsole", "db":
		return SQL, true
	case "console", "c":
		return Ruby, true
	}
	return 0, false
}
