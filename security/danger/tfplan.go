package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// A plan saved from plan -destroy is a destroy: terraform plan -destroy
// -out=tf.plan && terraform apply tf.plan (with or without -auto-approve;
// a saved plan is applied without a prompt) tears down what terraform
// destroy would.

var tfTools = shell.Set("terraform", "tofu", "terragrunt")

// checkSavedDestroyPlan judges terraform apply PLAN, PLAN saved by an earlier
// plan -destroy -out=PLAN, as terraform destroy with the plan's options.
func checkSavedDestroyPlan(f *syntax.File, depth int) Verdict {
	plans := map[string]shell.Command{} // plan file → the plan -destroy that wrote it
	return inOrder(f, func(_ *syntax.CallExpr, c shell.Command) Verdict {
		if !tfTools[c.Name] {
			return Verdict{}
		}
		ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
		switch {
		case len(ops) > 0 && ops[0] == "plan" && (hasWord(c.Args, "-destroy") || hasWord(c.Args, "--destroy")):
			for _, out := range append(optionValues(c.Args[1:], "-out", "-out"), optionValues(c.Args[1:], "--out", "--out")...) {
				plans[path.Clean(out)] = c
			}
		case len(ops) > 1 && ops[0] == "apply":
			if plan, ok := plans[path.Clean(ops[len(ops)-1])]; ok {
				return checkCommand(asDestroy(plan), depth)
			}
		}
		return Verdict{}
	})
}

// asDestroy is terraform plan -destroy -out=F … as terraform destroy … with
// the same options (a disposable environment's variables, -target).
func asDestroy(plan shell.Command) shell.Command {
	args := []shell.Word{plan.Args[0]}
	skip := false
	for _, w := range plan.Args[1:] {
		switch {
		case skip:
			skip = false
		case w.S == "plan":
			args = append(args, shell.Word{S: "destroy"})
		case w.S == "-destroy" || w.S == "--destroy":
		case w.S == "-out" || w.S == "--out":
			skip = true
		case strings.HasPrefix(w.S, "-out=") || strings.HasPrefix(w.S, "--out="):
		default:
			args = append(args, w)
		}
	}
	plan.Args = args
	return plan
}
