package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Host checks found missing by walking through an agent's everyday scenarios
// (uninstalling a service, opening a tunnel, onboarding an account, debugging
// the network): essential packages removed, code run from scratch
// directories, reverse and public tunnels, renamed privileged groups, editors
// that write the sudoers file unseen, aliases over sudo, live logs emptied
// and default routes dropped. registerOpsScenarios also wires the teardown
// checks of checks_teardown.go.

func registerOpsScenarios() {
	for name, f := range map[string]func(shell.Command, int) Verdict{
		"apt": checkPackageRemove, "apt-get": checkPackageRemove, "aptitude": checkPackageRemove, "dpkg": checkPackageRemove,
		"yum": checkPackageRemove, "dnf": checkPackageRemove, "zypper": checkPackageRemove, "rpm": checkPackageRemove,
		"pacman": checkPackageRemove, "apk": checkPackageRemove, "snap": checkPackageRemove,
		"systemctl": checkUnitInstall, "ssh": checkSSHTunnel, "autossh": checkSSHTunnel,
		"kubectl": checkScaleToZero, "oc": checkScaleToZero, "groupmod": checkGroupmod, "vgreduce": checkVgreduce,
		"docker": checkContainerVolumes, "podman": checkContainerVolumes, "nerdctl": checkContainerVolumes,
		"vagrant": checkLocalCluster, "minikube": checkLocalCluster, "kind": checkLocalCluster, "k3d": checkLocalCluster,
		"borg": checkBackupDelete, "restic": checkBackupDelete, "rclone": checkBackupDelete, "gh": checkGhAPI,
		"git": checkGitScratch, "ngrok": checkTunnelService, "chisel": checkTunnelService,
		"mdadm": checkMdadmCreate, "gpg": checkSecretKeyDelete, "gpg2": checkSecretKeyDelete,
		"multipass": checkLocalCluster, "lxc": checkLocalCluster, "incus": checkLocalCluster,
		"nomad": checkNomad, "tmutil": checkBackupDelete, "rc-update": checkInitScripts, "ip": checkRouteFlush,
		"podman-compose": checkPodmanCompose, "alias": checkAliasShadow, "find": checkFindLogs, "update-rc.d": checkInitScripts, "chkconfig": checkInitScripts, "insmod": hitAlways("security-off"),
	} {
		addHostCheck(name, f)
	}
}

// essentialPackages are the packages without which the machine no longer
// boots, lets anyone log in remotely or become root, or installs packages.
var essentialPackages = shell.Set("openssh-server", "openssh", "ssh", "sshd", "systemd", "systemd-sysv", "sudo", "doas",
	"libc6", "glibc", "musl", "coreutils", "bash", "dpkg", "apt", "rpm", "dnf", "yum", "pacman", "apk-tools",
	"kernel", "kernel-core", "linux-image-generic", "linux-image-amd64", "linux", "linux-lts", "grub-pc", "grub2", "grub-efi-amd64", "init", "login", "passwd",
	"util-linux", "network-manager", "netplan.io", "python3", "perl-base", "e2fsprogs", "lvm2", "cryptsetup", "shim-signed")

// removeVerbs of the package managers above (apk del, pacman -R, rpm -e, dpkg -P).
var removeVerbs = shell.Set("remove", "purge", "erase", "autoremove", "del", "rm", "uninstall", "-r", "-P", "-e", "--remove", "--purge", "--erase")

