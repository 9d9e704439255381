package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// What archiving and copying tools do besides copying:
//
//   - zip -m and 7z a -sdel delete what they archived (rm -r of the sources);
//   - tar -c writes its archive over the -f file (tar -cvf ~/.bashrc notes/,
//     the arguments swapped), judged as > FILE; --remove-files deletes what
//     it archived, judged as rm -r of the members (below -C); --delete
//     removes members from an archive, and from one named as a backup that
//     is deleting from the backup;
//   - rsync --remove-source-files moves (judged as mv to the destination's
//     path), --delete-excluded deletes from the destination what an exclude
//     names (from a backup, the excluded data unless it is build output or a
//     cache), and -n/--dry-run changes nothing whatever else it says;
//   - cp -r of a tree's contents (SRC/. or -T) into a home's root puts them
//     over its dotfiles, as tar -x -C ~ does, and of an old copy or a backup
//     over a project or home tree puts old files over newer work, as tar
//     --overwrite of a backup does.

var archiveName = regexp.MustCompile(`(?i)\.(?:tar|tgz|tbz2?|txz|tzst|taz|tlz|gz|bz2|xz|zst|lz4?|lzma|z|zip|7z|cpio|ar|img|bin|dump|bak)$`)

var backupArchive = regexp.MustCompile(`(?i)backup|snapshot|nightly|daily|weekly|monthly|archive`)

func tarSideEffects(create, removeFiles, deleteMembers bool, file, dir string, operands []string, depth int) Verdict {
	if create && file != "" && file != "-" && !isBlockDevice(file) && !archiveName.MatchString(file) {
		// not named as an archive: the arguments swapped, and what was there is gone
		if v := overwriteVerdict(file, byEmpty); v.Dangerous {
			return v
		}
	}
	if create && removeFiles && depth < shell.MaxDepth {
		var words []string
		for _, o := range operands {
			if dir != "" && !strings.HasPrefix(o, "/") && !strings.HasPrefix(o, "~") {
				o = path.Join(dir, o)
			}
			words = append(words, shQuotePath(o))
		}
		if len(words) > 0 {
			if v := classify(Shell, "rm -r "+strings.Join(words, " "), depth+1); v.Dangerous {
				return v
			}
		}
	}
	if deleteMembers && backupArchive.MatchString(file) && len(operands) > 0 {
		return hit("backup-delete")
	}
	return Verdict{}
}

// tarCommandOpts are tar(1)'s options whose value is a command it runs:
// --to-command (each member's contents on its stdin), --use-compress-program
// (-I), --info-script and --new-volume-script (-F), --rsh-command;
// --checkpoint-action=exec=CMD runs CMD at each checkpoint.
var tarCommandOpts = map[string]string{"--to-command": "", "--use-compress-program": "-I", "--info-script": "-F",
	"--new-volume-script": "", "--rsh-command": "", "--checkpoint-action": ""}

// tarCommands returns the commands tar's options make it run, and the one
// it feeds every member's contents to (--to-command).
func tarCommands(args []shell.Word) (cmds []string, toCommand string) {
	for long, short := range tarCommandOpts {
		if short == "" {
			short = long // no short spelling: only --opt VALUE and --opt=VALUE
		}
		for _, v := range optionValues(args, short, long) {
			if long == "--checkpoint-action" {
				var ok bool
				if v, ok = strings.CutPrefix(v, "exec="); !ok {
					continue // dot, echo, ttyout, sleep: no command
				}
			}
			if long == "--to-command" {
				toCommand = v
			}
			cmds = append(cmds, v)
		}
	}
	slices.Sort(cmds) // map order: the same verdict for the same line
	return cmds, toCommand
}

