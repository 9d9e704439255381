package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Checks for git commands that lose history others depend on, or files git
// cannot bring back.

var gitValueOpts = shell.Set("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path")

// gitSubcommand: the index in args (git's own arguments) of the subcommand,
// after the global options (-C DIR, -c KEY=VALUE, --git-dir=DIR, -P);
// len(args) when there is none.
func gitSubcommand(args []shell.Word) int {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].S, "-") {
		if gitValueOpts[args[i].S] {
			i++
		}
		i++
	}
	return min(i, len(args))
}

func checkGit(c shell.Command, depth int) Verdict {
	args := c.Args[1:]
	for _, body := range gitAliasBodies(args) {
		if v := classifyShell(shell.ForParser(body, Shell), depth+1); v.Dangerous {
			return via(v, "a git alias")
		}
	}
	i := gitSubcommand(args)
	if i >= len(args) {
		return Verdict{}
	}
	sub, rest := args[i].S, args[i+1:]
	if expiresNowByConfig(args[:i], sub, rest) {
		return hit("git-rewrite-history")
	}
	switch sub {
	case "push":
		return checkGitPush(rest)
	case "clean":
		o := shell.ParseOpts(rest, "e")
		// -X alone removes only ignored files (build output); -f alone still
		// removes every untracked file.
		return hitIf(o.Has("f", "force") && !o.Has("n", "dry-run") && !(o.Has("X") && !o.Has("x")) && !onlyScratch(o.Operands), "git-clean")
	case "filter-branch", "filter-repo":
		return hitIf(!hasWord(rest, "--help") && !hasWord(rest, "--analyze"), "git-rewrite-history")
	case "reflog":
		return checkReflog(rest)
	case "config": // git config [--global] alias.x '!cmd': the command runs whenever x is typed
		for j, w := range rest[:max(len(rest)-1, 0)] {
			if body, ok := strings.CutPrefix(rest[j+1].S, "!"); ok && strings.HasPrefix(w.S, "alias.") {
				return via(classifyShell(shell.ForParser(body, Shell), depth+1), "a git alias")
			}
		}
	}
	if c.MoreArgs { // xargs git branch -D: the names arrive on stdin
		rest = append(rest[:len(rest):len(rest)], shell.Word{S: shell.DynMark})
	}
	return checkGitWork(sub, rest, depth)
}

// checkReflog: `git reflog expire --expire=now --all` (or --expire-unreachable=now)
// drops the safety net that makes reset and rebase recoverable; `git reflog
// delete HEAD@{1}` drops the entries it names, one by one.
func checkReflog(args []shell.Word) Verdict {
	if len(args) > 1 && args[0].S == "delete" {
		o := shell.ParseOpts(args[1:], "")
		return hitIf(!o.Has("n", "dry-run") && len(o.Operands) > 0, "git-rewrite-history")
	}
	if len(args) == 0 || args[0].S != "expire" {
		return Verdict{}
	}
	for _, w := range args[1:] {
		_, v, ok := strings.Cut(w.S, "=")
		if ok && strings.HasPrefix(w.S, "--expire") && (v == "now" || v == "all" || v == "0") {
			return hit("git-rewrite-history")
		}
	}
	return Verdict{}
}

// sharedBranch reports whether a branch is one a team usually shares.
// throwawayBranch: a branch named as an experiment (feature/spike-graphql-poc,
// wip/parser, experiment-cache): nobody's work waits on it, unlike a
// feature or release branch that may hold commits not yet merged.
var throwawayBranch = regexp.MustCompile(`(?i)(?:^|[-_/.])(?:spike|poc|wip|experiment|experiments|prototype|playground|throwaway|try)(?:$|[-_/.\d])`).MatchString

func sharedBranch(b string) bool {
	b = strings.TrimPrefix(b, "refs/heads/")
	switch b {
	case "main", "master", "develop", "development", "trunk", "production":
		return true
	}
	return strings.HasPrefix(b, "release")
}

func checkGitPush(args []shell.Word) Verdict {
	o := shell.ParseOpts(args, "o")
	// A dry run (-n, --dry-run, bundled as -nf) reports what a push would
	// do and changes no remote, whatever else it is told to do.
	if o.Has("n", "dry-run") {
		return Verdict{}
	}
	if o.Has("", "mirror", "prune") {
		return hit("git-push-mirror")
	}
	force := o.Has("f", "force") || o.Long["force-if-includes"] && !o.Long["force-with-lease"]
	del := o.Has("d", "delete")
	// Forced with no refspec (every matching or the current branch), or
	// forced over every branch: unpushed history on the remote is lost.
	if (force || o.Long["force-with-lease"]) && o.Has("", "all", "branches") || force && len(o.Operands) < 2 {
		return hit("git-force-push-all")
	}
	if leaseRewinds(args) {
		return hit("git-force-push-main")
	}
	if len(o.Operands) < 2 {
		return Verdict{}
	}
	for _, ref := range o.Operands[1:] {
		r, plus := strings.CutPrefix(ref.S, "+")
		src, dst, colon := strings.Cut(r, ":")
		if !colon {
			dst = src
		}
		// HEAD or a computed name is whatever branch is checked out: as
		// unnamed as a push with no refspec.
		if (force || plus) && (dst == "HEAD" || dst == "@" || ref.Dyn()) {
			return hit("git-force-push-all")
		}
		// A lease protects others' pushes, not the branch: HEAD:main or
		// topic:main with it replaces main with another branch's history.
		lease := o.Long["force-with-lease"] && (ancestorRev(src) || colon && src != dst)
		if sharedBranch(dst) && (force || plus || del || (colon && src == "") || lease) {
			return hit("git-force-push-main")
		}
		// A release tag deleted on the remote is a published release
		// withdrawn: what others pin, fetch and build from by its name.
		if tag, ok := strings.CutPrefix(dst, "refs/tags/"); ok && (del || colon && src == "") && !temporaryName(tag) && !throwawayBranch(tag) {
			return hit("remote-delete")
		}
		if (del || colon && src == "") && !temporaryName(dst) && !throwawayBranch(dst) && !strings.HasPrefix(dst, "refs/tags/") {
			return hit("git-delete-remote-branch")
		}
	}
	return Verdict{}
}

// expiresNowByConfig: git's global -c key=value settings are its
// configuration for this run, so -c gc.pruneExpire=now before gc (or
// gc.reflogExpire=now before reflog expire) is gc --prune=now, reflog expire
// --expire=now: the objects and entries that made earlier states
// recoverable go at once.
func expiresNowByConfig(global []shell.Word, sub string, rest []shell.Word) bool {
	if sub != "gc" && !(sub == "reflog" && len(rest) > 0 && rest[0].S == "expire") {
		return false
	}
	for j, w := range global {
		kv, ok := strings.CutPrefix(w.S, "-c")
		if !ok {
			continue
		}
		if kv == "" && j+1 < len(global) {
			kv = global[j+1].S
		}
		key, val, _ := strings.Cut(kv, "=")
		switch strings.ToLower(key) {
		case "gc.pruneexpire", "gc.reflogexpire", "gc.reflogexpireunreachable":
			if val == "now" || val == "all" || val == "0" {
				return true
			}
		}
	}
	return false
}
