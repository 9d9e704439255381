package danger

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// checkXargsFed judges `A | xargs B` as `B $(A)`: the operands are whatever
// the stages before produce (git tag -l | xargs git push origin --delete,
// helm ls -q | xargs helm uninstall), so B is judged with one computed
// operand, as the same command with a command substitution would be.
// Literal echo output is judged by the caller.
func checkXargsFed(c shell.Command, upstream []*syntax.Stmt, echoed []string, depth int) Verdict {
	if !c.MoreArgs || echoed != nil || len(upstream) == 0 {
		return Verdict{}
	}
	w := shell.ResolveWord(&syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Stmts: upstream}}})
	c.Args = append(c.Args[:len(c.Args):len(c.Args)], w)
	return checkCommand(c, depth)
}
