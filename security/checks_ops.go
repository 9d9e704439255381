package security

import "strings"

// checkCommand judges one simple command by the program that really runs.
func checkCommand(c command, depth int) Verdict {
	if strings.Contains(c.name, dynMark) {
		return checkDynamicName(c, depth)
	}
	if f := commandCheck(c.name); f != nil {
		return f(c, depth)
	}
	return Verdict{}
}

func commandCheck(name string) func(command, int) Verdict {
	switch name {
	case "rm":
		return checkRm
	case "unlink":
		return checkUnlink
	case "find":
		return checkFind
	case "shred":
		return checkShred
	case "mke2fs", "mkswap", "wipefs", "mkntfs":
		return checkMkfs
	case "dd":
		return checkDd
	case "tee":
		return checkTee
	case "sed":
		return checkSed
	case "cp", "mv", "install", "ln":
		return checkCopy
	case "truncate":
		return checkTruncate
	case "chmod":
		return checkChmod
	case "chown", "chgrp":
		return checkChown
	case "shutdown", "reboot", "halt", "poweroff":
		return checkShutdown
	case "init", "telinit":
		return checkInit
	case "systemctl":
		return checkSystemctl
	case "kill":
		return checkKill
	case "git":
		return checkGit
	case "terraform", "tofu":
		return checkTerraform
	case "kubectl", "oc":
		return checkKubectl
	case "docker", "podman":
		return checkDocker
	case "redis-cli", "valkey-cli":
		return checkRedis
	case "dropdb", "mysqladmin":
		return checkDropdb
	}
	return interpreterCheck(name)
}

// dynamicRules are the rules a command whose name is computed at run time is
// checked against: "$X -rf /" is judged as if $X were rm.
var dynamicRules = map[string]string{
	"rm": "rm-recursive-force", "chmod": "chmod-recursive-777", "chown": "chmod-chown-system",
	"dd": "dd-device", "find": "find-delete", "kill": "kill-all",
}

func checkDynamicName(c command, depth int) Verdict {
	for _, name := range []string{"rm", "chmod", "chown", "dd", "find", "kill"} {
		c.name = name
		v := commandCheck(name)(c, depth)
		if v.Dangerous && (v.Rule == dynamicRules[name] || v.Rule == "chmod-chown-system") {
			v.Why = strings.TrimSuffix(v.Why, ".") + " (the program name is computed at run time and was judged as " + name + ")."
			return v
		}
	}
	return Verdict{}
}

func checkShutdown(c command, _ int) Verdict {
	for _, w := range c.args[1:] {
		if w.s == "-c" || w.s == "--help" || w.s == "--version" {
			return Verdict{}
		}
	}
	return hit("shutdown")
}

func checkInit(c command, _ int) Verdict {
	for _, w := range c.args[1:] {
		if w.s == "0" || w.s == "6" {
			return hit("shutdown")
		}
	}
	return Verdict{}
}

var powerVerbs = set("poweroff", "reboot", "halt", "kexec", "soft-reboot")

func checkSystemctl(c command, _ int) Verdict {
	if ops := parseOpts(c.args[1:], "HMtpsno").operands; len(ops) > 0 && powerVerbs[ops[0].s] {
		return hit("shutdown")
	}
	return Verdict{}
}

// checkKill flags a signal to pid -1 (every process the user may signal).
func checkKill(c command, _ int) Verdict {
	args := lits(c.args[1:])
	if len(args) == 1 && args[0] == "-1" {
		return hit("kill-all")
	}
	i := 0
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-s" || a == "-n":
			i = 2
		case strings.HasPrefix(a, "-") && a != "--":
			i = 1
		}
	}
	if i < len(args) && args[i] == "--" {
		i++
	}
	for ; i < len(args); i++ {
		if args[i] == "-1" {
			return hit("kill-all")
		}
	}
	return Verdict{}
}

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
	switch args[i].s {
	case "push":
		return checkGitPush(args[i+1:])
	case "clean":
		o := parseOpts(args[i+1:], "e")
		if o.has("f", "force") && !o.has("n", "dry-run") && o.has("dx") {
			return hit("git-clean")
		}
	}
	return Verdict{}
}

func checkGitPush(args []word) Verdict {
	o := parseOpts(args, "o")
	force, del := o.has("f", "force"), o.has("d", "delete")
	if len(o.operands) < 2 {
		return Verdict{}
	}
	for _, ref := range o.operands[1:] {
		r, plus := strings.CutPrefix(ref.s, "+")
		src, dst, colon := strings.Cut(r, ":")
		if !colon {
			dst = src
		}
		dst = strings.TrimPrefix(dst, "refs/heads/")
		if (dst == "main" || dst == "master") && (force || plus || del || (colon && src == "")) {
			return hit("git-force-push-main")
		}
	}
	return Verdict{}
}

func checkTerraform(c command, _ int) Verdict {
	for _, w := range c.args[1:] {
		if strings.HasPrefix(w.s, "-") {
			continue
		}
		if w.s == "destroy" {
			return hit("terraform-destroy")
		}
		if w.s == "apply" {
			for _, f := range c.args[1:] {
				if f.s == "-destroy" || f.s == "--destroy" {
					return hit("terraform-destroy")
				}
			}
		}
		break
	}
	return Verdict{}
}

func checkKubectl(c command, _ int) Verdict {
	args := lits(c.args[1:])
	del := -1
	for i, a := range args {
		if a == "delete" {
			del = i
			break
		}
	}
	if del < 0 {
		return Verdict{}
	}
	kindSeen := false
	for _, a := range args[del+1:] {
		switch {
		case a == "--all" || a == "-A" || a == "--all-namespaces":
			return hit("kubectl-delete-namespace")
		case strings.HasPrefix(a, "-"):
		case !kindSeen:
			kindSeen = true
			kind, _, _ := strings.Cut(strings.ToLower(a), "/")
			if kind == "ns" || kind == "namespace" || kind == "namespaces" {
				return hit("kubectl-delete-namespace")
			}
		}
	}
	return Verdict{}
}

func checkDocker(c command, _ int) Verdict {
	o := parseOpts(c.args[1:], "")
	ops := lits(o.operands)
	for i := 0; i+1 < len(ops); i++ {
		if ops[i+1] != "prune" {
			continue
		}
		if (ops[i] == "system" && o.has("a", "all", "volumes")) || (ops[i] == "volume" && o.has("a", "all")) {
			return hit("docker-prune-all")
		}
	}
	return Verdict{}
}

func checkRedis(c command, _ int) Verdict {
	for _, w := range c.args {
		if strings.EqualFold(w.s, "flushall") || strings.EqualFold(w.s, "flushdb") {
			return hit("redis-flush")
		}
	}
	return Verdict{}
}

func checkDropdb(c command, _ int) Verdict {
	if c.name == "mysqladmin" {
		for _, w := range c.args[1:] {
			if strings.EqualFold(w.s, "drop") {
				return hit("dropdb")
			}
		}
		return Verdict{}
	}
	if len(parseOpts(c.args[1:], "hpU").operands) > 0 {
		return hit("dropdb")
	}
	return Verdict{}
}
