package security

import (
	"path"
	"strings"
)

// Checks for commands that delete, overwrite or re-permission files and disks.

func checkRm(c command, _ int) Verdict {
	o := parseOpts(c.args[1:], "")
	recursive := o.has("rR", "recursive") || o.dynFlag
	if o.long["no-preserve-root"] {
		return hit("rm-recursive-force")
	}
	for _, w := range o.operands {
		if recursive && isImportant(w.s) {
			return hit("rm-recursive-force")
		}
		if isCriticalFile(w.s) {
			return hit("rm-system-file")
		}
	}
	return Verdict{}
}

func checkUnlink(c command, _ int) Verdict {
	for _, w := range parseOpts(c.args[1:], "").operands {
		if isCriticalFile(w.s) {
			return hit("rm-system-file")
		}
	}
	return Verdict{}
}

var deleters = set("rm", "shred", "unlink", "rmdir")

func checkFind(c command, depth int) Verdict {
	args := c.args[1:]
	i := 0
	for i < len(args) && (args[i].s == "-H" || args[i].s == "-L" || args[i].s == "-P" || strings.HasPrefix(args[i].s, "-O")) {
		i++
	}
	var starts []word
	for ; i < len(args) && !findExpr(args[i].s); i++ {
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []word{{s: "."}}
	}
	deletes := false
	for expr := args[i:]; len(expr) > 0; expr = expr[1:] {
		switch expr[0].s {
		case "-delete":
			deletes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			sub := findExec(expr[1:])
			expr = expr[len(sub):]
			if len(sub) == 0 {
				continue
			}
			sc := unwrap(sub)
			if v := checkCommand(sc, depth); v.Dangerous {
				return v
			}
			deletes = deletes || deleters[sc.name]
		}
	}
	for _, s := range starts {
		if deletes && isImportant(s.s) && !isTempDir(s.s) {
			return hit("find-delete")
		}
	}
	return Verdict{}
}

func findExpr(s string) bool {
	return (len(s) > 1 && s[0] == '-') || s == "(" || s == "!" || s == ")" || s == ","
}

// findExec returns the command of -exec up to its ";" or "+", with "{}"
// standing for the (run-time) file name.
func findExec(ws []word) []word {
	var out []word
	for _, w := range ws {
		if w.s == ";" || w.s == "+" {
			break
		}
		out = append(out, word{s: strings.ReplaceAll(w.s, "{}", dynMark), node: w.node})
	}
	return out
}

func checkShred(c command, _ int) Verdict {
	for _, w := range parseOpts(c.args[1:], "ns").operands {
		if isBlockDevice(w.s) || isSystemFile(w.s) || isImportant(w.s) {
			return hit("shred")
		}
	}
	return Verdict{}
}

// checkMkfs: mkfs*, mke2fs, mkswap, wipefs -a on a device (an image file is fine).
func checkMkfs(c command, _ int) Verdict {
	o := parseOpts(c.args[1:], "")
	if c.name == "wipefs" && !o.has("a", "all") {
		return Verdict{}
	}
	for _, w := range o.operands {
		if strings.HasPrefix(w.s, "/dev/") || w.dyn() {
			return hit("mkfs")
		}
	}
	return Verdict{}
}

func checkDd(c command, _ int) Verdict {
	for _, w := range c.args[1:] {
		if target, ok := strings.CutPrefix(w.s, "of="); ok {
			if isBlockDevice(target) {
				return hit("dd-device")
			}
			return checkWriteTarget(target)
		}
	}
	return Verdict{}
}

