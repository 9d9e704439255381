package security

import (
	"regexp"
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
		if isSystemFile(w.s) {
			return hit("rm-system-file")
		}
	}
	return Verdict{}
}

func checkUnlink(c command, _ int) Verdict {
	for _, w := range parseOpts(c.args[1:], "").operands {
		if isSystemFile(w.s) {
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
		if deletes && isImportant(s.s) {
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
	if ops := parseOpts(args, "tSmog").operands; len(ops) >= 2 {
		targets = append(targets, ops[len(ops)-1].s)
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

func checkChmod(c command, _ int) Verdict {
	recursive, reference := false, false
	var operands []word
	args := c.args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			recursive = recursive || a == "--recursive"
			reference = reference || strings.HasPrefix(a, "--reference")
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "Rcfv") == "":
			recursive = recursive || strings.Contains(a, "R")
		default:
			operands = append(operands, args[i])
		}
	}
	if !recursive || len(operands) == 0 {
		return Verdict{}
	}
	paths := operands
	if !reference {
		if worldWritable(operands[0].s) {
			return hit("chmod-recursive-777")
		}
		paths = operands[1:]
	}
	return checkSystemTree(paths)
}

func checkChown(c command, _ int) Verdict {
	o := parseOpts(c.args[1:], "")
	if !o.has("R", "recursive") || len(o.operands) == 0 {
		return Verdict{}
	}
	paths := o.operands
	if !o.long["reference"] {
		paths = paths[1:]
	}
	return checkSystemTree(paths)
}

func checkSystemTree(paths []word) Verdict {
	for _, p := range paths {
		if isImportant(p.s) || isSystemFile(p.s) {
			return hit("chmod-chown-system")
		}
	}
	return Verdict{}
}

var (
	octalMode    = regexp.MustCompile(`^[0-7]{3,4}$`)
	symbolicMode = regexp.MustCompile(`^([ugoa]*)([-+=])([rwxXst]*)$`)
)

// worldWritable reports whether a chmod mode grants write to everyone.
func worldWritable(mode string) bool {
	if octalMode.MatchString(mode) {
		return (mode[len(mode)-1]-'0')&2 != 0
	}
	for _, clause := range strings.Split(mode, ",") {
		m := symbolicMode.FindStringSubmatch(clause)
		if m != nil && strings.ContainsAny(m[1], "oa") && m[2] != "-" && strings.Contains(m[3], "w") {
			return true
		}
	}
	return false
}
