package danger

import (
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Checks for tearing down releases, clusters and published packages, and for
// commands run inside a container or pod (judged as the command they run).

// checkHelm: uninstall/delete of a release not named as temporary.
func checkHelm(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(withoutOptions(c.Args[1:], helmGlobalValues), "n")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || o.Long["dry-run"] || o.Long["help"] {
		return Verdict{}
	}
	if ops[0] != "uninstall" && ops[0] != "delete" && ops[0] != "del" && ops[0] != "un" {
		return Verdict{}
	}
	for _, r := range ops[1:] {
		if !temporaryName(r) {
			return hit("cluster-teardown")
		}
	}
	return Verdict{}
}

func checkEksctl(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) < 2 || ops[0] != "delete" || hasWord(c.Args, "--help") {
		return Verdict{}
	}
	for _, w := range c.Args {
		if name, ok := strings.CutPrefix(w.S, "--name="); ok && temporaryName(name) {
			return Verdict{}
		}
	}
	names := optionValues(c.Args[1:], "-n", "--name")
	if len(names) > 0 && temporaryName(names[0]) || len(ops) > 2 && temporaryName(ops[2]) {
		return Verdict{}
	}
	return hitIf(ops[1] == "cluster" || ops[1] == "nodegroup", "cluster-teardown")
}

// checkUnpublish: npm unpublish, gem yank, cargo yank (not --undo) withdraw a
// published version that others may depend on.
func checkUnpublish(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "v")
	ops := shell.Lits(o.Operands)
	if len(ops) == 0 || o.Long["dry-run"] || o.Long["undo"] || o.Has("h", "help") {
		return Verdict{}
	}
	switch c.Name {
	case "npm", "pnpm", "yarn":
		return hitIf(ops[0] == "unpublish" || (c.Name == "yarn" && len(ops) > 1 && ops[0] == "npm" && ops[1] == "unpublish"), "package-unpublish")
	case "gem":
		return hitIf(ops[0] == "yank", "package-unpublish")
	case "cargo": // a yanked crate version is restored with cargo yank --undo
		return Verdict{}
	}
	return Verdict{}
}

// checkGh: gh repo delete (a release or a branch can be made again; a
// repository with its issues cannot).
func checkGh(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "R").Operands)
	return hitIf(len(ops) >= 2 && ops[0] == "repo" && ops[1] == "delete", "cloud-teardown")
}

// checkVault: disabling a secrets or auth engine deletes what it held; kv
// destroy and metadata delete remove every version of a secret.
func checkVault(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) < 2 {
		return Verdict{}
	}
	switch ops[0] + " " + ops[1] {
	case "secrets disable", "auth disable", "kv destroy", "kv metadata":
		if localVault(c) || len(ops) > 2 && ops[1] == "disable" && temporaryName(strings.Trim(ops[2], "/")) {
			return Verdict{} // a dev server's, or a test mount (platform_target.go)
		}
		return hitIf(ops[1] != "metadata" || len(ops) > 2 && ops[2] == "delete", "cloud-teardown")
	}
	return Verdict{}
}

// execValueOpts are docker/podman exec options that take a value.
const execValueOpts = "euw"

var execLong = shell.Set("env", "env-file", "user", "workdir", "detach-keys")

// checkContainerExec judges the command of docker/podman exec CONTAINER CMD…
// and kubectl/oc exec POD -- CMD… as if typed there.
func checkContainerExec(c shell.Command, depth int) Verdict {
	inner, _, ok := containerExec(c)
	if !ok {
		return Verdict{}
	}
	return via(checkInner(inner, depth), c.Name+" exec")
}

// containerExec: the words of the command docker/podman exec or kubectl/oc
// exec runs in a container, and whether -i gives it the caller's stdin.
func containerExec(c shell.Command) ([]shell.Word, bool, bool) {
	args := c.Args
	if c.Name == "docker-compose" {
		args = append([]shell.Word{args[0], {S: "compose"}}, args[1:]...)
	}
	switch c.Name {
	case "docker", "podman", "docker-compose":
		i := 1
		if len(args) > 2 && (args[1].S == "container" || args[1].S == "compose") {
			i = 2
		}
		if len(args) <= i || args[i].S != "exec" {
			return nil, false, false
		}
		rest := args[i:]
		j := shell.AfterOptions(rest, execValueOpts, execLong)
		if j+1 >= len(rest) {
			return nil, false, false
		}
		o := shell.ParseOpts(rest[1:j], execValueOpts)
		// compose exec gives the service its stdin unless told not to (-T only drops the TTY)
		return rest[j+1:], o.Has("i", "interactive") || args[i-1].S == "compose", true
	case "kubectl", "oc":
		for i, w := range args {
			if w.S == "--" && hasWord(args[:i], "exec") && i+1 < len(args) {
				o := shell.ParseOpts(args[1:i], "ncp")
				return args[i+1:], o.Has("i", "stdin"), true
			}
		}
	}
	return nil, false, false
}

// stdinReader: the program that reads c's stdin: c, or the command docker
// exec -i or kubectl exec -i runs, which is given it.
func stdinReader(c shell.Command) shell.Command {
	if inner, stdin, ok := containerExec(c); ok && stdin && len(inner) > 0 {
		return shell.Unwrap(inner)
	}
	return c
}

