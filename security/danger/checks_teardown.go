package danger

import (
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Teardown checks found by walking through an agent's scenarios (tearing
// down a demo, freeing disk space, pruning backups): workloads scaled to
// nothing, containers removed with their volumes, swarm services, local
// clusters and VMs, backups and snapshots, private keys, and arrays built
// over disks with --force. Registered in registerOpsScenarios.

// checkScaleToZero: kubectl scale --replicas=0 of every workload (--all) or
// a computed list takes a namespace down at once.
func checkScaleToZero(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if !contains(args, "scale") {
		return Verdict{}
	}
	zero := contains(args, "--replicas=0") || func() bool {
		vs := optionValues(c.Args[1:], "--replicas", "--replicas")
		return len(vs) > 0 && vs[0] == "0"
	}()
	all := contains(args, "--all") || contains(args, "-A") || contains(args, "--all-namespaces") || c.MoreArgs
	return hitIf(zero && all, "kubectl-scale-all")
}

// checkVgreduce: --removemissing --force drops every logical volume that had
// extents on a missing disk.
func checkVgreduce(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	return hitIf(o.Long["removemissing"] && o.Has("f", "force") && !o.Has("t", "test"), "storage-teardown")
}

// checkContainerVolumes: docker rm -v of a container not named as scratch
// takes its anonymous volumes (a database's data directory) with it; volume
// rm --all every volume; service rm a swarm service, node rm -f a live node.
func checkContainerVolumes(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	if len(ops) > 0 && ops[0] == "container" {
		ops = ops[1:]
	}
	switch {
	case len(ops) >= 2 && ops[0] == "rm" && o.Has("v", "volumes") && !allTemporaryStr(ops[1:]):
		return hit("docker-prune-all")
	case len(ops) >= 2 && ops[0] == "volume" && (ops[1] == "rm" || ops[1] == "remove") && o.Has("a", "all"):
		return hit("docker-prune-all")
	case len(ops) >= 3 && ops[0] == "service" && (ops[1] == "rm" || ops[1] == "remove") && !allTemporaryStr(ops[2:]):
		return hit("container-teardown") // a swarm service with every replica
	case len(ops) >= 3 && ops[0] == "node" && (ops[1] == "rm" || ops[1] == "remove") && o.Has("f", "force"):
		return hit("container-teardown")
	}
	return Verdict{}
}

// checkLocalCluster: vagrant destroy, minikube/kind/k3d delete of every
// cluster or a purge, which take the machines' disks with them; a machine
// named as disposable (allNonProd: a CI runner's, a lab's) may go. virsh is
// judged by checkVirsh.
func checkLocalCluster(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "np")
	ops := shell.Lits(o.Operands)
	if len(ops) == 0 || o.Has("h", "help") {
		return Verdict{}
	}
	switch c.Name {
	case "vagrant":
		return hitIf(ops[0] == "destroy" && !allNonProd(ops[1:]), "cluster-teardown")
	case "minikube":
		return hitIf(ops[0] == "delete" && (o.Long["all"] || o.Long["purge"]), "cluster-teardown")
	case "multipass":
		return hitIf(ops[0] == "delete" && (o.Has("p", "purge") || o.Long["all"]) && !allNonProd(ops[1:]), "cluster-teardown")
	case "lxc", "incus":
		return hitIf(ops[0] == "delete" && len(ops) > 1 && !allNonProd(ops[1:]), "cluster-teardown")
	}
	// kind delete clusters --all; k3d cluster delete --all
	return hitIf(contains(ops, "delete") && o.Has("a", "all"), "cluster-teardown")
}

