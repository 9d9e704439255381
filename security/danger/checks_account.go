package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Checks for changes to accounts: who may log in, with what password, and
// who may become root.

func checkPasswd(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "nxwiR")
	if o.Has("l", "lock") && !o.Has("d", "delete", "stdin") && departedUsers(o.Operands) {
		return Verdict{}
	}
	return hitIf(o.Has("dl", "delete", "lock", "stdin"), "account-change")
}

// departedUser: an account named as one whose owner has left (olduser,
// former-dev, ex_contractor, bob-old); locking or expiring it is offboarding,
// not locking out someone who still works with it (deploy, root, a person).
var departedUser = regexp.MustCompile(`(?i)^(?:old|former|ex|departed|leaver|retired)[-_]?[a-z]|[a-z][-_](?:old|former|leaver|departed|retired)$`).MatchString

// departedUsers: every user named is departed (and one is named).
func departedUsers(ops []shell.Word) bool {
	for _, w := range ops {
		if !departedUser(w.S) {
			return false
		}
	}
	return len(ops) > 0
}

// privilegedGroups grant root, directly or through sudo.
var privilegedGroups = shell.Set("sudo", "wheel", "admin", "root")

func grantsPrivilege(groups string) bool {
	for _, g := range strings.Split(groups, ",") {
		if privilegedGroups[g] {
			return true
		}
	}
	return false
}

func checkUsermod(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if c.Name == "usermod" && replacesGroups(args) {
		return hit("account-change") // -G without -a: every group not listed is taken away (sudo, docker…)
	}
	for i, a := range args {
		val := ""
		if i+1 < len(args) {
			val = args[i+1]
		}
		switch {
		case c.Name == "usermod" && (a == "-L" || a == "--lock" || a == "-e" || a == "--expiredate"):
			if len(args) > 0 && departedUser(args[len(args)-1]) {
				continue
			}
			return hit("account-change")
		case (a == "-p" || a == "--password") && (val == "" || val == "!" || val == "*"):
			return hit("account-change")
		case (a == "-u" || a == "--uid") && val == "0", a == "-o" || a == "--non-unique":
			return hit("account-change")
		// a cluster of short options: -ou 0, -aG sudo
		case shortCluster(a) && (strings.ContainsRune(a, 'o') || strings.HasSuffix(a, "u") && val == "0"):
			return hit("account-change")
		case (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'G') || a == "--groups") && grantsPrivilege(val):
			return hit("account-change")
		}
	}
	return Verdict{}
}

func checkUseradd(c shell.Command, depth int) Verdict { return checkUsermod(c, depth) }

func checkGpasswd(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	// -a/-M into sudo grants root; -d out of it may lock the last admin out.
	if len(args) < 3 {
		return Verdict{}
	}
	switch args[0] {
	case "-a", "-M", "-d", "--add", "--members", "--delete":
		return hitIf(grantsPrivilege(args[len(args)-1]), "account-change")
	}
	return Verdict{}
}

// checkAdduser: adduser USER sudo adds to a group; --remove-home belongs to deluser.
func checkAdduser(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	return hitIf(len(ops) == 2 && privilegedGroups[ops[1]], "account-change")
}

// checkChattr: removing the immutable or append-only bit from a system or
// log file, the step before tampering with it.
var immutableGuarded = map[pathClass]bool{pcData: true, pcDatabase: true, pcCredential: true, pcSystem: true}

func checkChattr(c shell.Command, _ int) Verdict {
	removes := false
	for _, w := range c.Args[1:] {
		if strings.HasPrefix(w.S, "-") && strings.ContainsAny(w.S, "ia") && !strings.HasPrefix(w.S, "--") {
			removes = true
		}
	}
	if !removes {
		return Verdict{}
	}
	for _, w := range c.Args[1:] {
		for _, p := range []string{"/etc", "/var", "/boot", "/usr", "/bin", "/sbin", "/lib", "/root"} {
			if w.S == p || strings.HasPrefix(w.S, p+"/") {
				return hit("account-change")
			}
		}
		// the immutable bit kept data, keys or a database from being changed
		// (an archive under /srv, a mounted volume)
		if !strings.HasPrefix(w.S, "-") && immutableGuarded[classifyPath(fsPath(w))] {
			return hit("account-change")
		}
	}
	return Verdict{}
}

// checkChage: an expiry date in the past (0 or -E 1970…) locks the account.
func checkChage(c shell.Command, _ int) Verdict {
	for _, v := range append(optionValues(c.Args[1:], "-E", "--expiredate"), optionValues(c.Args[1:], "-M", "--maxdays")...) {
		if (v == "0" || strings.HasPrefix(v, "1970")) && !departedUsers(shell.ParseOpts(c.Args[1:], "dEImMWi").Operands) {
			return hit("account-change")
		}
	}
	return Verdict{}
}

// accountFile: the databases of users, groups, passwords and sudo rights.
func accountFile(p string) bool {
	switch p {
	case "/etc/passwd", "/etc/shadow", "/etc/group", "/etc/gshadow", "/etc/sudoers":
		return true
	}
	return strings.HasPrefix(p, "/etc/sudoers.d/")
}

// shortCluster: "-ou", "-aG" (not "--uid", not "-").
func shortCluster(a string) bool {
	return len(a) > 2 && a[0] == '-' && a[1] != '-'
}

// checkUserdel: deleting an account ends its owner's access (and with -r
// its home); an account named as throwaway (ci-ephemeral-42, tmp-build,
// test-user-3) was made to be deleted.
func checkUserdel(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "R")
	if o.Has("h", "help") {
		return Verdict{}
	}
	ops := o.Operands
	if len(ops) == 0 {
		return hit("account-change")
	}
	for _, w := range ops {
		if !temporaryName(w.S) || w.Dyn() {
			return hit("account-change")
		}
	}
	return Verdict{}
}
