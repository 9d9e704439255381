package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// filtered reports whether a DELETE or UPDATE has a WHERE clause that can
// leave a row untouched. WHERE 1=1, WHERE true, WHERE 1 and a top-level
// OR 1=1 select every row, so they count as no WHERE at all.
func filtered(rest []string) bool {
	i := indexDepth0(rest, "WHERE")
	if i < 0 {
		return false
	}
	cond := rest[i+1:]
	for j, t := range cond {
		if t == "ORDER" || t == "LIMIT" || t == "RETURNING" || t == ";" {
			cond = cond[:j]
			break
		}
	}
	if tautology(cond) || nullOrNotNull(cond) || widenedByNotNull(cond) {
		return false
	}
	if j := indexDepth0(cond, "OR"); j > 0 && tautology(cond[:j]) {
		return false
	}
	for j := indexDepth0(cond, "OR"); j >= 0; {
		next := indexDepth0(cond[j+1:], "OR")
		end := len(cond)
		if next >= 0 {
			end = j + 1 + next
		}
		if tautology(cond[j+1 : end]) {
			return false
		}
		if next < 0 {
			break
		}
		j = j + 1 + next
	}
	return true
}

// widenedByNotNull: a top-level OR term "c IS NOT NULL" whose column another
// term tests (dt < '2024-11-01' OR dt IS NOT NULL): together they select
// every row that has a value, whatever the other term meant to keep.
func widenedByNotNull(cond []string) bool {
	var terms [][]string
	for rest := cond; ; {
		j := indexDepth0(rest, "OR")
		if j < 0 {
			terms = append(terms, rest)
			break
		}
		terms = append(terms, rest[:j])
		rest = rest[j+1:]
	}
	for i, t := range terms {
		if len(t) != 4 || t[1] != "IS" || t[2] != "NOT" || t[3] != "NULL" || !isWord(t[0]) {
			continue
		}
		for k, o := range terms {
			if k != i && slices.Contains(o, t[0]) {
				return true
			}
		}
	}
	return false
}

// tautology: TRUE, 1, NOT FALSE, a = a with the same literal or column on both
// sides (1=1, ”=”, x=x), each possibly in parentheses.
func tautology(t []string) bool {
	for len(t) >= 2 && t[0] == "(" && t[len(t)-1] == ")" {
		t = t[1 : len(t)-1]
	}
	if constantCondition(t) || everyConjunct(t) {
		return true
	}
	switch len(t) {
	case 1:
		return t[0] == "TRUE" || t[0] == "1"
	case 2:
		return t[0] == "NOT" && (t[1] == "FALSE" || t[1] == "0")
	}
	eq := indexDepth0(t, "=")
	return everyRow(t) || eq > 0 && strings.Join(t[:eq], " ") == strings.Join(t[eq+1:], " ") && !strings.Contains(strings.Join(t, ""), "?")
}

var (
	// sqlDynamic: a string run as SQL by EXECUTE (PL/pgSQL, Oracle) or
	// PREPARE … FROM (MySQL).
	sqlDynamic = regexp.MustCompile(`(?is)\b(?:EXECUTE(?:\s+IMMEDIATE)?|PREPARE\s+\w+\s+FROM)\s+'((?:[^']|'')*)'(\s*\|\|)?`)
	// sqlBody: a dollar-quoted body (DO $$ … $$, CREATE FUNCTION … AS $fn$ … $fn$).
	sqlBody = regexp.MustCompile(`(?s)\$([A-Za-z_]*)\$(.*?)\$([A-Za-z_]*)\$`)
	// sqlProgram: COPY … FROM/TO PROGRAM 'command' runs a shell command on the server.
	sqlProgram = regexp.MustCompile(`(?is)\bPROGRAM\s+'((?:[^']|'')*)'`)
)

// checkEmbeddedSQL judges SQL and shell commands that sit inside string
// literals and function bodies, which sanitizeSQL blanks out.
func checkEmbeddedSQL(code string, depth int) Verdict {
	if depth > shell.MaxDepth {
		return Verdict{}
	}
	for _, m := range sqlBody.FindAllStringSubmatch(code, -1) {
		if m[1] == m[3] {
			if v := classifySQL(plStatements(m[2]), depth+1); v.Dangerous {
				return via(v, "a function body")
			}
		}
	}
	for _, m := range sqlDynamic.FindAllStringSubmatch(code, -1) {
		stmt := strings.ReplaceAll(m[1], "''", "'")
		if m[2] != "" { // EXECUTE 'DROP TABLE ' || name
			stmt += " __dyn__"
		}
		if v := classifySQL(stmt, depth+1); v.Dangerous {
			return via(v, "EXECUTE")
		}
	}
	for _, m := range sqlProgram.FindAllStringSubmatch(code, -1) {
		if v := classifyShell(strings.ReplaceAll(m[1], "''", "'"), depth+1); v.Dangerous {
			return via(v, "COPY PROGRAM")
		}
	}
	return Verdict{}
}
