package security

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
)

func (c Context) String() string {
	switch c {
	case Shell:
		return "shell"
	case SQL:
		return "sql"
	case Python:
		return "python"
	}
	return "unknown"
}

var (
	shellPrograms = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "tcsh", "csh", "busybox")
	sqlPrograms   = set("psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb")
	pythonProgram = regexp.MustCompile(`^(?:i?python|pypy|bpython)[0-9.]*$`)
)

// ContextOf maps the basename of a foreground program to its Context. A login
// shell's leading "-" (as in "-bash") is ignored.
func ContextOf(program string) Context {
	name := strings.TrimPrefix(filepath.Base(strings.TrimSpace(program)), "-")
	switch {
	case shellPrograms[name]:
		return Shell
	case sqlPrograms[name]:
		return SQL
	case pythonProgram.MatchString(name):
		return Python
	}
	return Unknown
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
