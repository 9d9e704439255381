package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// archivesPrivate: an archiver writing to stdout an archive of a home (or
// of every home: tar -C /home -cz .), a credential directory, /etc or the root (tar -czf - ~, zip -r - ~/.ssh):
// piped to a raw sender (nc, curl, socat), listening or not, it hands the
// person's keys and files to whoever connects.
func archivesPrivate(c shell.Command) bool {
	switch c.Name {
	case "tar", "bsdtar", "zip", "7z":
	default:
		return false
	}
	toStdout := false
	var ops []string
	args := shell.Lits(c.Args[1:])
	for i, a := range args {
		switch {
		case a == "-" && i > 0 && (strings.HasSuffix(args[i-1], "f") && strings.HasPrefix(args[i-1], "-") || args[i-1] == "--file" || c.Name == "zip"):
			toStdout = true
		case a == "--file=-" || a == "-":
			toStdout = true
		case !strings.HasPrefix(a, "-") && i > 0:
			ops = append(ops, a)
		}
	}
	if c.Name == "tar" || c.Name == "bsdtar" {
		// tar with no -f writes to stdout when TAPE is unset: tar cz ~
		toStdout = toStdout || !strings.Contains(strings.Join(args, " "), "f")
	}
	if !toStdout {
		return false
	}
	for _, o := range ops {
		p := fsPath(shell.Word{S: o})
		clean := strings.TrimSuffix(p, "/")
		home := clean == "~" || clean == "/root" || clean == "/home" || clean == "/Users" || strings.Count(clean, "/") == 2 && (strings.HasPrefix(clean, "/home/") || strings.HasPrefix(clean, "/Users/"))
		if home || classifyPath(p) == pcCredential || clean == "" || clean == "/etc" {
			return true
		}
	}
	return false
}
