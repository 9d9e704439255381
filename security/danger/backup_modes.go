package danger

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// The backup tools' destructive modes, judged by what source and target are:
// a mirror (rsync --delete, rclone sync, aws s3 sync --delete) or a restore
// (restic restore, borg extract, duplicity restore --force) whose target is
// live data replaces and deletes whatever changed there since the copy was
// made; a mirror of an empty source empties its target wherever it is; a
// move (rsync --remove-source-files, rclone move) deletes its source. A
// target that is scratch, a restore check's own directory or a disposable
// host is left alone.

// liveTree reports whether p (a local path, or the path part of host:path)
// is a tree of live service or user data: /srv/…, /var/www, /home/…, a NAS
// volume's homes, or the root itself — unless a component names scratch
// space or a disposable copy (tmp, test, restore-check).
func liveTree(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	c := components(path.Clean(p))
	if len(c) == 0 {
		return true // the root
	}
	for _, comp := range c {
		if isScratchName(comp) || temporaryName(comp) || restoreDir(comp) {
			return false
		}
	}
	switch {
	case c[0] == "srv" || c[0] == "home":
		return true
	case c[0] == "var" && len(c) > 1 && c[1] == "www":
		return true
	case nasVolume.MatchString(c[0]) && len(c) > 1 && c[1] == "homes":
		return true
	}
	return false
}

var nasVolume = regexp.MustCompile(`^volume\d+$`)

// restoreDir: a directory a restore is unpacked into to be looked at, not
// the live copy (restore, www-restore, restored-2026-11-01).
func restoreDir(comp string) bool {
	return strings.Contains(strings.ToLower(comp), "restore")
}

// splitRemote splits host:path, user@host:path and rsync://host/path into
// host and path; a local path has no host.
func splitRemote(s string) (host, p string) {
	if rest, ok := strings.CutPrefix(s, "rsync://"); ok {
		h, p, _ := strings.Cut(rest, "/")
		return h, "/" + p
	}
	if m := shell.RemoteLike.FindString(s); m != "" && !strings.Contains(m, "/") {
		return strings.TrimSuffix(m, ":"), strings.TrimPrefix(s, m)
	}
	return "", s
}

// scratchTarget: a target whose path or host says it is disposable.
func scratchTarget(s string) bool {
	host, p := splitRemote(s)
	if host != "" && nonProdTarget(host) {
		return true
	}
	for _, comp := range components(p) {
		if isScratchName(comp) || temporaryName(comp) {
			return true
		}
	}
	return false
}

// mirrorVerdict judges a mirror (a copy that deletes at the target what the
// source lacks) from srcs onto dest.
func mirrorVerdict(id string, srcs []string, dest string) Verdict {
	if scratchTarget(dest) {
		return Verdict{}
	}
	for _, s := range srcs {
		if _, p := splitRemote(s); emptySource.MatchString(p) {
			return hit(id) // an empty tree mirrored empties the target
		}
	}
	host, p := splitRemote(dest)
	if !liveTree(p) {
		return Verdict{}
	}
	// A live tree is replaced by an older copy (a restore from a backup, a
	// mount, another host or a copy kept elsewhere on this one), or a
	// production host's by a deploy; a checkout's build output (a relative
	// source) deployed onto a host not named production is the near miss.
	return hitIf(productionName(host) || slices.ContainsFunc(srcs, func(s string) bool {
		return backupSource(s) || host == "" && strings.HasPrefix(s, "/")
	}), id)
}

// backupSource: a copy kept elsewhere — on another host or remote, on a
// mounted volume, or in a directory named for backups or archives.
func backupSource(s string) bool {
	host, p := splitRemote(s)
	if host != "" {
		return true
	}
	c := components(p)
	if strings.HasPrefix(p, "/") && len(c) > 0 && (c[0] == "mnt" || c[0] == "media" || c[0] == "Volumes") {
		return true
	}
	return slices.ContainsFunc(c, func(comp string) bool { return backupName.MatchString(comp) })
}

var backupName = regexp.MustCompile(`(?i)backup|archive|snapshot|\.snap|offsite|vault`)

// rsyncModes: --remove-source-files deletes a live source once copied;
// the deleting modes are judged by rsyncMirror after checkRsync's own.
func rsyncModes(o shell.Opts) Verdict {
	if !o.Long["remove-source-files"] || len(o.Operands) < 2 {
		return Verdict{}
	}
	for _, w := range o.Operands[:len(o.Operands)-1] {
		if h, p := splitRemote(fsPath(w)); (h == "" || !nonProdTarget(h)) && liveTree(p) {
			return hit("rsync-delete")
		}
	}
	return Verdict{}
}

