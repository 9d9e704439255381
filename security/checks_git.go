package security

import "strings"

// Checks for git commands that lose history others depend on, or files git
// cannot bring back.

var gitValueOpts = set("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path")

func checkGit(c command, _ int) Verdict {
	args := c.args[1:]
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		if gitValueOpts[args[i].s] {
			i++
		}
		i++
	}
	if i >= len(args) {
		return Verdict{}
	}
	sub, rest := args[i].s, args[i+1:]
	switch sub {
	case "push":
		return checkGitPush(rest)
	case "clean":
		o := parseOpts(rest, "e")
		return hitIf(o.has("f", "force") && !o.has("n", "dry-run") && o.has("dx"), "git-clean")
	case "filter-branch", "filter-repo":
		return hitIf(!hasWord(rest, "--help") && !hasWord(rest, "--analyze"), "git-rewrite-history")
	case "reflog":
		return checkReflog(rest)
	}
	return Verdict{}
}

// checkReflog: `git reflog expire --expire=now --all` (or --expire-unreachable=now)
// drops the safety net that makes reset and rebase recoverable.
func checkReflog(args []word) Verdict {
	if len(args) == 0 || args[0].s != "expire" {
		return Verdict{}
	}
	for _, w := range args[1:] {
		_, v, ok := strings.Cut(w.s, "=")
		if ok && strings.HasPrefix(w.s, "--expire") && (v == "now" || v == "all" || v == "0") {
			return hit("git-rewrite-history")
		}
	}
	return Verdict{}
}

// sharedBranch reports whether a branch is one a team usually shares.
func sharedBranch(b string) bool {
	b = strings.TrimPrefix(b, "refs/heads/")
	switch b {
	case "main", "master", "develop", "development", "trunk", "production":
		return true
	}
	return strings.HasPrefix(b, "release")
}

func checkGitPush(args []word) Verdict {
	o := parseOpts(args, "o")
	if o.has("", "mirror", "prune") {
		return hit("git-push-mirror")
	}
	force := o.has("f", "force") && !o.has("", "dry-run") || o.long["force-if-includes"] && !o.long["force-with-lease"]
	del := o.has("d", "delete")
	if len(o.operands) < 2 {
		return Verdict{}
	}
	for _, ref := range o.operands[1:] {
		r, plus := strings.CutPrefix(ref.s, "+")
		src, dst, colon := strings.Cut(r, ":")
		if !colon {
			dst = src
		}
		if sharedBranch(dst) && (force || plus || del || (colon && src == "")) {
			return hit("git-force-push-main")
		}
	}
	return Verdict{}
}