// checkPackageRemove: removing a package the system needs (ssh server, init,
// sudo, libc, the kernel, the package manager itself).
func checkPackageRemove(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	verb := -1
	for i, a := range args {
		if removeVerbs[a] || c.Name == "pacman" && strings.HasPrefix(a, "-R") {
			verb = i
			break
		}
	}
	if verb < 0 || contains(args, "--simulate") || contains(args, "-s") && c.Name != "pacman" || contains(args, "--dry-run") {
		return Verdict{}
	}
	purge := contains(args, "purge") || contains(args, "-P") || contains(args, "--purge")
	for _, a := range args[verb+1:] {
		a, _, _ = strings.Cut(a, "=")
		wild := strings.HasSuffix(a, "*")
		a = strings.TrimSuffix(strings.TrimSuffix(a, ":amd64"), "*")
		// one old kernel by its version (linux-image-6.1.0-18-amd64) is
		// housekeeping; the meta package or a wildcard is every kernel.
		versioned := !wild && (versionAfter(a, "linux-image-") || versionAfter(a, "kernel-core-") || versionAfter(a, "kernel-"))
		if essentialPackages[a] || !versioned && (strings.HasPrefix(a, "linux-image-") && !strings.Contains(a, "unsigned") || strings.HasPrefix(a, "kernel-") && a != "kernel-devel") {
			return hit("remove-system-package")
		}
		if purge && dataPackage(a) {
			return hit("delete-protected-tree")
		}
	}
	return Verdict{}
}

func versionAfter(pkg, prefix string) bool {
	rest, ok := strings.CutPrefix(pkg, prefix)
	return ok && rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// scratchDirs are world-writable or wiped at boot: nothing that runs at every
// boot should be installed from there.
func inScratchDir(p string) bool {
	for _, d := range []string{"/tmp/", "/var/tmp/", "/dev/shm/", "/run/user/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// hiddenLaunch: code run at every login that starts a program kept out of
// sight — a dot-named executable, or one in a cache or a temporary
// directory (nohup ~/.cache/.agent &, setsid /dev/shm/upd): something no
// package installed, made to come back by itself. Sourcing a dotfile
// (. ~/.cargo/env, source ~/.fzf.bash) is how tools set a shell up.
func hiddenLaunch(text string) bool {
	f, err := shell.Parse(shell.ForParser(text, Shell))
	if err != nil {
		return false
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || found {
			return !found
		}
		c, ok := shell.BuildCommand(call)
		switch {
		case !ok:
		case c.Name == "source" || c.Name == ".":
			found = len(c.Args) > 1 && inScratchDir(c.Args[1].S)
		default:
			found = hiddenProgram(c.Args[0].S)
		}
		return !found
	})
	return found
}

// hiddenProgram: a program named by a path whose file is hidden or which
// lies in a cache or temporary directory.
func hiddenProgram(p string) bool {
	if !strings.Contains(p, "/") {
		return false // found on PATH
	}
	base := path.Base(p)
	return strings.HasPrefix(base, ".") && strings.Trim(base, ".") != "" || inScratchDir(p) ||
		strings.Contains(p, "/.cache/") || strings.Contains(p, "/Library/Caches/")
}

// checkUnitInstall: systemctl enable/link of a unit file kept in /tmp or /dev/shm.
func checkUnitInstall(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "HMtpsno").Operands)
	if len(ops) < 2 || ops[0] != "enable" && ops[0] != "link" && ops[0] != "reenable" && ops[0] != "preset" {
		return Verdict{}
	}
	for _, u := range ops[1:] {
		if inScratchDir(u) {
			return hit("run-from-scratch")
		}
	}
	return Verdict{}
}

// checkSSHTunnel: ssh -R (or -o RemoteForward) to a host other than this one
// opens a way back into this machine from the far side.
func checkSSHTunnel(c shell.Command, _ int) Verdict {
	remote := false
	for _, v := range optionValues(c.Args[1:], "-o", "") {
		remote = remote || strings.HasPrefix(strings.ToLower(v), "remoteforward")
	}
	args := c.Args[1:]
	host := ""
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "-R" || strings.HasPrefix(a, "-R"):
			remote = true
			if a == "-R" {
				i++
			}
		case len(a) > 1 && a[0] == '-' && !strings.HasPrefix(a, "--"):
			// a cluster such as -fNR: the value of its last option follows.
			if strings.ContainsRune(a, 'R') {
				remote = true
			}
			if strings.ContainsAny(a[len(a)-1:], "bcDEeFIiJLlmOopQRSWw") {
				i++
			}
		case host == "":
			host = a
		}
	}
	_, h, ok := strings.Cut(host, "@")
	if !ok {
		h = host
	}
	return hitIf(remote && h != "" && !loopbackHost(h), "ssh-reverse-tunnel")
}

