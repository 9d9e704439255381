package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Moving a tree into scratch space is deleting it: /tmp is emptied at boot
// and by tmpfiles, a trash can by its owner, and /dev/null is not a
// directory at all. mv ~/projects /tmp/ loses what rm -rf ~/projects would.

// discardDirs are where moved things are thrown away.
var discardDirs = []string{"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "~/.local/share/Trash", "~/.Trash"}

// discardDest: p is a scratch directory or a path inside one.
func discardDest(p string) bool {
	p = path.Clean(p)
	for _, d := range discardDirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// moveDiscards judges mv SRC... DEST (or mv -t DEST SRC...) whose DEST is
// scratch space as the recursive deletion of each SRC.
func moveDiscards(c shell.Command) Verdict {
	args := c.Args[1:]
	o := shell.ParseOpts(args, "tS")
	ops := o.Operands
	dest := ""
	for i, w := range args {
		if w.S == "-t" && i+1 < len(args) {
			dest = fsPath(args[i+1])
		} else if t, ok := strings.CutPrefix(w.S, "--target-directory="); ok {
			dest = t
		}
	}
	if dest == "" {
		if len(ops) < 2 {
			return Verdict{}
		}
		dest, ops = fsPath(ops[len(ops)-1]), ops[:len(ops)-1]
	}
	if !discardDest(dest) {
		return Verdict{}
	}
	for _, src := range ops {
		p := fsPath(src)
		if discardDest(p) {
			continue // already scratch
		}
		if v := treeVerdict(p); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}
