package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// RecursiveDeletions returns the paths a shell line deletes recursively (rm -r,
// rm -rf), as typed ("~" and relative paths unresolved), leaving out those
// computed at run time and those scratch by their name or place (/tmp, build,
// node_modules). The rules judge a path by what its text says; a caller that
// can look at the disk judges these by what is there (a repository the rules do
// not know by name).
func RecursiveDeletions(line string) []string {
	if !strings.Contains(line, "rm") {
		return nil
	}
	f, err := shell.Parse(line)
	if err != nil {
		return nil
	}
	var out []string
	eachCommand(f, func(_ *syntax.Stmt, c shell.Command) bool {
		if c.Name != "rm" {
			return false
		}
		o := shell.ParseOpts(c.Args[1:], "")
		if !o.Has("rR", "recursive") {
			return false
		}
		for _, w := range o.Operands {
			if p := fsPath(w); p != "" && !strings.Contains(p, shell.DynMark) && protectedTree(p) {
				out = append(out, p)
			}
		}
		return false
	})
	return out
}

// RepositoryDeletion is the verdict on deleting p recursively where p is, on
// disk, a version-controlled work tree: a project, whatever its name says.
func RepositoryDeletion(p string) Verdict {
	v := hit("delete-protected-tree")
	v.Why = strings.TrimSuffix(v.Why, ".") + " (" + p + " is a git repository on disk)."
	return v
}

// RunsLines returns the command lines c runs on its behalf on this machine: a
// launcher's (script -c, flock -c, tmux, screen, expect's spawn, setpriv and
// the like, parallel, a git alias), each of find's -exec commands, and a trap's. The allow
// and block lists judge them like typed lines; a container's or a far host's
// (docker exec, kubectl exec) are not this machine's programs.
func RunsLines(c shell.Command) []string {
	var out []string
	if line, _, ok := runsLine(c); ok && !containerRuns[c.Name] {
		out = append(out, line)
	}
	if c.Name == "trap" {
		// trap 'CMD' SIGNAL...: CMD runs when the signal comes (kill -USR1 $$).
		if ops := shell.ParseOpts(c.Args[1:], "").Operands; len(ops) > 1 && !strings.Contains(ops[0].S, shell.DynMark) {
			out = append(out, ops[0].S)
		}
	}
	if c.Name == "find" {
		for i, w := range c.Args {
			switch w.S {
			case "-exec", "-execdir", "-ok", "-okdir":
				if cmd := findExec(c.Args[i+1:]); len(cmd) > 0 {
					out = append(out, strings.ReplaceAll(shellJoin(cmd), shell.DynMark, "{}"))
				}
			}
		}
	}
	return out
}

// containerRuns run their command lines in a container, not on this machine.
var containerRuns = shell.Set("docker", "podman", "kubectl", "oc")
