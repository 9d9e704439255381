package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Git commands that discard work not yet committed or not yet pushed: the
// working tree, the index, stashes, local branches and the objects only the
// reflog still reaches. Routine forms (reset --soft, restore --staged,
// branch -d, stash pop, a named single-file checkout) pass.

// checkGitWork judges subcommand sub with its arguments rest.
func checkGitWork(sub string, rest []shell.Word, depth int) Verdict {
	o := shell.ParseOpts(rest, gitValueLetters(sub))
	if o.Has("h", "help") {
		return Verdict{}
	}
	switch sub {
	case "reset":
		return hitIf(o.Long["hard"], "git-discard-work")
	case "checkout":
		if o.Has("f", "force") || rewindsShared(optionValues(rest, "-B", ""), o.Operands) {
			return hit("git-discard-work")
		}
		return hitIf(!o.Has("bp", "orphan", "patch") && (broadPathspec(withoutRevisions(rest)) || sourceDirOperand(afterDashDash(rest))), "git-discard-work")
	case "restore":
		worktree := (!o.Has("S", "staged") || o.Has("W", "worktree")) && !o.Has("p", "patch")
		return hitIf(worktree && (broadPathspec(rest) || sourceDirOperand(o.Operands)), "git-discard-work")
	case "switch":
		return hitIf(o.Has("f", "force", "discard-changes") || rewindsShared(optionValues(rest, "-C", "--force-create"), o.Operands), "git-discard-work")
	case "stash":
		ops := shell.Lits(o.Operands)
		return hitIf(len(ops) > 0 && (ops[0] == "clear" || ops[0] == "drop"), "git-discard-work")
	case "branch":
		if o.Has("f", "force") && !o.Has("dDmMcC", "delete", "move", "copy") && len(o.Operands) > 1 && rewindsShared(shell.Lits(o.Operands[:1]), o.Operands[1:]) {
			return hit("git-discard-work") // branch -f main HEAD~5
		}
		if renamesOverShared(o) {
			return hit("git-discard-work") // branch -M experiment main
		}
		force := o.Has("D", "") || o.Has("d", "delete") && o.Has("f", "force")
		return hitIf(force && len(o.Operands) > 0 && !allTemporary(o.Operands), "git-discard-work")
	case "read-tree": // -u --reset: the index and tree made to match a tree, local changes lost
		return hitIf(o.Long["reset"] && o.Has("u", ""), "git-discard-work")
	case "update-ref":
		return hitIf(o.Has("d", "") || len(o.Operands) > 1 && rewindsShared(shell.Lits(o.Operands[:1]), o.Operands[1:]), "git-discard-work")
	case "worktree":
		ops := shell.Lits(o.Operands)
		if len(ops) > 0 && ops[0] == "add" && rewindsShared(optionValues(rest, "-B", ""), o.Operands[min(len(o.Operands), 2):]) {
			return hit("git-discard-work") // worktree add -B main ../wt origin/main
		}
		return hitIf(len(ops) > 0 && ops[0] == "remove" && o.Has("f", "force"), "git-discard-work")
	case "rm": // -f drops the local changes of what it removes; -r a whole source tree
		return hitIf(o.Has("f", "force") && (broadPathspec(rest) || o.Has("r", "") && sourceDirOperand(o.Operands)), "git-discard-work")
	case "prune":
		return hitIf(hasWord(rest, "--expire=now"), "git-rewrite-history")
	case "gc":
		for _, w := range rest {
			if w.S == "--prune=now" || w.S == "--prune=all" {
				return hit("git-rewrite-history")
			}
		}
	case "submodule":
		if ops := shell.Lits(o.Operands); len(ops) > 0 && ops[0] == "deinit" && o.Has("f", "force") {
			return hit("git-discard-work") // deinit -f drops the submodules' local changes
		}
		for i, w := range rest {
			if w.S == "foreach" {
				cmd := rest[i+1:]
				for len(cmd) > 0 && (cmd[0].S == "--recursive" || cmd[0].S == "-q" || cmd[0].S == "--quiet") {
					cmd = cmd[1:]
				}
				return via(classifyShell(shell.ForParser(strings.Join(shell.Lits(cmd), " "), Shell), depth+1), "git submodule foreach")
			}
		}
	}
	return Verdict{}
}

// gitShortValues are, per subcommand, the short options that take a value
// (git-restore(1): -s <tree>, but -S and -W are flags that combine as -SW;
// git-checkout(1): -b/-B <branch>; git-switch(1): -c/-C <branch>).
var gitShortValues = map[string]string{"restore": "s", "checkout": "bB", "switch": "cC", "branch": "u",
	"stash": "m", "worktree": "bB", "update-ref": "m", "submodule": "b", "reset": "", "rm": "", "read-tree": ""}

