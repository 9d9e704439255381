package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Checks for commands that delete, overwrite or re-permission files and disks.

func checkRm(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	recursive := o.Has("rR", "recursive") || o.DynFlag
	if o.Long["no-preserve-root"] {
		return hit("rm-recursive-force")
	}
	for _, w := range o.Operands {
		p := fsPath(w)
		if regenerable(p) {
			continue
		}
		if recursive && isImportant(p) {
			return hit("rm-recursive-force")
		}
		if isCriticalFile(p) {
			return hit("rm-system-file")
		}
	}
	return deleteVerdict(o.Operands, recursive)
}

// bulkGlob: a glob that deletes a folder's entries, or all of a person's
// photos or documents in it, as a recursive deletion would (rm ~/Documents/*).
func bulkGlob(p string) bool {
	base := path.Base(p)
	ext := path.Ext(base)
	return broadGlob(base) || broadGlob(strings.TrimSuffix(base, ext)) && userDataExt[strings.ToLower(ext)] ||
		!strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && sourceGlob(base)
}

// deleteVerdict judges the deletion of paths by the filesystem effect model.
// A path computed by $(ls ...) or $(find ...) is judged by what they list.
func deleteVerdict(paths []shell.Word, recursive bool) Verdict {
	for _, w := range paths {
		if p, ok := substProducer(w); ok && producesProtected(p, recursive) {
			return hit("delete-protected-tree")
		}
		p := fsPath(w)
		v := fileVerdict(p)
		if recursive || bulkGlob(p) {
			v = treeVerdict(p)
		}
		if v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

func checkUnlink(c shell.Command, _ int) Verdict {
	for _, w := range shell.ParseOpts(c.Args[1:], "").Operands {
		if isCriticalFile(w.S) {
			return hit("rm-system-file")
		}
	}
	return Verdict{}
}

var deleters = shell.Set("rm", "shred", "unlink", "rmdir")

func checkFind(c shell.Command, depth int) Verdict {
	args := c.Args[1:]
	i := 0
	for i < len(args) && (args[i].S == "-H" || args[i].S == "-L" || args[i].S == "-P" || strings.HasPrefix(args[i].S, "-O")) {
		i++
	}
	var starts []shell.Word
	for ; i < len(args) && !findExpr(args[i].S); i++ {
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []shell.Word{{S: "."}}
	}
	if v := checkFindOrder(c, starts, args[i:], depth); v.Dangerous {
		return v
	}
	deletes := false
	for expr := args[i:]; len(expr) > 0; expr = expr[1:] {
		switch expr[0].S {
		case "-delete":
			deletes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			sub := findExec(expr[1:])
			expr = expr[len(sub):]
			if len(sub) == 0 {
				continue
			}
			sc := shell.Unwrap(sub)
			if v := checkCommand(sc, depth); v.Dangerous {
				return v
			}
			if v := checkFindExecSelected(sc, starts, args[i:], depth); v.Dangerous {
				return v
			}
			shDel, _ := shellDeletesArgs(sc)
			deletes = deletes || deleters[sc.Name] || shDel || interpDeletesArgs(sc)
		}
	}
	if findEmptyOnly(args[i:]) {
		return Verdict{} // -empty: only empty files and directories go
	}
	for _, s := range starts {
		// Below a home or a system directory (not the root), a name test
		// for artifacts (*.gz, .DS_Store) selects only those.
		sub := classifyPath(fsPath(s)) == pcHome || len(components(path.Clean(s.S))) > 1
		if deletes && isImportant(s.S) && !isTempDir(s.S) && !(sub && findNamed(c) && !findSelectsProtected(c)) {
			return hit("find-delete")
		}
	}
	if deletes && findSelectsProtected(c) {
		return hit("delete-protected-tree")
	}
	return Verdict{}
}

// findNamed: find's expression has a name test (-name, -path, -regex).
func findNamed(c shell.Command) bool {
	_, expr := findSplit(c.Args[1:])
	return slices.ContainsFunc(expr, func(w shell.Word) bool { return findNameTests[w.S] })
}

var findNameTests = shell.Set("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex")

func findExpr(s string) bool {
	return (len(s) > 1 && s[0] == '-') || s == "(" || s == "!" || s == ")" || s == ","
}

// findExec returns the command of -exec up to its ";" or "+", with "{}"
// standing for the (run-time) file name.
func findExec(ws []shell.Word) []shell.Word {
	var out []shell.Word
	for _, w := range ws {
		if w.S == ";" || w.S == "+" {
			break
		}
		out = append(out, shell.Word{S: strings.ReplaceAll(w.S, "{}", shell.DynMark), Node: w.Node})
	}
	return out
}

func checkShred(c shell.Command, _ int) Verdict {
	ops := shell.ParseOpts(c.Args[1:], "ns").Operands
	for _, w := range ops {
		if isBlockDevice(w.S) || isSystemFile(w.S) || isImportant(w.S) {
			return hit("shred")
		}
	}
	return deleteVerdict(ops, false)
}

// checkMkfs: mkfs*, mke2fs, mkswap, wipefs -a on a device (an image file is fine).
func checkMkfs(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	if c.Name == "wipefs" && (!o.Has("a", "all") || o.Has("n", "no-act")) {
		return Verdict{}
	}
	for _, w := range o.Operands {
		if strings.HasPrefix(w.S, "/dev/") && !strings.HasPrefix(w.S, "/dev/loop") || w.Dyn() && !madeByMktemp(w) {
			return hit("mkfs") // (a loop device is an image file being built)
		}
	}
	return Verdict{}
}

// madeByMktemp: $(mktemp …) names a regular file it just made (an image
// being built), never a device.
func madeByMktemp(w shell.Word) bool {
	call := shell.SubstCall(w.Node)
	return call != nil && shell.ShallowLit(call.Args[0].Parts) == "mktemp"
}

func checkDd(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		if target, ok := strings.CutPrefix(w.S, "of="); ok {
			if isBlockDevice(target) {
				return hit("dd-device")
			}
			return checkWriteTarget(target)
		}
	}
	return Verdict{}
}

func checkTee(c shell.Command, _ int) Verdict {
	for _, w := range shell.ParseOpts(c.Args[1:], "").Operands {
		if v := checkWriteTarget(w.S); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

func checkSed(c shell.Command, _ int) Verdict {
	inPlace := false
	for _, w := range c.Args[1:] {
		a := w.S
		inPlace = inPlace || strings.HasPrefix(a, "--in-place") ||
			(len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(strings.SplitN(a, "e", 2)[0], "i"))
	}
	if !inPlace || sedHardens(c) {
		return Verdict{}
	}
	for _, w := range c.Args[1:] {
		if isCriticalFile(w.S) {
			return hit("write-system-file")
		}
		if isAuthorizedKeys(fsPath(w)) {
			return hit("write-authorized-keys") // sed -i '/key/d': who may log in, edited
		}
	}
	return Verdict{}
}

// checkCopy: cp, mv, install, ln onto a device or a system file.
func checkCopy(c shell.Command, _ int) Verdict {
	args := c.Args[1:]
	var targets []string
	for i, w := range args {
		if w.S == "-t" && i+1 < len(args) {
			targets = append(targets, args[i+1].S)
		}
		if t, ok := strings.CutPrefix(w.S, "--target-directory="); ok {
			targets = append(targets, t)
		}
	}
	ops := shell.ParseOpts(args, "tSmog").Operands
	if len(ops) >= 2 {
		targets = append(targets, ops[len(ops)-1].S)
	}
	if c.Name == "mv" && len(ops) >= 2 && len(targets) == 1 {
		for _, src := range ops[:len(ops)-1] {
			if !regenerable(src.S) && (isCriticalFile(src.S) || isSystemFile(src.S) && len(components(path.Clean(src.S))) <= 2) {
				return hit("rm-system-file") // moved away, it is as gone as deleted
			}
		}
	}
	if c.Name == "mv" {
		if v := moveDiscards(c); v.Dangerous {
			return v
		}
	}
	for _, t := range targets {
		if installsOwnFiles(c.Name, ops, t) || c.Name == "cp" && copiesToBackup(ops, t) {
			continue
		}
		if v := checkWriteTarget(t); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

func checkTruncate(c shell.Command, _ int) Verdict {
	for _, w := range shell.ParseOpts(c.Args[1:], "sr").Operands {
		if isCriticalFile(w.S) {
			return hit("write-system-file")
		}
	}
	return Verdict{}
}

// checkRsync: rsync --delete* whose destination is a root, system or home
// directory (or the working directory): files missing from the source are
// deleted there. A remote destination (host:path) is judged by its path.
func checkRsync(c shell.Command, depth int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "efBTM")
	if o.Has("n", "dry-run") {
		return Verdict{} // lists what it would do
	}
	if v := rsyncSideEffects(c, o, depth); v.Dangerous {
		return v
	}
	if v := rsyncModes(o); v.Dangerous {
		return v // by source and target (backup_modes.go)
	}
	deletes := false
	for l := range o.Long {
		deletes = deletes || strings.HasPrefix(l, "del")
	}
	if !deletes || len(o.Operands) < 2 {
		return Verdict{}
	}
	dest := o.Operands[len(o.Operands)-1].S
	if m := shell.RemoteLike.FindString(dest); m != "" && !strings.Contains(m, "/") {
		dest = strings.TrimPrefix(dest, m)
		if dest == "" || !strings.HasPrefix(dest, "/") {
			dest = "~/" + dest
		}
	}
	if isImportant(dest) || isSystemFile(dest) || len(components(dest)) == 0 && !strings.HasPrefix(dest, "/") {
		return hit("rsync-delete")
	}
	// A mounted volume's root holds the whole volume: one tree mirrored
	// onto it deletes everything else there, unless the source is a
	// volume's root too (one disk cloned onto another).
	if mountRoot(dest) && !slices.ContainsFunc(o.Operands[:len(o.Operands)-1], func(w shell.Word) bool { return mountRoot(fsPath(w)) }) {
		return hit("rsync-delete")
	}
	// Mirroring an empty directory is how rsync empties a tree, and so is
	// excluding everything with --delete-excluded.
	if o.Has("n", "dry-run") {
		return Verdict{}
	}
	if o.Long["delete-excluded"] && slices.ContainsFunc(c.Args, func(w shell.Word) bool {
		x, ok := strings.CutPrefix(w.S, "--exclude=")
		return ok && (x == "*" || x == "**" || x == "/*")
	}) {
		return treeVerdict(dest)
	}
	for _, src := range o.Operands[:len(o.Operands)-1] {
		if emptySource.MatchString(fsPath(src)) {
			if v := treeVerdict(dest); v.Dangerous {
				return v
			}
		}
	}
	return rsyncMirror(o)
}

// (E=$(mktemp -d); rsync --delete "$E"/ dest: the directory mktemp just made is empty.)
var emptySource = regexp.MustCompile(`(?i)(?:^|/)(?:empty|blank|null|nothing|void)[^/]*/?$|^/tmp/\x00/?$|^` + regexp.QuoteMeta(shell.MktempDir) + `/?$`)

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

var partedReadCmds = shell.Set("print", "p", "unit", "s", "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "%", "cyl", "chs", "compact", "free", "all", "help", "version")

// checkPartition: fdisk, sfdisk, gdisk, cfdisk, parted, sgdisk and
// blkdiscard on a disk device, unless only reading the partition table.
func checkPartition(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "LuoabcCHS")
	dev := -1
	for i, w := range o.Operands {
		if strings.HasPrefix(w.S, "/dev/") || strings.HasPrefix(w.S, shell.DynMark) {
			dev = i
			break
		}
	}
	if dev < 0 {
		return Verdict{}
	}
	if c.Name == "blkdiscard" {
		return hit("partition-disk")
	}
	ro := partitionReadOnly[c.Name]
	if o.Has(ro.short, ro.long...) {
		if c.Name != "sgdisk" || strings.Trim(o.Short, ro.short) == "" {
			return Verdict{}
		}
	}
	if c.Name == "parted" && dev+1 < len(o.Operands) {
		for _, w := range o.Operands[dev+1:] {
			if !partedReadCmds[strings.ToLower(w.S)] {
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

// mountRoot: the root of a mounted volume — /mnt/X, /media/X or
// /media/USER/X, /run/media/USER/X, /Volumes/X — or /mnt itself.
func mountRoot(p string) bool {
	c := components(p)
	if !strings.HasPrefix(p, "/") || len(c) == 0 {
		return false
	}
	switch c[0] {
	case "mnt":
		return len(c) <= 2
	case "Volumes":
		return len(c) == 2
	case "media":
		return len(c) == 2 || len(c) == 3
	case "run":
		return len(c) == 4 && c[1] == "media"
	}
	return false
}