// privilegedCommands are the programs whose password prompt or whose effect
// an alias could capture or replace unseen.
var privilegedCommands = shell.Set("sudo", "su", "doas", "ssh", "passwd", "scp", "gpg", "pkexec")

// checkAliasShadow: alias sudo='…' that runs something other than sudo.
func checkAliasShadow(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		name, body, ok := strings.Cut(w.S, "=")
		if !ok || !privilegedCommands[name] {
			continue
		}
		if f := strings.Fields(body); len(f) > 0 && f[0] == name && len(f) > 1 && strings.Contains(f[1], "/") {
			return hit("startup-inject") // sudo /tmp/x: runs a script with every sudo
		}
		if f := strings.Fields(body); len(f) > 0 && f[0] != name && !systemProgram(f[0], name) {
			return hit("startup-inject")
		}
	}
	return Verdict{}
}

// systemProgram: path is name in one of the system's program directories.
func systemProgram(path, name string) bool {
	for _, d := range []string{"/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/local/bin/", "/opt/homebrew/bin/"} {
		if path == d+name {
			return true
		}
	}
	return false
}

// editorCommands edit the account, sudo or cron databases through $EDITOR.
var editorCommands = shell.Set("visudo", "sudoedit", "vipw", "vigr", "crontab", "edquota")

// scriptedEditors write what they read instead of opening an editor.
var scriptedEditors = shell.Set("tee", "sed", "sh", "bash", "cp", "dd", "cat", "perl", "python3", "awk", "ed", "ex", "true")

// checkEditorAssign: EDITOR='tee -a' visudo writes the sudoers file from
// stdin, without the review an editor gives.
func checkEditorAssign(call *syntax.CallExpr) Verdict {
	c, ok := shell.BuildCommand(call)
	if !ok || !editorCommands[c.Name] {
		return Verdict{}
	}
	settings := []string{}
	for _, a := range call.Assigns {
		if a.Name != nil {
			settings = append(settings, a.Name.Value+"="+shell.ResolveWord(a.Value).S)
		}
	}
	for _, w := range call.Args {
		settings = append(settings, shell.ResolveWord(w).S) // sudo EDITOR='tee -a' visudo
	}
	for _, kv := range settings {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || name != "EDITOR" && name != "VISUAL" && name != "SUDO_EDITOR" {
			continue
		}
		f := strings.Fields(val)
		if len(f) > 0 && scriptedEditors[f[0][strings.LastIndexByte(f[0], '/')+1:]] {
			return hit("account-change")
		}
	}
	return Verdict{}
}

// logArchiveSuffixes name rotated copies; deleting old ones is routine.
var logArchiveSuffixes = []string{".gz", ".xz", ".bz2", ".zst", ".1", ".old"}

// checkFindLogs: find /var/log … -delete or -exec truncate/shred/rm {} empties
// the live system logs, unless it is narrowed to old files or to rotated
// archives (-mtime -2, -newer X select the most recent: the live ones).
func checkFindLogs(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if len(args) == 0 || !strings.HasPrefix(args[0], "/var/log") {
		return Verdict{}
	}
	destroys := false
	for i, a := range args {
		switch {
		case a == "-mtime" || a == "-mmin" || a == "-ctime" || a == "-cmin" || a == "-atime":
			// older than N: retention; -N is what was written lately, the live logs
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				return Verdict{}
			}
		case (a == "-name" || a == "-iname") && i+1 < len(args):
			for _, s := range logArchiveSuffixes {
				if strings.HasSuffix(strings.TrimSuffix(args[i+1], "*"), s) {
					return Verdict{}
				}
			}
		case a == "-delete":
			destroys = true
		case (a == "-exec" || a == "-execdir") && i+1 < len(args):
			switch args[i+1] {
			case "truncate", "shred", "rm", "cp":
				destroys = true
			}
		}
	}
	return hitIf(destroys, "log-tamper")
}