func gitValueLetters(sub string) string {
	if v, ok := gitShortValues[sub]; ok {
		return v
	}
	return "bBmsSO"
}

// rewindsShared: a shared branch (main, master, release…) forced to start
// somewhere else — an ancestor of where it is (HEAD~3, main^), the remote's
// copy (origin/main) or another branch: git-branch(1) -f, git-checkout(1)
// -B, git-switch(1) -C, git-worktree(1) add -B and git-update-ref(1) drop
// the commits it had that the start lacks (unpushed ones included), as
// reset --hard does. Without a start point (checkout -B main), or at HEAD,
// it is set to the commit in hand: how a new repository names its first
// branch, or a branch moved up to the work just done.
func rewindsShared(names []string, start []shell.Word) bool {
	if len(start) > 0 && len(names) > 0 && start[0].S == names[0] {
		start = start[1:] // a long option's value left among the operands (--force-create main)
	}
	if len(names) == 0 || !sharedBranch(names[0]) || len(start) == 0 {
		return false
	}
	s := strings.TrimPrefix(start[0].S, "refs/heads/")
	return ancestorRev(s) || s != strings.TrimPrefix(names[0], "refs/heads/") && s != "HEAD" && s != "@"
}

// renamesOverShared: git-branch(1) -M/-C (or -m/-c with -f) OLD NEW with a
// shared branch as NEW replaces it with OLD, and its own commits are lost.
// With one operand (-M main) the current branch is renamed, which is how a
// new repository names its first branch; nothing says a main exists.
func renamesOverShared(o shell.Opts) bool {
	forced := o.Has("MC", "") || o.Has("mc", "move", "copy") && o.Has("f", "force")
	ops := shell.Lits(o.Operands)
	return forced && len(ops) == 2 && sharedBranch(ops[1]) && ops[0] != ops[1]
}

// broadPathspec: the paths after checkout/restore cover a whole tree
// (".", ":/", "*", "dir/"), every file of a kind ('*.go'), or are computed
// at run time.
func broadPathspec(rest []shell.Word) bool {
	for _, w := range rest {
		s := w.S
		switch {
		case s == "." || s == "./" || s == ":/" || s == "*" || s == ":(top)" || s == "..":
			return true
		case w.Dyn() && !strings.HasPrefix(s, "-"):
			return true
		case strings.HasSuffix(s, "/") && !strings.HasPrefix(s, "-"):
			return true
		case strings.ContainsAny(s, "*?[") && !strings.HasPrefix(s, "-") && !shellGlobbed(w):
			// git matches a wildcard pathspec it is given ('*.py',
			// ':(glob)**/*.ts') against every path in the tree, across
			// directories: each file of that kind, wherever it is. An
			// unquoted *.sh is the shell's, and names the files it lists.
			return true
		}
	}
	return false
}

// sourceTrees are the directory names a project keeps its code in; a
// pathspec naming one covers a whole tree even without a trailing slash.
var sourceTrees = shell.Set("src", "lib", "app", "apps", "pkg", "cmd", "internal", "test", "tests", "spec", "docs",
	"config", "scripts", "web", "public", "include", "packages", "services", "components", "server", "client")

func sourceDirOperand(ws []shell.Word) bool {
	for _, w := range ws {
		if sourceTrees[strings.TrimPrefix(w.S, "./")] {
			return true
		}
	}
	return false
}

// afterDashDash: the words after "--", which git reads as paths only.
func afterDashDash(ws []shell.Word) []shell.Word {
	for i, w := range ws {
		if w.S == "--" {
			return ws[i+1:]
		}
	}
	return nil
}

func allTemporary(ws []shell.Word) bool {
	for _, w := range ws {
		if !temporaryName(w.S) {
			return false
		}
	}
	return len(ws) > 0
}

// gitAliasBodies returns the shell commands of `git -c alias.X='!cmd'`.
func gitAliasBodies(args []shell.Word) []string {
	var out []string
	for i, w := range args {
		v := ""
		switch {
		case w.S == "-c" && i+1 < len(args):
			v = args[i+1].S
		case strings.HasPrefix(w.S, "-c") && len(w.S) > 2:
			v = w.S[2:]
		}
		if k, body, ok := strings.Cut(v, "="); ok && strings.HasPrefix(k, "alias.") && strings.HasPrefix(body, "!") {
			out = append(out, body[1:])
		}
	}
	return out
}

// shellGlobbed: w holds a wildcard the shell expands itself (unquoted and
// unescaped), so the program gets the names it matched, not the pattern.
func shellGlobbed(w shell.Word) bool {
	if w.Node == nil {
		return false
	}
	for _, p := range w.Node.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		for i := 0; i < len(lit.Value); i++ {
			switch lit.Value[i] {
			case '\\':
				i++
			case '*', '?', '[':
				return true
			}
		}
	}
	return false
}
