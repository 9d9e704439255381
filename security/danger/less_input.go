package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// less(1) run from a shell: its input preprocessor (LESSOPEN='|cmd %s',
// LESSCLOSE) is a shell command run on every file it opens, judged as one;
// -O FILE (--LOG-FILE) copies its input into FILE, overwriting it without
// asking, judged as the redirection it amounts to (-o asks first).
func init() {
	addHostCheck("less", checkLessInvocation)
}

func checkLessInvocation(c shell.Command, depth int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "bhjkopOPtTxyz").Operands)
	file := "x"
	if len(ops) > 0 {
		file = ops[0]
	}
	for _, e := range c.Env {
		name, val, _ := strings.Cut(e, "=")
		if name != "LESSOPEN" && name != "LESSCLOSE" || depth >= shell.MaxDepth {
			continue
		}
		cmd := strings.TrimLeft(val, "|-")
		cmd = strings.ReplaceAll(cmd, "%s", shQuote(file))
		if v := classify(Shell, cmd, depth+1); v.Dangerous {
			return via(v, name)
		}
	}
	for _, f := range optionValues(c.Args[1:], "-O", "--LOG-FILE") {
		if v := effectVerdict(writeFile, f, "", depth, "less -O"); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}