// checkInitScripts: update-rc.d -f NAME remove, chkconfig NAME off of a
// critical service (sshd, networking, cron) keeps it off from the next boot.
func checkInitScripts(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if c.Name == "rc-update" && len(ops) > 1 && (ops[0] == "del" || ops[0] == "delete") {
		ops = []string{ops[1], "remove"} // rc-update del sshd default
	}
	if len(ops) < 2 || ops[1] != "remove" && ops[1] != "off" && ops[1] != "disable" {
		return Verdict{}
	}
	return hitIf(criticalUnit(ops[0]) || securityServices[ops[0]], "stop-service")
}

// checkGitScratch: git config core.hooksPath (or core.fsmonitor,
// core.sshCommand) pointing into a scratch directory runs whatever is put
// there at every commit or fetch; git lfs migrate import --everything
// rewrites every branch.
func checkGitScratch(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	for i, a := range args {
		switch strings.ToLower(a) {
		case "core.hookspath", "core.fsmonitor", "core.sshcommand", "core.pager":
			if i+1 < len(args) && inScratchDir(args[i+1]) {
				return hit("run-from-scratch")
			}
		case "migrate":
			if i > 0 && args[i-1] == "lfs" && i+1 < len(args) && args[i+1] != "info" && contains(args, "--everything") && !contains(args, "--no-rewrite") {
				return hit("git-rewrite-history")
			}
		}
	}
	return Verdict{}
}

// preloadsScratch: export LD_PRELOAD=/tmp/x.so makes every program this
// shell starts load code from a scratch directory.
func preloadsScratch(name, val string) bool {
	return (name == "LD_PRELOAD" || name == "DYLD_INSERT_LIBRARIES") && inScratchDir(val)
}

// remoteAdminPorts give a shell or the whole machine to whoever reaches them.
var remoteAdminPorts = shell.Set("22", "2222", "3389", "5900", "2375", "2376", "6443", "10250")

// checkTunnelService: ngrok tcp 22 publishes this machine's SSH (or RDP, VNC,
// Docker API) on the internet; chisel client … R:… is a reverse tunnel.
func checkTunnelService(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) < 2 {
		return Verdict{}
	}
	if c.Name == "chisel" {
		for _, op := range ops[1:] {
			if ops[0] == "client" && strings.HasPrefix(op, "R:") {
				return hit("ssh-reverse-tunnel")
			}
		}
		return Verdict{}
	}
	port := ops[1][strings.LastIndexByte(ops[1], ':')+1:]
	return hitIf(ops[0] == "tcp" && remoteAdminPorts[port], "ssh-reverse-tunnel")
}

// checkRouteFlush: ip route del default / ip route flush of a whole table
// cuts the machine off, remote sessions first.
func checkRouteFlush(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) < 2 || ops[0] != "route" && ops[0] != "r" && ops[0] != "ro" {
		return Verdict{}
	}
	switch ops[1] {
	case "del", "delete", "d":
		return hitIf(len(ops) > 2 && (ops[2] == "default" || ops[2] == "0.0.0.0/0"), "stop-service")
	case "flush", "f":
		whole := len(ops) > 3 && ops[2] == "table" && (ops[3] == "main" || ops[3] == "all" || ops[3] == "254")
		return hitIf(whole || len(ops) > 2 && (ops[2] == "all" || ops[2] == "default" || ops[2] == "0/0"), "stop-service")
	}
	return Verdict{}
}

// checkPodmanCompose judges podman-compose as docker-compose (down -v).
func checkPodmanCompose(c shell.Command, depth int) Verdict {
	c.Name = "docker-compose"
	return checkDocker(c, depth)
}