// checkBackupDelete: borg delete, restic forget of named snapshots or all
// but one, rclone purge and rclone sync onto a remote (which deletes there
// whatever the source lacks).
func checkBackupDelete(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "r")
	ops := shell.Lits(o.Operands)
	if len(ops) == 0 || o.Has("n", "dry-run") {
		return Verdict{}
	}
	switch c.Name {
	case "borg":
		if ops[0] == "extract" {
			return borgExtract(c)
		}
		return hitIf(ops[0] == "delete" && !allTemporaryStr(ops[1:]) || ops[0] == "prune" && (keepsAtMostOne(c.Args, "--keep-last") || shortWithin(c.Args)), "backup-delete")
	case "restic":
		switch {
		case ops[0] == "restore":
			return resticRestore(c)
		case ops[0] == "key" && len(ops) > 1 && ops[1] == "remove":
			return hit("backup-key-remove")
		case ops[0] != "forget":
			return Verdict{}
		case shortWithin(c.Args):
			return hit("backup-delete")
		}
		policy := false
		for k := range o.Long {
			policy = policy || strings.HasPrefix(k, "keep-")
		}
		return hitIf(!policy && len(ops) > 1 || keepsAtMostOne(c.Args, "--keep-last") && len(o.Long) <= 3, "backup-delete")
	case "tmutil":
		return hitIf(ops[0] == "delete", "backup-delete")
	case "rclone":
		switch ops[0] {
		case "purge":
			return hitIf(len(ops) < 2 || !temporaryName(ops[1]), "backup-delete")
		case "delete":
			return hitIf(strings.Contains(ops[len(ops)-1], ":") && !temporaryName(ops[len(ops)-1]), "backup-delete")
		case "sync":
			if strings.Contains(ops[len(ops)-1], ":") && !temporaryName(ops[len(ops)-1]) {
				return hitIf(len(optionValues(c.Args[1:], "", "--backup-dir")) == 0, "backup-delete")
			}
		}
		return rcloneModes(c, ops)
	}
	return Verdict{}
}

// checkGroupmod: renaming or renumbering a group that grants root breaks
// sudo for everyone in it (or, renamed back, grants it to another group).
func checkGroupmod(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "ngRP")
	if !o.Has("ng", "new-name", "gid") {
		return Verdict{}
	}
	for _, w := range o.Operands {
		if privilegedGroups[w.S] {
			return hit("account-change")
		}
	}
	for _, v := range append(optionValues(c.Args[1:], "-n", "--new-name"), optionValues(c.Args[1:], "-g", "--gid")...) {
		if privilegedGroups[v] || v == "0" {
			return hit("account-change")
		}
	}
	return Verdict{}
}

func keepsAtMostOne(args []shell.Word, opt string) bool {
	for _, v := range optionValues(args[1:], opt, opt) {
		if n, err := strconv.Atoi(v); err == nil && n <= 1 {
			return true
		}
	}
	return false
}

// checkGhAPI: gh api -X DELETE of a repository or one of its branches.
func checkGhAPI(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "XHfFqtp")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || ops[0] != "api" {
		return Verdict{}
	}
	del := false
	for _, m := range append(optionValues(c.Args[1:], "-X", "--method"), "") {
		del = del || strings.EqualFold(m, "DELETE")
	}
	path := strings.Trim(ops[len(ops)-1], "/")
	parts := strings.Split(path, "/")
	repo := len(parts) == 3 && parts[0] == "repos"
	branch := len(parts) >= 6 && parts[0] == "repos" && parts[3] == "git" && parts[4] == "refs" && parts[5] == "heads"
	return hitIf(del && (repo || branch), "cloud-teardown")
}

// checkMdadmCreate: mdadm --create --force over disks overwrites what they
// held without asking (the same as zpool create -f).
func checkMdadmCreate(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "lnxcepbaNuCmMsf")
	return hitIf(o.Has("C", "create") && o.Long["force"] && !o.Long["help"], "storage-teardown")
}

// checkSecretKeyDelete: gpg --delete-secret-keys removes a private key;
// without a backup, whatever was encrypted to it stays unreadable.
func checkSecretKeyDelete(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		switch w.S {
		case "--delete-secret-keys", "--delete-secret-key", "--delete-secret-and-public-key", "--delete-secret-and-public-keys":
			return hit("secret-key-delete")
		}
	}
	return Verdict{}
}

// checkNomad: nomad job stop -purge removes a job with its history.
func checkNomad(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	purge := hasWord(c.Args, "-purge") || hasWord(c.Args, "--purge")
	return hitIf(len(ops) > 2 && ops[0] == "job" && ops[1] == "stop" && purge && !temporaryName(ops[len(ops)-1]), "cluster-teardown")
}
