package danger

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Checks for permission and ownership changes: recursive ones on whole
// trees, and single ones on the system files sudo, login and boot rely on.

func checkChmod(c shell.Command, _ int) Verdict {
	recursive, reference := false, false
	var operands []shell.Word
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i].S
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
	if len(operands) == 0 {
		return Verdict{}
	}
	paths := operands
	if !reference {
		paths = operands[1:]
	}
	if !recursive {
		if reference || !harmfulMode(operands[0].S) {
			return Verdict{}
		}
		return checkSystemFiles(paths)
	}
	if !reference && worldWritable(operands[0].S) {
		return hit("chmod-recursive-777")
	}
	if !reference && tightensSecrets(operands[0].S, paths) {
		return Verdict{}
	}
	return checkSystemTree(paths)
}

func checkChown(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	if len(o.Operands) == 0 {
		return Verdict{}
	}
	paths := o.Operands
	if !o.Long["reference"] {
		paths = paths[1:]
	}
	if !o.Has("R", "recursive") {
		if owner, _, _ := strings.Cut(o.Operands[0].S, ":"); o.Long["reference"] || owner == "root" || owner == "0" || owner == "" {
			return Verdict{}
		}
		return checkSystemFiles(paths)
	}
	return checkSystemTree(paths)
}

func checkSystemTree(paths []shell.Word) Verdict {
	for _, p := range paths {
		if isImportant(p.S) || isSystemFile(p.S) {
			return hit("chmod-chown-system")
		}
	}
	return Verdict{}
}

// checkSystemFiles: a single system file (or the root) re-permissioned.
func checkSystemFiles(paths []shell.Word) Verdict {
	for _, p := range paths {
		if isSystemFile(p.S) || (strings.HasPrefix(p.S, "/") && path.Clean(p.S) == "/") || isAuthorizedKeys(p.S) {
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

// harmfulMode: a mode that, set on a system file, opens it to everyone
// (world-writable), makes it run as its owner (setuid/setgid), or takes
// permissions away (000, a-x, u=) so the system can no longer use it.
func harmfulMode(mode string) bool {
	if strings.Contains(mode, shell.DynMark) || worldWritable(mode) {
		return true
	}
	if octalMode.MatchString(mode) {
		owner := mode[len(mode)-3]
		return owner == '0' || (len(mode) == 4 && mode[0] >= '2' && mode[0] <= '7')
	}
	for _, clause := range strings.Split(mode, ",") {
		m := symbolicMode.FindStringSubmatch(clause)
		if m != nil && (m[2] == "-" || (m[2] == "=" && m[3] == "") || strings.Contains(m[3], "s")) {
			return true
		}
	}
	return false
}