// rsyncMirror: rsync --delete judged by source and target (mirrorVerdict).
func rsyncMirror(o shell.Opts) Verdict {
	var srcs []string
	for _, w := range o.Operands[:len(o.Operands)-1] {
		srcs = append(srcs, fsPath(w))
	}
	return mirrorVerdict("rsync-delete", srcs, fsPath(o.Operands[len(o.Operands)-1]))
}

// rcloneModes: rclone sync onto a live local tree, move from a remote (its
// source is deleted), dedupe in a mode that deletes, link (a public link to
// the file or folder). sync --backup-dir keeps what it would delete.
func rcloneModes(c shell.Command, ops []string) Verdict {
	switch ops[0] {
	case "sync", "bisync":
		if len(ops) < 3 || len(optionValues(c.Args[1:], "", "--backup-dir")) > 0 {
			return Verdict{}
		}
		if h, _ := splitRemote(ops[len(ops)-1]); h == "" {
			return mirrorVerdict("restore-over-live", ops[1:len(ops)-1], ops[len(ops)-1])
		}
		return mirrorVerdict("backup-delete", ops[1:len(ops)-1], ops[len(ops)-1])
	case "move":
		if len(ops) < 3 {
			return Verdict{}
		}
		h, _ := splitRemote(ops[1])
		return hitIf(h != "" && !temporaryName(ops[1]), "backup-delete")
	case "dedupe":
		mode := "interactive"
		if v := optionValues(c.Args[1:], "", "--dedupe-mode"); len(v) > 0 {
			mode = v[len(v)-1]
		} else if len(ops) > 2 {
			mode = ops[1]
		}
		return hitIf(!shell.Set("interactive", "list", "rename", "skip")[mode] && !temporaryName(ops[len(ops)-1]), "backup-delete")
	case "link":
		unlink := slices.ContainsFunc(c.Args[1:], func(w shell.Word) bool { return w.S == "--unlink" })
		return hitIf(len(ops) > 1 && !unlink && !temporaryName(ops[1]), "storage-made-public")
	}
	return Verdict{}
}

// shortWithin: restic forget --keep-within (or borg prune --keep-within) of
// at most a day keeps only today's snapshots.
func shortWithin(args []shell.Word) bool {
	for _, v := range optionValues(args, "", "--keep-within") {
		m := withinDur.FindStringSubmatch(strings.ToLower(v))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if m[2] == "h" || m[2] == "d" && n <= 1 {
			return true
		}
	}
	return false
}

var withinDur = regexp.MustCompile(`^(\d+)([hdwmy])$`)

// resticRestore: restic restore onto a live tree, or with --delete (which
// removes what the snapshot lacks) anywhere but scratch.
func resticRestore(c shell.Command) Verdict {
	for _, t := range optionValues(c.Args[1:], "-t", "--target") {
		if scratchTarget(t) || restoreDir(t) {
			continue
		}
		if liveTree(t) || slices.Contains(c.Args, shell.Word{S: "--delete"}) {
			return hit("restore-over-live")
		}
	}
	return Verdict{}
}

// checkDuplicity: remove-older-than and remove-all-* only list what they
// would delete unless --force; restore --force replaces the target's files;
// --no-encryption sends a plain copy off the host.
func checkDuplicity(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "t")
	ops := shell.Lits(o.Operands)
	if len(ops) == 0 || o.Long["dry-run"] {
		return Verdict{}
	}
	switch {
	case strings.HasPrefix(ops[0], "remove-"):
		return hitIf(o.Long["force"] && !temporaryName(ops[len(ops)-1]), "backup-delete")
	case ops[0] == "restore":
		t := ops[len(ops)-1]
		return hitIf(o.Long["force"] && !scratchTarget(t) && !restoreDir(t), "restore-over-live")
	}
	if o.Long["no-encryption"] && len(ops) >= 2 && strings.Contains(ops[len(ops)-1], "://") && !strings.HasPrefix(ops[len(ops)-1], "file://") {
		return hit("backup-plain")
	}
	return Verdict{}
}

// borgExtract: borg extract writes into the directory it runs in; an
// earlier cd names it (fsextract_cwd.go passes it as --into).
func borgExtract(c shell.Command) Verdict {
	for _, d := range optionValues(c.Args[1:], "", cwdMark) {
		if !scratchTarget(d) && !restoreDir(d) && (liveTree(d) || isSystemFile(d) || isImportant(d)) {
			return hit("restore-over-live")
		}
	}
	return Verdict{}
}

// cwdMark is the option extractIn gives borg, which has none of its own.
const cwdMark = "--x-cwd"

