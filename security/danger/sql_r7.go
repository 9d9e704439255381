package danger

import (
	"regexp"
	"slices"
)

// Round 7 SQL: conditions that select every row by a subquery over the same
// table (id IN (SELECT id FROM users)) or a constant EXISTS, and PL/pgSQL
// blocks whose statements sit between BEGIN and END.

// everyRowSubquery: the WHERE clause of a DELETE or UPDATE of table keeps
// every row: col IN (SELECT [DISTINCT] col FROM table) with no filter of its
// own, or EXISTS (SELECT constant) with no FROM.
func everyRowSubquery(verb string, rest []string) bool {
	var table string
	switch verb {
	case "DELETE":
		i := indexDepth0(rest, "FROM")
		if i < 0 || i+1 >= len(rest) {
			return false
		}
		table = rest[i+1]
	case "UPDATE":
		if len(rest) == 0 {
			return false
		}
		table = rest[0]
	default:
		return false
	}
	w := indexDepth0(rest, "WHERE")
	if w < 0 {
		return false
	}
	cond := rest[w+1:]
	for len(cond) > 0 && cond[len(cond)-1] == ";" {
		cond = cond[:len(cond)-1]
	}
	if len(cond) >= 4 && cond[0] == "EXISTS" && cond[1] == "(" && cond[2] == "SELECT" && cond[len(cond)-1] == ")" {
		return !slices.Contains(cond, "FROM") && !slices.Contains(cond, "WHERE")
	}
	if len(cond) < 8 || cond[1] != "IN" || cond[2] != "(" || cond[3] != "SELECT" || cond[len(cond)-1] != ")" {
		return false
	}
	sub := cond[4 : len(cond)-1]
	if len(sub) > 0 && sub[0] == "DISTINCT" {
		sub = sub[1:]
	}
	return len(sub) == 3 && sub[0] == cond[0] && sub[1] == "FROM" && sub[2] == table
}

// plBlock: the keywords that bracket PL/pgSQL (and T-SQL) statements; a
// body read as SQL is split at them so each statement stands alone.
var plBlock = regexp.MustCompile(`(?i)\b(?:BEGIN|END|LOOP|THEN|ELSE|DECLARE)\b`)

func plStatements(body string) string {
	return plBlock.ReplaceAllString(body, ";")
}
