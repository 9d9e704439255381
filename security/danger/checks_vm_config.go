package danger

import (
	"path"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// A guest's disk images and configuration: qemu-img writing over or into an
// image (create over a guest's disk, commit into a shared backing file,
// snapshots deleted or applied), vzdump pruning every backup but one, and a
// container given the host (Incus/LXC's security.privileged or the host's
// root as a disk, systemd-nspawn binding /) or its API opened to every
// address (incus core.https_address, podman system service on tcp).

func init() {
	for name, f := range map[string]func(shell.Command, int) Verdict{
		"qemu-img": checkQemuImg, "vzdump": checkVzdump, "systemd-nspawn": checkNspawnHost, "podman": checkPodmanService,
		"incus": checkIncusConfig, "lxc": checkIncusConfig,
	} {
		addHostCheck(name, f)
	}
}

// vmDiskImage: a guest's disk image in a hypervisor's image store, or any
// qcow2/vmdk/vdi/vhdx file, not named as disposable (scratch/, ci-runner-19).
func vmDiskImage(p string) bool {
	ext := path.Ext(p)
	inStore := strings.HasPrefix(p, "/var/lib/libvirt/images/") || strings.HasPrefix(p, "/var/lib/vz/images/")
	if !inStore && ext != ".qcow2" && ext != ".vmdk" && ext != ".vdi" && ext != ".vhdx" {
		return false
	}
	for _, comp := range strings.Split(strings.TrimSuffix(p, ext), "/") {
		if comp != "" && (nonProdTarget(comp) || isScratchName(comp)) {
			return false
		}
	}
	return inStore || strings.HasPrefix(p, "/")
}

func checkQemuImg(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], shell.Set("f", "F", "b", "o", "O", "l", "d", "c", "a", "t", "T", "backing", "object", "image-opts"))
	if len(ops) < 2 || helpAsked(shell.Lits(c.Args[1:])) {
		return Verdict{}
	}
	img := ops[len(ops)-1]
	switch ops[0] {
	case "create":
		if len(ops) >= 3 {
			img = ops[1] // create FILE SIZE
		}
		return hitIf(vmDiskImage(img) && len(optionValues(c.Args[1:], "-b", "--backing")) == 0, "overwrite-protected")
	case "commit":
		return hit("overwrite-protected") // into the backing file other overlays share
	case "snapshot":
		if len(optionValues(c.Args[1:], "-d", "-d")) > 0 && !disposableGuest(img) {
			return hit("backup-delete")
		}
		return hitIf(len(optionValues(c.Args[1:], "-a", "-a")) > 0 && !disposableGuest(img), "overwrite-protected")
	}
	return Verdict{}
}

// checkVzdump: --remove 1 with a prune policy keeping one backup (or
// maxfiles 1) deletes every older one.
func checkVzdump(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if !contains(args, "--remove") && !strings.Contains(strings.Join(args, " "), "--remove=1") {
		return Verdict{}
	}
	for _, v := range append(optionValues(c.Args[1:], "--prune-backups", "--prune-backups"), optionValues(c.Args[1:], "--maxfiles", "--maxfiles")...) {
		keep := 0 // keep-last=1,keep-daily=0 or maxfiles 1
		for _, kv := range strings.Split(v, ",") {
			_, n, found := strings.Cut(kv, "=")
			if !found {
				n = kv
			}
			k, err := strconv.Atoi(n)
			if err != nil {
				k = 2 // keep-all=1 and the like keep more than one
			}
			keep += k
		}
		if keep <= 1 {
			return hit("backup-delete")
		}
	}
	return Verdict{}
}

// checkNspawnHost: systemd-nspawn binding the host's root (or /etc, /root)
// into the container.
func checkNspawnHost(c shell.Command, _ int) Verdict {
	for _, v := range append(optionValues(c.Args[1:], "--bind", "--bind"), optionValues(c.Args[1:], "--bind-ro", "--bind-ro")...) {
		src, _, _ := strings.Cut(v, ":")
		if src == "/" || src == "/etc" || src == "/root" || src == "/var/run/docker.sock" {
			return hit("host-root-container")
		}
	}
	return Verdict{}
}

// checkPodmanService: podman system service on a tcp address other than
// loopback serves the container API (root on the host) with no auth.
func checkPodmanService(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], shell.Set("t", "time"))
	if len(ops) < 3 || ops[0] != "system" || ops[1] != "service" {
		return Verdict{}
	}
	addr, ok := strings.CutPrefix(ops[2], "tcp:")
	host, _, _ := strings.Cut(strings.TrimPrefix(addr, "//"), ":")
	return hitIf(ok && !loopbackHost(host), "firewall-open")
}

// checkIncusConfig: config set NAME security.privileged=true, a disk device
// whose source is the host's root, core.https_address on every address.
func checkIncusConfig(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], shell.Set("project", "target"))
	if len(ops) < 3 || ops[0] != "config" {
		return Verdict{}
	}
	joined := strings.Join(ops, " ")
	switch {
	case ops[1] == "set" && (strings.Contains(joined, "security.privileged=true") || strings.Contains(joined, "security.privileged true") ||
		strings.Contains(joined, "raw.lxc=lxc.apparmor.profile=unconfined")):
		return hit("host-root-container")
	case ops[1] == "device" && ops[2] == "add" && (contains(ops, "source=/") || contains(ops, "source=/etc") || contains(ops, "source=/root")):
		return hit("host-root-container")
	case ops[1] == "set" && strings.Contains(joined, "core.https_address"):
		for _, o := range ops {
			addr := strings.TrimPrefix(o, "core.https_address=")
			if strings.HasPrefix(addr, "0.0.0.0") || strings.HasPrefix(addr, "[::]") || strings.HasPrefix(addr, ":") {
				return hit("firewall-open")
			}
		}
	}
	return Verdict{}
}