func init() {
	addHostCheck("duplicity", checkDuplicity)
	cwdExtractors["borg"] = cwdMark
}

// etcPasswordFile: a password or credentials file a service keeps under /etc
// for its unattended runs — a backup repository's password (/etc/restic/pass,
// /etc/borg/passphrase), a mount's credentials (/etc/samba/creds-backup,
// /etc/cifs-credentials).
func etcPasswordFile(comps []string) bool {
	return len(comps) >= 2 && comps[0] == "etc" && serviceSecretName.MatchString(comps[len(comps)-1]) &&
		!secretCopyName.MatchString(comps[len(comps)-1])
}

var serviceSecretName = regexp.MustCompile(`(?i)^(?:[a-z0-9]+[-_.])?(?:pass(?:word|phrase)?|creds?|credentials)(?:[-_.][a-z0-9_.-]*)?$`)

// secretCopyName: a sample or a stale copy of such a file, not the one in use.
var secretCopyName = regexp.MustCompile(`(?i)[-_.](?:example|sample|template|dist|bak|old|orig)$`)

// teesTableEntry: echo 'ENTRY' | [sudo] tee -a /etc/fstab (or /etc/exports)
// — one more mount or share, the way an administrator adds one — unless an
// export it adds is open to every host (exportOpen).
func teesTableEntry(stages []*syntax.Stmt) *syntax.CallExpr {
	return echoedIntoTee(stages, func(o shell.Opts, text string) bool {
		if !o.Has("a", "append") || len(o.Operands) != 1 {
			return false
		}
		switch p := path.Clean(o.Operands[0].S); {
		case p == "/etc/fstab":
			return strings.TrimSpace(text) != ""
		case p == "/etc/exports" || strings.HasPrefix(p, "/etc/exports.d/"):
			return strings.TrimSpace(text) != "" && !exportLineOpen(text)
		}
		return false
	})
}

// exportLineOpen: an /etc/exports entry that keeps clients' root as root,
// or lets every host (*, or no host named) write.
func exportLineOpen(text string) bool {
	if exportOpen(text) {
		return true
	}
	f := strings.Fields(text)
	if len(f) < 2 {
		return true // a path alone is exported to everyone
	}
	for _, client := range f[1:] {
		host, opts, _ := strings.Cut(client, "(")
		if (host == "" || host == "*" || host == "0.0.0.0/0") && !strings.Contains(opts, "ro") {
			return true
		}
		if (host == "" || host == "*") && strings.Contains(opts, "rw") {
			return true
		}
	}
	return false
}

// zfsModes: zfs receive -F (rolls the target back and destroys its
// snapshots the stream lacks) and a dataset shared over NFS to everyone.
func zfsModes(ops []string, o shell.Opts) Verdict {
	switch ops[0] {
	case "receive", "recv":
		return hitIf(o.Has("F", ""), "storage-teardown")
	case "set":
		for _, kv := range ops[1:] {
			if k, v, ok := strings.Cut(kv, "="); ok && (k == "sharenfs" || k == "sharesmb") && exportOpen(v) {
				return hit("nfs-export-open")
			}
		}
	}
	return Verdict{}
}

// lvmSnapshot: an LVM snapshot volume (pgdata-snap, root_snapshot), made to
// take a consistent copy and removed once the copy is taken.
func lvmSnapshot(ops []shell.Word) bool {
	return len(ops) > 0 && !slices.ContainsFunc(ops, func(w shell.Word) bool { return !lvmSnapName.MatchString(path.Base(w.S)) })
}

var lvmSnapName = regexp.MustCompile(`(?i)[-_.]snap(?:shot)?(?:[-_.]?\d+)?$`)

// exportOpen: NFS export options that give every host write access or keep
// a client's root as root (rw=*, no_root_squash, sharenfs=on).
func exportOpen(opts string) bool {
	o := strings.ToLower(strings.Trim(opts, `"'`))
	return o == "on" || strings.Contains(o, "no_root_squash") || strings.Contains(o, "rw=*") || strings.Contains(o, "rw=@0.0.0.0/0")
}

// checkPartclone: partclone restoring an image (-r) or cloning a device (-b)
// onto a device (-o /dev/…) overwrites the filesystem there; -c writes an
// image, -l logs, and a file target is a copy.
func checkPartclone(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "soLTzW")
	if !o.Has("rbD", "restore", "dev-to-dev", "domain") || o.Has("", "dry-run") {
		return Verdict{}
	}
	for _, out := range append(optionValues(c.Args[1:], "-o", "--output"), optionValues(c.Args[1:], "-O", "--overwrite")...) {
		if strings.HasPrefix(out, "/dev/") && out != "/dev/null" {
			return hit("dd-device")
		}
	}
	return Verdict{}
}

