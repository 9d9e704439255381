package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Checks for tearing down storage: LVM, ZFS, encrypted volumes, RAID
// members, subvolumes and whole devices.

func firstTemporary(ops []shell.Word) bool {
	return len(ops) > 0 && temporaryName(ops[0].S)
}

// checkStorageRemove: lvremove, vgremove, pvremove of anything not named as scratch.
func checkStorageRemove(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "S")
	return hitIf(len(o.Operands) > 0 && !firstTemporary(o.Operands) && !o.Has("t", "test") && !(c.Name == "lvremove" && lvmSnapshot(o.Operands)), "storage-teardown")
}

func checkZpool(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "oOmR")
	ops := shell.Lits(o.Operands)
	create := len(ops) > 1 && ops[0] == "create" && o.Has("f", "")
	return hitIf(len(ops) > 1 && (ops[0] == "destroy" || ops[0] == "labelclear") || create, "storage-teardown")
}

// checkZfs: destroy of a dataset (a snapshot only with -r/-R) and rollback,
// which destroys everything written since the snapshot. -n is a dry run.
func checkZfs(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "o")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || o.Has("n", "") || temporaryName(ops[1]) {
		return Verdict{}
	}
	if v := zfsModes(ops, o); v.Dangerous {
		return v
	}
	switch ops[0] {
	case "destroy":
		_, snap, isSnap := strings.Cut(ops[1], "@")
		return hitIf(!isSnap || o.Has("rR", "") || backupSnapshot.MatchString(snap), "storage-teardown")
	case "rollback":
		return hit("storage-teardown")
	}
	return Verdict{}
}

// backupSnapshot: a snapshot named for a backup schedule (nightly-2026-11-25,
// daily, autosnap_…_weekly, pre-upgrade backups): a restore point, unlike a
// leftover one.
var backupSnapshot = regexp.MustCompile(`(?i)nightly|daily|weekly|monthly|hourly|backup|autosnap|zfs-auto-snap`)

func checkCryptsetup(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "cdhksSy").Operands)
	if len(ops) > 1 && strings.HasPrefix(ops[1], "/dev/loop") {
		return Verdict{} // a loop device is an image file being built or tested
	}
	// luksHeaderRestore writes a saved header over the device's: its key
	// slots are replaced, and a header of another device makes it unreadable
	return hitIf(len(ops) > 0 && (ops[0] == "erase" || ops[0] == "luksErase" || ops[0] == "luksKillSlot" || ops[0] == "luksFormat" || ops[0] == "luksHeaderRestore"), "storage-teardown")
}

func checkMdadm(c shell.Command, _ int) Verdict {
	return hitIf(hasWord(c.Args, "--zero-superblock"), "storage-teardown")
}

func checkBtrfs(c shell.Command, _ int) Verdict {
	ops := shell.ParseOpts(c.Args[1:], "").Operands
	if len(ops) < 3 {
		return Verdict{}
	}
	verb := ops[0].S + " " + ops[1].S
	return hitIf((verb == "subvolume delete" || verb == "sub del" || verb == "subvolume del") && !temporaryName(ops[2].S), "storage-teardown")
}

func checkNvme(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	return hitIf(len(ops) > 1 && (ops[0] == "format" || ops[0] == "sanitize"), "storage-teardown")
}

func checkHdparm(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		if strings.HasPrefix(w.S, "--security-erase") || w.S == "--trim-sector-ranges" {
			return hit("storage-teardown")
		}
	}
	return Verdict{}
}

func checkDmsetup(c shell.Command, _ int) Verdict {
	return hitIf(hasWord(c.Args, "remove_all") || hasWord(c.Args, "wipe_table"), "storage-teardown")
}

// checkLvreduce: shrinking a volume without resizing its filesystem (-r)
// cuts the filesystem's end off.
func checkLvreduce(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "Ll")
	return hitIf(!o.Has("rt", "resizefs", "test") && len(o.Operands) > 0, "storage-teardown")
}

func checkCeph(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "c").Operands)
	if len(ops) > 2 && ops[0] == "osd" && (ops[1] == "purge" || ops[1] == "destroy") {
		return hit("storage-teardown") // the OSD's data and its place in the map
	}
	return hitIf(len(ops) > 2 && (ops[0] == "osd" || ops[0] == "fs") && ops[1] == "pool" && (ops[2] == "delete" || ops[2] == "rm") ||
		len(ops) > 1 && ops[0] == "fs" && (ops[1] == "rm" || ops[1] == "fail"), "storage-teardown")
}

// checkLvresize: lvresize/lvextend with a negative size (-L -5G) shrinks the
// volume, and without -r the filesystem on it is cut.
func checkLvresize(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "Ll")
	if o.Has("rt", "resizefs", "test") {
		return Verdict{}
	}
	for _, v := range append(optionValues(c.Args[1:], "-L", "--size"), optionValues(c.Args[1:], "-l", "--extents")...) {
		if strings.HasPrefix(v, "-") {
			return hit("storage-teardown")
		}
	}
	return Verdict{}
}

// checkLvconvert: --merge rolls the origin back to a snapshot, losing every
// write since; --splitmirrors/--uncache --force drop copies of the data.
func checkLvconvert(c shell.Command, _ int) Verdict {
	return hitIf(hasWord(c.Args, "--merge") || hasWord(c.Args, "--mergesnapshot"), "storage-teardown")
}

// checkGluster: gluster volume delete/stop and peer detach of a volume's brick host.
func checkGluster(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	return hitIf(len(ops) > 2 && ops[0] == "volume" && (ops[1] == "delete" || ops[1] == "remove-brick") && !temporaryName(ops[2]), "storage-teardown")
}
