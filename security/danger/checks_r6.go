package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Host and remote checks from the round-6 probes: unmounting the system's
// own trees, turning all swap off, ACLs that open system trees, and deletes
// of remote resources whose loss breaks others (releases, CI secrets,
// secrets in Vault, named volumes).

func init() {
	addHostCheck("umount", checkUmount)
	addHostCheck("swapoff", checkSwapoff)
	addHostCheck("setfacl", checkSetfacl)
	addHostCheck("gh", checkGhDelete)
	addHostCheck("vault", checkVaultDelete)
	for _, name := range []string{"docker", "podman", "nerdctl"} {
		addHostCheck(name, checkVolumeRm)
	}
}

// checkUmount: unmounting (lazily or by force, or everything with -a) a
// tree the system runs from: the root, /usr, /var, /home, /boot.
func checkUmount(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "tO")
	if o.Has("a", "all") && !o.Has("t", "types") {
		return hit("unmount-system")
	}
	for _, w := range o.Operands {
		if systemMount(fsPath(w)) {
			return hit("unmount-system")
		}
	}
	return Verdict{}
}

// systemMount: a directory the running system needs mounted.
func systemMount(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	comps := components(path.Clean(p))
	if len(comps) == 0 {
		return true
	}
	switch comps[0] {
	case "usr", "var", "home", "boot", "etc", "proc", "sys", "dev", "run", "opt", "srv", "root", "nix":
		return len(comps) == 1 || comps[0] == "boot" && comps[len(comps)-1] == "efi" || comps[0] == "var" && (comps[1] == "lib" || comps[1] == "log")
	}
	return false
}

// checkSwapoff: -a turns every swap area off at once; on a machine short
// of memory the kernel then kills processes to make room.
func checkSwapoff(c shell.Command, _ int) Verdict {
	return hitIf(shell.ParseOpts(c.Args[1:], "").Has("a", "all"), "swap-off")
}

// checkSetfacl judges ACL changes as chmod is judged: recursively over a
// system or home tree, or opening a system file to others.
func checkSetfacl(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "mMxX")
	var paths []shell.Word
	var specs []string
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "-m" || a == "-x" || a == "--modify" || a == "--remove" || a == "--set":
			if i+1 < len(args) {
				specs = append(specs, args[i+1].S)
				i++
			}
		case strings.HasPrefix(a, "--modify=") || strings.HasPrefix(a, "--set="):
			_, v, _ := strings.Cut(a, "=")
			specs = append(specs, v)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.ContainsAny(a[len(a)-1:], "mMxX") && i+1 < len(args) {
				specs = append(specs, args[i+1].S)
				i++
			}
		default:
			paths = append(paths, args[i])
		}
	}
	if o.Has("R", "recursive") {
		return checkSystemTree(paths)
	}
	for _, s := range specs {
		if aclGrantsWrite(s) || o.Has("b", "remove-all") {
			return checkSystemFiles(paths)
		}
	}
	if o.Has("b", "remove-all") {
		return checkSystemFiles(paths)
	}
	return Verdict{}
}

// aclGrantsWrite: an ACL entry giving others or a named user write or
// execute (o::rwx, u:nobody:rw, m::rwx).
func aclGrantsWrite(spec string) bool {
	for _, e := range strings.Split(spec, ",") {
		parts := strings.Split(e, ":")
		perm := parts[len(parts)-1]
		if len(parts) >= 2 && strings.ContainsAny(perm, "wx") {
			return true
		}
	}
	return false
}

// ghDeletes are the gh subcommands that delete a remote resource others use.
var ghDeletes = shell.Set("release", "secret", "variable", "ssh-key", "gpg-key", "environment", "deploy-key", "cache")

// checkGhDelete: gh release delete, gh secret delete, gh variable delete,
// gh cache delete --all; names that say they are temporary pass.
func checkGhDelete(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "RRenbo").Operands)
	if len(ops) < 2 || hasWord(c.Args, "--help") {
		return Verdict{}
	}
	if ops[0] == "repo" && len(ops) > 2 && ops[1] == "deploy-key" {
		ops = ops[1:]
	}
	if !ghDeletes[ops[0]] || ops[1] != "delete" && ops[1] != "remove" {
		return Verdict{}
	}
	if ops[0] == "cache" {
		return hitIf(hasWord(c.Args, "--all") || hasWord(c.Args, "-a"), "remote-delete")
	}
	for _, name := range ops[2:] {
		if !temporaryName(name) && !scratchWord.MatchString(name) {
			return hit("remote-delete")
		}
	}
	return hitIf(len(ops) == 2, "remote-delete")
}

// checkVaultDelete: vault kv delete (the latest version, until undeleted:
// every reader fails meanwhile) and vault delete of a secret path.
func checkVaultDelete(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	var p string
	switch {
	case len(ops) >= 3 && ops[0] == "kv" && ops[1] == "delete":
		p = ops[2]
	case len(ops) >= 2 && ops[0] == "delete":
		p = ops[1]
	default:
		return Verdict{}
	}
	return hitIf(!temporaryName(p), "remote-delete")
}

// checkVolumeRm: docker volume rm NAME deletes the data in a named volume
// (a database's files, uploads); names that say they are disposable
// (tmp, test, cache, -old) pass.
func checkVolumeRm(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "H").Operands)
	for i := 0; i+1 < len(ops); i++ {
		if ops[i] != "volume" || ops[i+1] != "rm" && ops[i+1] != "remove" {
			continue
		}
		for _, name := range ops[i+2:] {
			if strings.Contains(name, shell.DynMark) {
				continue // a computed list: docker-prune-all judges it
			}
			if !temporaryName(name) && !scratchWord.MatchString(name) && !scratchNames[name] {
				return hit("volume-delete")
			}
		}
	}
	return Verdict{}
}

// leaseRewinds: --force-with-lease=BRANCH:EXPECT names a shared branch and
// the value it must have, which makes the lease whatever the caller says:
// the branch is overwritten (git push --force-with-lease=main:HEAD~3).
func leaseRewinds(args []shell.Word) bool {
	for _, w := range args {
		v, ok := strings.CutPrefix(w.S, "--force-with-lease=")
		if !ok {
			continue
		}
		if ref, _, _ := strings.Cut(v, ":"); sharedBranch(ref) {
			return true
		}
	}
	return false
}

// ancestorRev: a revision that names an ancestor (HEAD~3, main^, abc123~2):
// pushed over a branch, it rewinds it.
func ancestorRev(r string) bool {
	return strings.ContainsAny(r, "~^")
}