func init() {
	for _, fs := range []string{"ext2", "ext3", "ext4", "extfs", "xfs", "btrfs", "ntfs", "fat", "fat12", "fat16", "fat32", "vfat", "exfat",
		"f2fs", "hfsp", "hfs+", "reiserfs", "nilfs2", "minix", "dd", "imager", "restore"} {
		addHostCheck("partclone."+fs, checkPartclone)
	}
}

// backupArchivesGlob: a wildcard naming every archive of a kind in a backup
// location (/mnt/backup1/*.tar.zst, /backups/db-*.dump) — the backups, not a
// partial file or one dated archive.
func backupArchivesGlob(p string) bool {
	base := path.Base(p)
	return strings.ContainsAny(base, "*?[") && archiveName.MatchString(base) && !scratchWord.MatchString(base) &&
		backupSource(path.Dir(p)) && !scratchTarget(path.Dir(p))
}

// checkS3cmd: s3cmd setacl --acl-public (-P) of a bucket or recursively, and
// sync or put -r with it, make every object public; one file put public (a
// site's asset) is the near miss.
func checkS3cmd(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "c")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || !o.Has("P", "acl-public") || o.Has("n", "dry-run") {
		return Verdict{}
	}
	target := ops[len(ops)-1]
	bucketRoot := strings.Count(strings.TrimSuffix(strings.TrimPrefix(target, "s3://"), "/"), "/") == 0
	switch ops[0] {
	case "setacl", "sync", "put", "cp", "modify":
		return hitIf((o.Has("r", "recursive") || ops[0] == "sync" || ops[0] == "setacl" && bucketRoot) && !nonProdTarget(target), "storage-made-public")
	}
	return Verdict{}
}

func init() { addHostCheck("s3cmd", checkS3cmd) }

// checkScpModes: scp -r of a backup kept on another host over a live local
// tree (a restore over live data), and a key or a data export put into a
// public drop (an anonymous login, a /pub directory) where anyone fetches it.
func checkScpModes(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "cFiJlmoPSX")
	if len(o.Operands) < 2 {
		return Verdict{}
	}
	var srcs []string
	for _, w := range o.Operands[:len(o.Operands)-1] {
		srcs = append(srcs, fsPath(w))
	}
	dest := fsPath(o.Operands[len(o.Operands)-1])
	host, p := splitRemote(dest)
	if host == "" {
		restore := o.Has("r", "") && liveTree(p) && !scratchTarget(dest) && slices.ContainsFunc(srcs, func(s string) bool {
			h, sp := splitRemote(s)
			return h != "" && slices.ContainsFunc(components(sp), backupName.MatchString)
		})
		return hitIf(restore, "restore-over-live")
	}
	user, _, _ := strings.Cut(host, "@")
	if !strings.Contains(host, "@") {
		user = ""
	}
	if !publicDrop(user, p) {
		return Verdict{}
	}
	for _, s := range srcs {
		if secretPath(s) || classifyPath(s) == pcCredential {
			return hit("expose-secret")
		}
		if dataExport.MatchString(path.Base(s)) {
			return hit("storage-made-public")
		}
	}
	return Verdict{}
}

// publicDrop: an anonymous FTP/SFTP login, or a public directory of a
// mirror (/pub, /public), where what is put is anyone's to fetch.
func publicDrop(user, p string) bool {
	if shell.Set("anon", "anonymous", "ftp")[strings.ToLower(user)] {
		return true
	}
	c := components(p)
	return len(c) > 0 && (c[0] == "pub" || c[0] == "public")
}

func init() { addHostCheck("scp", checkScpModes) }

// checkCpRestore: cp -r (-a) of a backup — a directory named for backups or
// archives, or on a mounted volume — over a live tree puts the old files
// over the newer ones (shutil.copytree(..., dirs_exist_ok=True) is routed
// here). Called by checkCpHost.
func checkCpRestore(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "tS")
	if !o.Has("rRa", "recursive", "archive") || o.Has("nu", "no-clobber", "update") || len(o.Operands) < 2 {
		return Verdict{}
	}
	dest := fsPath(o.Operands[len(o.Operands)-1])
	if !liveTree(dest) || scratchTarget(dest) {
		return Verdict{}
	}
	for _, w := range o.Operands[:len(o.Operands)-1] {
		s := fsPath(w)
		c := components(s)
		mounted := strings.HasPrefix(s, "/") && len(c) > 1 && (c[0] == "mnt" || c[0] == "media")
		if mounted || slices.ContainsFunc(c, backupName.MatchString) {
			return hit("restore-over-live")
		}
	}
	return Verdict{}
}
