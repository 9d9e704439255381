package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Substitutions that print a home directory: rm -rf "$(getent passwd
// "$USER" | cut -d: -f6)" deletes the home as rm -rf ~ does.

// substHome is the home a command substitution prints: the sixth field of
// the account database (getent passwd U, /etc/passwd) cut or printed by
// awk, macOS's dscl NFSHomeDirectory, a tilde re-expanded by eval echo, realpath/readlink of a home, or
// printenv HOME. It is "~" for the user running it and "~NAME" for another.
func substHome(st *syntax.Stmt) (string, bool) {
	stages := shell.Stages(st)
	// most substitutions are something else: look no further than the first program's name
	if call, ok := stages[0].Cmd.(*syntax.CallExpr); !ok || len(call.Args) == 0 || !homeSources[path.Base(shell.ShallowLit(call.Args[0].Parts))] {
		return "", false
	}
	cmds, ok := shell.StageCommands(stages)
	if !ok {
		return "", false
	}
	if len(cmds) == 1 {
		return homeOfCommand(cmds[0])
	}
	user, accounts, field := "", false, "6"
	for _, c := range cmds[:len(cmds)-1] {
		lits := shell.Lits(c.Args)
		switch {
		case c.Name == "getent" && len(lits) >= 3 && lits[1] == "passwd":
			user, accounts = lits[2], true
		case c.Name == "dscl" && slices.Contains(lits, "NFSHomeDirectory"):
			accounts, field = true, "2" // macOS: dscl . -read /Users/U NFSHomeDirectory | awk '{print $2}'
			for _, l := range lits {
				if u, ok := strings.CutPrefix(l, "/Users/"); ok {
					user = u
				}
			}
		case (c.Name == "grep" || c.Name == "awk") && strings.Contains(strings.Join(lits, " "), "/etc/passwd"):
			accounts = true
			if m := passwdUser.FindStringSubmatch(strings.Join(lits[1:], " ")); m != nil {
				user = m[1]
			}
		}
	}
	last := cmds[len(cmds)-1]
	if !accounts || !homeField(last, field) {
		return "", false
	}
	return homeOfUser(user), true
}

// homeSources: the programs that begin a substitution substHome reads.
var homeSources = shell.Set("getent", "grep", "awk", "dscl", "eval", "realpath", "readlink", "printenv")

var passwdUser = regexp.MustCompile(`\^?([A-Za-z_][\w-]*|` + "\x00" + `):`)

// homeField: the last stage prints field n of the line (cut -d: -f6,
// awk '{print $6}'; dscl's "NFSHomeDirectory: /Users/u" is field 2).
func homeField(c shell.Command, n string) bool {
	text := strings.Join(shell.Lits(c.Args[1:]), " ")
	switch c.Name {
	case "cut":
		return (n != "6" || strings.Contains(text, ":")) && (strings.Contains(text, "-f"+n) || strings.Contains(text, "-f "+n) || strings.Contains(text, "--fields="+n))
	case "awk":
		return strings.Contains(text, "$"+n)
	}
	return false
}

// homeOfCommand: eval echo ~U, realpath ~, readlink -f ~, printenv HOME.
func homeOfCommand(c shell.Command) (string, bool) {
	lits := shell.Lits(c.Args)
	switch {
	case c.Name == "eval" && len(lits) >= 3 && lits[1] == "echo":
		if t, ok := strings.CutPrefix(lits[2], "~"); ok && !strings.Contains(t, "/") {
			return homeOfUser(t), true
		}
	case c.Name == "eval" && len(lits) == 2 && strings.HasPrefix(lits[1], "echo ~"):
		return homeOfUser(strings.TrimPrefix(lits[1], "echo ~")), !strings.ContainsAny(strings.TrimPrefix(lits[1], "echo ~"), " /")
	case (c.Name == "realpath" || c.Name == "readlink") && len(lits) >= 2:
		if p := fsPath(c.Args[len(c.Args)-1]); p == "~" {
			return p, true
		}
	case c.Name == "awk" && homeField(c, "6") && strings.Contains(strings.Join(lits, " "), "/etc/passwd"):
		return "~", true // awk -F: '$1 == u { print $6 }' /etc/passwd
	case c.Name == "printenv" && len(lits) == 2 && lits[1] == "HOME":
		return "~", true
	}
	return "", false
}

// homeOfUser is the home of user as typed: a run-time name ($USER, $(whoami))
// or none is the user's own.
func homeOfUser(user string) string {
	switch {
	case user == "" || strings.Contains(user, shell.DynMark):
		return "~"
	case user == "root":
		return "/root"
	}
	return "~" + user
}
