package danger

import (
	"path"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// A host's lifecycle, judged by whether it can take the host (or the way in
// to it) down: boot entries, boot loaders and release upgrades that decide
// whether the next boot comes back, kexec into another kernel, the clock set
// by hand, every process of a cgroup killed, a service's resources cut to
// nothing, and package installs with their signatures unchecked.

func init() {
	rules = append(rules,
		rule{"boot-break", catAvail,
			"This changes what the machine boots (its boot entries or order, its boot loader, its whole OS release), so it may not come back after its next reboot.",
			sh("efibootmgr -b 0003 -B", "sudo efibootmgr --bootorder 0004,0001", "bootctl remove", "grub-install --force /dev/nvme0n1",
				"do-release-upgrade", "sudo do-release-upgrade -f DistUpgradeViewNonInteractive", "dnf system-upgrade reboot"),
			sh("efibootmgr", "efibootmgr -v", "sudo efibootmgr -n 0004", "bootctl status", "sudo bootctl update", "update-grub", "grub-install --help",
				"do-release-upgrade -c", "do-release-upgrade --help", "dnf system-upgrade download --releasever=41 --assumeno")},
		rule{"clock-set", catAvail,
			"This sets the system clock by hand or stops its synchronisation; certificates, tokens, Kerberos, logs and cluster leases all depend on the time.",
			sh("sudo date -s '2019-01-01 00:00:00'", "date --set=@0", "timedatectl set-time '2020-02-02 10:00'", "sudo timedatectl set-ntp false", "hwclock --set --date '2001-01-01'"),
			sh("date", "date -u +%FT%TZ", "date -d yesterday +%F", "timedatectl status", "sudo timedatectl set-timezone UTC", "sudo timedatectl set-ntp true", "hwclock --show")},
	)
	for name, f := range map[string]func(shell.Command, int) Verdict{
		"efibootmgr": checkEfibootmgr, "bootctl": checkBootctl, "grub-install": checkGrubInstall, "grub2-install": checkGrubInstall,
		"do-release-upgrade": checkReleaseUpgrade, "kexec": checkKexec, "date": checkDateSet, "timedatectl": checkTimedatectl,
		"hwclock": checkDateSet,
	} {
		addHostCheck(name, f)
	}
	addHostCheck("dnf", checkReleaseUpgrade)
	addHostCheck("systemctl", checkSetProperty)
}

// checkEfibootmgr: -B deletes a boot entry, -o rewrites the boot order (-O
// deletes it), -A makes an entry inactive; -n (the next boot only) and
// listing pass.
func checkEfibootmgr(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		switch a := w.S; {
		case a == "--delete-bootnum" || a == "--bootorder" || strings.HasPrefix(a, "--bootorder=") || a == "--inactive" || a == "--delete-bootorder":
			return hit("boot-break")
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "BoAO"):
			return hit("boot-break")
		}
	}
	return Verdict{}
}

func checkBootctl(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], nil)
	return hitIf(len(ops) > 0 && ops[0] == "remove", "boot-break")
}

// checkGrubInstall: --force writes the loader where grub-install had
// refused to (a disk without room, a blocklist install).
func checkGrubInstall(c shell.Command, _ int) Verdict {
	return hitIf(hasWord(c.Args, "--force") && !hasWord(c.Args, "--help"), "boot-break")
}

// checkReleaseUpgrade: do-release-upgrade, dnf system-upgrade reboot.
func checkReleaseUpgrade(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if c.Name == "dnf" {
		return hitIf(contains(args, "system-upgrade") && contains(args, "reboot"), "boot-break")
	}
	for _, a := range args {
		if a == "-c" || a == "--check-dist-upgrade-only" || a == "-h" || a == "--help" || a == "-V" {
			return Verdict{}
		}
	}
	return hit("boot-break")
}

// checkKexec: kexec -e, or a kernel loaded and run at once (no -l, -p, -u),
// reboots into it without the firmware.
func checkKexec(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "t")
	if o.Has("e", "exec") {
		return hit("shutdown")
	}
	if o.Has("h", "help") || o.Has("l", "load") || o.Has("p", "load-panic") || o.Has("u", "unload") || o.Has("v", "version") || o.Long["status"] || o.Has("S", "status") {
		return Verdict{}
	}
	return hitIf(len(o.Operands) > 0, "shutdown")
}

// checkDateSet: date -s/--set, hwclock --set or --date with --systohc.
func checkDateSet(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		a := w.S
		if a == "-s" || a == "--set" || strings.HasPrefix(a, "--set=") || c.Name == "date" && strings.HasPrefix(a, "-s") && len(a) > 2 && !strings.HasPrefix(a, "--") {
			return hit("clock-set")
		}
	}
	return Verdict{}
}

func checkTimedatectl(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], nil)
	if len(ops) < 2 {
		return Verdict{}
	}
	switch ops[0] {
	case "set-time":
		return hit("clock-set")
	case "set-ntp":
		return hitIf(ops[1] == "false" || ops[1] == "no" || ops[1] == "0" || ops[1] == "off", "clock-set")
	}
	return Verdict{}
}

// checkSetProperty: systemctl set-property UNIT MemoryMax=64M (or a CPU
// quota, a task limit) starves a service not named as disposable; raising a
// limit passes.
func checkSetProperty(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], shell.Set("H", "host", "M", "machine"))
	if len(ops) < 3 || ops[0] != "set-property" || nonProdTarget(ops[1]) {
		return Verdict{}
	}
	for _, kv := range ops[2:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "MemoryMax", "MemoryHigh", "MemoryLimit":
			if n, ok := byteSize(v); ok && n < 256<<20 {
				return hit("stop-system-service")
			}
		case "CPUQuota":
			if n, err := strconv.Atoi(strings.TrimSuffix(v, "%")); err == nil && strings.HasSuffix(v, "%") && n < 10 {
				return hit("stop-system-service")
			}
		case "TasksMax":
			if n, err := strconv.Atoi(v); err == nil && n < 16 {
				return hit("stop-system-service")
			}
		}
	}
	return Verdict{}
}

// byteSize parses systemd's sizes (64M, 1G, 512K, 1048576).
func byteSize(v string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "K"):
		mult, v = 1<<10, strings.TrimSuffix(v, "K")
	case strings.HasSuffix(v, "M"):
		mult, v = 1<<20, strings.TrimSuffix(v, "M")
	case strings.HasSuffix(v, "G"):
		mult, v = 1<<30, strings.TrimSuffix(v, "G")
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n * mult, err == nil
}

// cgroupKill: a write to cgroup.kill kills every process in the cgroup: a
// slice (system.slice, user.slice) or the root is every service or session;
// a service's own cgroup named as disposable (a CI runner's) passes.
func cgroupKill(p string) Verdict {
	if !strings.HasPrefix(p, "/sys/fs/cgroup") || path.Base(p) != "cgroup.kill" {
		return Verdict{}
	}
	dir := path.Base(path.Dir(p))
	switch {
	case dir == "cgroup" || strings.HasSuffix(dir, ".slice"):
		return hit("kill-all")
	case nonProdTarget(strings.TrimSuffix(strings.TrimSuffix(dir, ".service"), ".scope")):
		return Verdict{}
	}
	return hit("stop-system-service")
}