func checkInner(ws []shell.Word, depth int) Verdict {
	if depth >= shell.MaxDepth || len(ws) == 0 {
		return Verdict{}
	}
	return checkCommand(shell.Unwrap(ws), depth+1)
}

// checkDockerMass: docker rm -f over a computed list ($(docker ps -aq)),
// docker stack rm of a stack not named as temporary.
func checkDockerMass(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := o.Operands
	if len(ops) > 0 && ops[0].S == "container" {
		ops = ops[1:]
	}
	// xargs' input, when the pipeline knows it, is the last operand (checkXargsFed)
	fed := c.MoreArgs && !(len(ops) > 0 && ops[len(ops)-1].Dyn() && filteredList(ops[len(ops)-1]))
	if len(ops) == 1 && ops[0].S == "rm" && o.Has("f", "force") && (fed || o.Has("a", "all")) {
		return hit("container-teardown") // xargs docker rm -f; podman rm -fa
	}
	if len(ops) < 2 {
		return Verdict{}
	}
	if ops[0].S == "pod" && (ops[1].S == "rm" || ops[1].S == "kill") {
		ops = ops[1:] // podman pod rm -fa: every pod with its containers
		if len(ops) == 1 && ops[0].S == "rm" && o.Has("f", "force") && o.Has("a", "all") {
			return hit("container-teardown")
		}
		if len(ops) < 2 {
			return Verdict{}
		}
	}
	if ops[0].S == "image" && ops[1].S == "rm" {
		ops = append([]shell.Word{{S: "rmi"}}, ops[2:]...)
	}
	switch ops[0].S {
	case "rmi":
		// docker rmi -f $(docker images -q): every image, forced out from under the containers using it.
		for _, w := range ops[1:] {
			if w.Dyn() && o.Has("f", "force") && !filteredList(w) {
				return hit("container-teardown")
			}
		}
	case "rm":
		if ops[1].S == "" {
			return Verdict{}
		}
		if o.Has("f", "force") && (fed || o.Has("a", "all")) {
			return hit("container-teardown") // xargs docker rm -f; podman rm -fa
		}
		for _, w := range ops[1:] {
			if w.Dyn() && o.Has("f", "force") && !filteredList(w) {
				return hit("container-teardown")
			}
		}
	case "kill":
		for _, w := range ops[1:] {
			if w.Dyn() && !filteredList(w) {
				return hit("container-teardown")
			}
		}
	case "swarm":
		return hitIf(ops[1].S == "leave" && o.Has("f", "force"), "container-teardown")
	case "system":
		return hitIf(ops[1].S == "reset", "container-teardown")
	case "stack":
		if len(ops) > 2 && (ops[1].S == "rm" || ops[1].S == "remove" || ops[1].S == "down") && !temporaryName(ops[2].S) {
			return hit("container-teardown")
		}
	}
	return Verdict{}
}

// filteredList: a computed list narrowed by name, label or image ($(docker
// ps -q --filter name=e2e-)) names the containers someone chose, not all.
// status=, health= and exited= select every container in a state.
func filteredList(w shell.Word) bool {
	return filteredBy(w, func(v string) bool {
		return !slices.ContainsFunc([]string{"status=", "health=", "exited="}, func(p string) bool { return strings.HasPrefix(v, p) })
	})
}

// filteredVolumes: a volume list narrowed, by label or name, to volumes whose
// name or label says they are disposable (docker volume ls -q --filter
// label=experiment=qbench-1127, label=run=abtest-7, --filter name=tmp-): an
// experiment's, a run's or a test's own. A filter naming an application
// (name=billing, label=com.docker.compose.project=shop) selects its data, and
// dangling= and driver= select every unused volume or every one of a kind, as
// docker volume prune does.
func filteredVolumes(w shell.Word) bool {
	return filteredBy(w, func(v string) bool {
		kind, val, _ := strings.Cut(v, "=")
		parts := strings.Split(val, "=")
		return kind == "name" && temporaryName(val) ||
			kind == "label" && (runLabels[parts[0][strings.LastIndexByte(parts[0], '.')+1:]] || slices.ContainsFunc(parts, temporaryName))
	})
}

// runLabels are label keys, or the last part of a reverse-DNS key
// (com.example.run), that tag what one run, job or experiment made.
var runLabels = shell.Set("run", "run-id", "run_id", "job", "job-id", "experiment", "exp", "ci", "pipeline", "build")

// filteredBy: w is computed by a docker or podman listing with a filter that
// chosen accepts.
func filteredBy(w shell.Word, chosen func(filter string) bool) bool {
	if w.Node == nil {
		return false
	}
	found := false
	syntax.Walk(w.Node, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok {
			if c, ok := shell.BuildCommand(call); ok && (c.Name == "docker" || c.Name == "podman") {
				for _, v := range append(optionValues(c.Args[1:], "-f", "--filter"), optionValues(c.Args[1:], "--filter", "--filter")...) {
					found = found || chosen(v)
				}
			}
		}
		return !found
	})
	return found
}