// checkTarCommands judges what tar's options run as shell commands (a
// reverse shell at a checkpoint, rm as the compressor).
func checkTarCommands(args []shell.Word, depth int) Verdict {
	if depth >= shell.MaxDepth {
		return Verdict{}
	}
	cmds, _ := tarCommands(args)
	for _, cmd := range cmds {
		if v := via(classifyShell(shell.ForParser(cmd, Shell), depth+1), "tar"); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// tarRunsMembers: tar -x --to-command=sh runs each member's contents as a
// script, as tar -xO | sh does.
func tarRunsMembers(c shell.Command) bool {
	if c.Name != "tar" {
		return false
	}
	_, to := tarCommands(c.Args[1:])
	f := strings.Fields(to)
	return len(f) > 0 && readsCodeFromStdin(shell.Command{Name: path.Base(f[0]), Args: wordsOf(f)})
}

// rsyncSideEffects: --remove-source-files and --delete-excluded.
func rsyncSideEffects(c shell.Command, o shell.Opts, depth int) Verdict {
	if len(o.Operands) < 2 {
		return Verdict{}
	}
	dest := o.Operands[len(o.Operands)-1].S
	if m := shell.RemoteLike.FindString(dest); m != "" && !strings.Contains(m, "/") {
		dest = strings.TrimPrefix(dest, m)
		if dest == "" || !strings.HasPrefix(dest, "/") {
			dest = "~/" + dest // the remote home
		}
	}
	if o.Long["remove-source-files"] && depth < shell.MaxDepth {
		words := []string{"mv"}
		for _, s := range o.Operands[:len(o.Operands)-1] {
			words = append(words, shQuotePath(strings.TrimSuffix(fsPath(s), "/")))
		}
		if v := classify(Shell, strings.Join(append(words, shQuotePath(dest)), " "), depth+1); v.Dangerous {
			return v
		}
	}
	if o.Long["delete-excluded"] && treeProtected[classifyPath(dest)] {
		for _, x := range rsyncExcludes(c.Args[1:]) {
			if x == "*" || x == "**" || x == "/*" {
				break // everything excluded: the destination emptied, judged by checkRsync
			}
			if !artifactPattern(x) && !isScratchName(strings.Trim(x, "/*")) {
				return hit("rsync-delete") // the excluded files go from the copy the source still has them in
			}
		}
	}
	return Verdict{}
}

func rsyncExcludes(args []shell.Word) []string {
	var out []string
	for i, w := range args {
		switch {
		case w.S == "--exclude" && i+1 < len(args):
			out = append(out, args[i+1].S)
		case strings.HasPrefix(w.S, "--exclude="):
			out = append(out, strings.TrimPrefix(w.S, "--exclude="))
		}
	}
	return out
}

// cpOverTree: cp -r of a tree's contents into a home's root, or of an old
// copy over a protected tree.
func cpOverTree(c shell.Command) Verdict {
	o := shell.ParseOpts(c.Args[1:], "StZ")
	if !o.Has("rRa", "recursive", "archive") || len(o.Operands) < 2 {
		return Verdict{}
	}
	ops := o.Operands
	dest := fsPath(ops[len(ops)-1])
	contents := o.Has("T", "no-target-directory")
	for _, s := range ops[:len(ops)-1] {
		src := fsPath(s)
		into := contents || strings.HasSuffix(src, "/.") || strings.HasSuffix(src, "/*")
		if into && path.Clean(dest) != "." && extractVerdict(dest).Dangerous {
			return hit("overwrite-protected")
		}
		base := path.Base(strings.TrimSuffix(strings.TrimSuffix(src, "/."), "/*"))
		if into && restoresOver(base, dest) && !slices.Contains([]string{".", ".."}, base) {
			return hit("overwrite-protected")
		}
	}
	return Verdict{}
}

func init() {
	addHostCheck("cp", func(c shell.Command, _ int) Verdict { return cpOverTree(c) })
	addHostCheck("zip", checkArchiveMove)
	addHostCheck("7z", checkArchiveMove)
	addHostCheck("7za", checkArchiveMove)
}

// checkArchiveMove: zip -m and 7z a -sdel delete what they archived, as tar
// --remove-files does: judged as rm -r of the sources.
func checkArchiveMove(c shell.Command, depth int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "bdinPtxZ")
	ops := shell.Lits(o.Operands)
	var srcs []string
	switch {
	case c.Name == "zip" && (strings.Contains(o.Short, "m") || o.Long["move"]) && len(ops) > 1:
		srcs = ops[1:]
	case c.Name != "zip" && hasWord(c.Args, "-sdel") && len(ops) > 2 && ops[0] == "a":
		srcs = ops[2:]
	}
	if len(srcs) == 0 || depth >= shell.MaxDepth {
		return Verdict{}
	}
	var words []string
	for _, s := range srcs {
		words = append(words, shQuotePath(s))
	}
	return classify(Shell, "rm -r "+strings.Join(words, " "), depth+1)
}
