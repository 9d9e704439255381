package danger

import (
	"slices"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Writes whose only condition is a join, and common table expressions that
// stand for a whole table. UPDATE s SET plan = 'free' FROM customers c
// WHERE s.customer_id = c.id sets every subscription that has a customer,
// which for a foreign key is every subscription; WITH x AS (SELECT id FROM
// notes) DELETE FROM notes WHERE id IN (SELECT id FROM x) is DELETE FROM
// notes written the long way.

// inlineCTEs replaces each reference to a WITH query that reads a whole
// table (SELECT cols FROM t, nothing else) with that table, so the
// statement is judged as if written without it.
func inlineCTEs(toks []string) []string {
	if len(toks) < 2 || toks[0] != "WITH" {
		return toks
	}
	whole := map[string]string{}
	i := 1
	for i+3 < len(toks) && isWord(toks[i]) && toks[i+1] == "AS" && toks[i+2] == "(" {
		end := closeParen(toks, i+2)
		if end < 0 {
			return toks
		}
		if t := wholeTable(toks[i+3 : end]); t != "" {
			whole[toks[i]] = t
		}
		i = end + 1
		if i >= len(toks) || toks[i] != "," {
			break
		}
		i++
	}
	if len(whole) == 0 {
		return toks
	}
	out := slices.Clone(toks)
	for j := i; j+1 < len(out); j++ {
		if t, ok := whole[out[j+1]]; ok && (out[j] == "FROM" || out[j] == "USING" || out[j] == "JOIN") {
			out[j+1] = t
		}
	}
	return out
}

// closeParen: the index of the parenthesis that closes the one at open.
func closeParen(toks []string, open int) int {
	depth := 0
	for j := open; j < len(toks); j++ {
		switch toks[j] {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// wholeTable: the table a query reads in full (SELECT [DISTINCT] cols
// FROM t), or "" when it filters, joins, groups or limits.
func wholeTable(q []string) string {
	if len(q) < 4 || q[0] != "SELECT" {
		return ""
	}
	from := indexDepth0(q, "FROM")
	if from < 0 || from+2 != len(q) || !isWord(q[from+1]) {
		return ""
	}
	return q[from+1]
}

// joinClauses: the words that bring another table into an UPDATE or DELETE.
var joinClauses = shell.Set("FROM", "USING", "JOIN")

// joinOnlyWrite: an UPDATE that joins its table to its parent through its
// foreign key (s.customer_id = c.id), or an UPDATE or DELETE that joins it
// to a whole copy of itself, with no other condition: every row has a parent. A join the
// other way (u.id = b.user_id) keeps the rows another table lists. An UPDATE that copies
// values from the joined table (SET total = t.sum) is a sync from it, and a
// join to a scratch table (tmp_ids, staging_fix) names the rows to touch, so
// neither counts.
func joinOnlyWrite(verb string, rest []string) bool {
	if verb != "UPDATE" && verb != "DELETE" || len(rest) == 0 {
		return false
	}
	target, body := writeTarget(verb, rest)
	if target == "" {
		return false
	}
	quals := shell.Set(target)
	if len(body) > 0 && isWord(body[0]) && !joinClauses[body[0]] && body[0] != "SET" && body[0] != "WHERE" && body[0] != "INNER" {
		quals[body[0]] = true // the target's alias
	}
	joined, self, conds := false, false, [][]string{}
	for i, t := range body {
		switch {
		case (joinClauses[t] || t == ",") && i+1 < len(body) && isWord(body[i+1]):
			if verb == "UPDATE" && t == "FROM" || verb == "DELETE" && t != "FROM" || t == "JOIN" {
				joined, self = true, self || body[i+1] == target
				if scratchTable(body[i+1]) {
					return false
				}
			}
		case t == "WHERE" || t == "ON":
			conds = append(conds, clauseUntil(body[i+1:]))
		case t == "SET" && readsOther(clauseUntil(body[i+1:]), quals):
			return false
		}
	}
	if !joined || len(conds) == 0 || slices.ContainsFunc(conds, func(c []string) bool { return !keyEqualities(c) }) {
		return false
	}
	return slices.ContainsFunc(conds, func(c []string) bool { return toParent(c, quals, verb == "UPDATE", self) })
}

// toParent: a key equality that follows a column of the target to another
// table's id, in an UPDATE (DELETE … USING u WHERE t.uid = u.id deletes
// what u lists, the usual reason to write it), or, joined to itself, a
// column to the same column.
func toParent(c []string, quals map[string]bool, update, self bool) bool {
	for ; len(c) >= 7; c = c[min(len(c), 8):] {
		mine, other := c[2], c[6]
		if quals[c[4]] {
			mine, other = other, mine
		} else if !quals[c[0]] {
			continue
		}
		if update && mine != "ID" && other == "ID" || self && mine == other {
			return true
		}
	}
	return false
}

// writeTarget: the table an UPDATE or a PostgreSQL DELETE FROM writes, and
// the tokens after its name.
func writeTarget(verb string, rest []string) (string, []string) {
	if verb == "DELETE" {
		i := indexDepth0(rest, "FROM")
		if i != 0 || len(rest) < 2 {
			return "", nil
		}
		rest = rest[1:]
	}
	if !isWord(rest[0]) {
		return "", nil
	}
	if len(rest) > 1 && rest[1] == "AS" {
		return rest[0], rest[2:]
	}
	return rest[0], rest[1:]
}

// clauseUntil: a clause's tokens up to the next clause keyword.
func clauseUntil(t []string) []string {
	depth := 0
	for i, tok := range t {
		switch {
		case tok == "(":
			depth++
		case tok == ")":
			depth--
		case depth == 0 && (joinClauses[tok] || clauseEnds[tok]):
			return t[:i]
		}
	}
	return t
}

var clauseEnds = shell.Set("WHERE", "SET", "ON", "ORDER", "LIMIT", "RETURNING", ";", "INNER", "LEFT", "RIGHT", "CROSS")

// readsOther: assignments that read a column of a table other than quals.
func readsOther(set []string, quals map[string]bool) bool {
	for i := 0; i+1 < len(set); i++ {
		if isWord(set[i]) && set[i+1] == "." && !quals[set[i]] && (i == 0 || set[i-1] != ".") {
			return true
		}
	}
	return false
}

// keyEqualities: a condition made only of a.x = b.y between columns of two
// different tables, joined by AND.
func keyEqualities(c []string) bool {
	if len(c) == 0 {
		return false
	}
	for len(c) > 0 {
		end := indexDepth0(c, "AND")
		if end < 0 {
			end = len(c)
		}
		e := c[:end]
		if len(e) != 7 || e[1] != "." || e[3] != "=" || e[5] != "." || e[0] == e[4] || !isWord(e[0]) || !isWord(e[4]) {
			return false
		}
		if end == len(c) {
			break
		}
		c = c[end+1:]
	}
	return true
}