func checkTee(c command, _ int) Verdict {
	for _, w := range parseOpts(c.args[1:], "").operands {
		if v := checkWriteTarget(w.s); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

func checkSed(c command, _ int) Verdict {
	inPlace := false
	for _, w := range c.args[1:] {
		a := w.s
		inPlace = inPlace || strings.HasPrefix(a, "--in-place") ||
			(len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(strings.SplitN(a, "e", 2)[0], "i"))
	}
	if !inPlace {
		return Verdict{}
	}
	for _, w := range c.args[1:] {
		if isSystemFile(w.s) {
			return hit("write-system-file")
		}
	}
	return Verdict{}
}

// checkCopy: cp, mv, install, ln onto a device or a system file.
func checkCopy(c command, _ int) Verdict {
	args := c.args[1:]
	var targets []string
	for i, w := range args {
		if w.s == "-t" && i+1 < len(args) {
			targets = append(targets, args[i+1].s)
		}
		if t, ok := strings.CutPrefix(w.s, "--target-directory="); ok {
			targets = append(targets, t)
		}
	}
	ops := parseOpts(args, "tSmog").operands
	if len(ops) >= 2 {
		targets = append(targets, ops[len(ops)-1].s)
	}
	if c.name == "mv" && len(ops) >= 2 && len(targets) == 1 {
		for _, src := range ops[:len(ops)-1] {
			if isCriticalFile(src.s) || isSystemFile(src.s) && len(components(path.Clean(src.s))) <= 2 {
				return hit("rm-system-file") // moved away, it is as gone as deleted
			}
		}
	}
	for _, t := range targets {
		if v := checkWriteTarget(t); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

func checkTruncate(c command, _ int) Verdict {
	for _, w := range parseOpts(c.args[1:], "sr").operands {
		if isSystemFile(w.s) {
			return hit("write-system-file")
		}
	}
	return Verdict{}
}

// checkRsync: rsync --delete* whose destination is a root, system or home
// directory (or the working directory): files missing from the source are
// deleted there. A remote destination (host:path) is judged by its path.
func checkRsync(c command, _ int) Verdict {
	o := parseOpts(c.args[1:], "efBTM")
	deletes := false
	for l := range o.long {
		deletes = deletes || strings.HasPrefix(l, "del")
	}
	if !deletes || len(o.operands) < 2 {
		return Verdict{}
	}
	dest := o.operands[len(o.operands)-1].s
	if m := remoteLike.FindString(dest); m != "" && !strings.Contains(m, "/") {
		dest = strings.TrimPrefix(dest, m)
		if dest == "" || !strings.HasPrefix(dest, "/") {
			dest = "~/" + dest
		}
	}
	if isImportant(dest) || isSystemFile(dest) || len(components(dest)) == 0 && !strings.HasPrefix(dest, "/") {
		return hit("rsync-delete")
	}
	return Verdict{}
}

// partitionReadOnly are the options with which a partitioning tool only
// reads (lists, prints, dumps); anything else may rewrite the table.
var partitionReadOnly = map[string]struct {
	short string
	long  []string
}{
	"fdisk":  {"lhV", []string{"list", "help", "version"}},
	"gdisk":  {"l", nil},
	"cfdisk": {"hV", []string{"help", "version"}},
	"sfdisk": {"ldJsVgFh", []string{"list", "dump", "json", "show-size", "verify", "show-geometry", "list-free", "help", "version"}},
	"parted": {"lhv", []string{"list", "help", "version"}},
	"sgdisk": {"piv", []string{"print", "info", "verify", "list-types", "print-mbr", "help", "version"}},
}

var partedReadCmds = set("print", "p", "unit", "s", "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "%", "cyl", "chs", "compact", "free", "all", "help", "version")

// checkPartition: fdisk, sfdisk, gdisk, cfdisk, parted, sgdisk and
// blkdiscard on a disk device, unless only reading the partition table.
func checkPartition(c command, _ int) Verdict {
	o := parseOpts(c.args[1:], "LuoabcCHS")
	dev := -1
	for i, w := range o.operands {
		if strings.HasPrefix(w.s, "/dev/") || strings.HasPrefix(w.s, dynMark) {
			dev = i
			break
		}
	}
	if dev < 0 {
		return Verdict{}
	}
	if c.name == "blkdiscard" {
		return hit("partition-disk")
	}
	ro := partitionReadOnly[c.name]
	if o.has(ro.short, ro.long...) {
		if c.name != "sgdisk" || strings.Trim(o.short, ro.short) == "" {
			return Verdict{}
		}
	}
	if c.name == "parted" && dev+1 < len(o.operands) {
		for _, w := range o.operands[dev+1:] {
			if !partedReadCmds[strings.ToLower(w.s)] {
				return hit("partition-disk")
			}
		}
		return Verdict{}
	}
	return hit("partition-disk")
}

// isAuthorizedKeys: ~/.ssh/authorized_keys and friends anywhere.
func isAuthorizedKeys(p string) bool {
	b := path.Base(p)
	return b == "authorized_keys" || b == "authorized_keys2"
}
