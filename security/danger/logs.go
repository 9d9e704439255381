package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// A program's output sent to a log file of its own under /var/log
// (fc-cache -v > /var/log/fontconfig.log) is logging, not tampering: it
// replaces only that program's previous log. Emptying a log, writing over
// one of the system's own records (auth.log, syslog, wtmp, the journal,
// audit), or writing what was read from /var/log stays tampering.

var systemLog = regexp.MustCompile(`^(?:auth\.log|secure|syslog|messages|kern\.log|daemon\.log|user\.log|wtmp|btmp|lastlog|utmp|faillog|tallylog|dpkg\.log|boot\.log|cron(?:\.log)?|maillog|mail\.log|sudo\.log|audit\.log)(?:\.\d+)?$`)

func logsOwnOutput(s *syntax.Stmt, p string) bool {
	if !strings.HasPrefix(p, "/var/log/") || writesNothing(s) {
		return false
	}
	clean := path.Clean(p)
	for _, dir := range []string{"/var/log/audit", "/var/log/journal", "/var/log/sa"} {
		if strings.HasPrefix(clean, dir+"/") {
			return false
		}
	}
	if systemLog.MatchString(path.Base(clean)) {
		return false
	}
	for _, in := range stmtReads(s) {
		if strings.HasPrefix(in, "/var/log") {
			return false // a log filtered back over a log
		}
	}
	return true
}

// leftover: files a package manager or tool leaves beside a system file and
// regenerates or no longer needs (x.conf.dpkg-new, loaders.cache,
// __pycache__): deleting one loses nothing.
var leftover = regexp.MustCompile(`\.(?:dpkg-(?:new|old|bak|dist|tmp|save|remove)|ucf-(?:old|new|dist)|rpmnew|rpmsave|rpmorig|update-old|pacnew|pacsave|cache)$`)

func regenerable(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	clean := path.Clean(p)
	return leftover.MatchString(clean) || strings.Contains(clean+"/", "/__pycache__/")
}

// revisionVar: a variable whose name says it holds a branch or commit
// ($branch, $defaultBranch, $commit, ${original_HEAD}, $TAG).
var revisionVar = regexp.MustCompile(`(?i)branch|ref|rev|commit|sha|head|tag|version|parent|upstream|base$`)

// withoutRevisions drops, before any "--", the computed operands that name
// a revision (git checkout "$branch" switches branches, which git refuses
// to do over uncommitted changes) or end in one (^0, ~2).
func withoutRevisions(rest []shell.Word) []shell.Word {
	var out []shell.Word
	for i, w := range rest {
		if w.S == "--" {
			return append(out, rest[i:]...)
		}
		if w.Dyn() && w.Node != nil && (revisionVar.MatchString(paramName(w.Node)) || revisionSuffix.MatchString(w.S) || revisionSubst(w.Node)) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// revisionNamers: git's commands that print a revision's name
// (git checkout "$(git branch --show-current)" switches back to a branch).
var revisionNamers = shell.Set("rev-parse", "symbolic-ref", "describe", "merge-base", "rev-list", "name-rev")

// revisionSubst: a word computed by one of revisionNamers, or by git branch
// --show-current, its output perhaps trimmed by text filters.
func revisionSubst(w *syntax.Word) bool {
	st := shell.SubstStmt(w)
	if st == nil {
		return false
	}
	stages := shell.Stages(st)
	cmds, ok := shell.StageCommands(stages)
	if !ok || len(cmds) == 0 || slices.ContainsFunc(cmds[1:], func(c shell.Command) bool { return !passesNames[c.Name] }) {
		return false
	}
	c := cmds[0]
	if c.Name != "git" || len(c.Args) < 2 {
		return false
	}
	sub := c.Args[1].S
	return revisionNamers[sub] || sub == "branch" && hasWord(c.Args[2:], "--show-current")
}

var revisionSuffix = regexp.MustCompile(`(?:\^\d*|~\d*|@\{[^}]*\})$`)

// serviceSecret: a key or credential kept by the system for a service
// (/etc/ssl/private, /etc/letsencrypt), not in anyone's home, where a group
// of the service's users is meant to read it.
func serviceSecret(p string) bool {
	clean := path.Clean(p)
	return strings.HasPrefix(clean, "/etc/") || strings.HasPrefix(clean, "/var/lib/") || strings.HasPrefix(clean, "/opt/")
}

// publicCert: a .pem that is a certificate, public by design: kept in a
// certs directory or named for a certificate or chain, and not for a key.
func publicCert(comps []string) bool {
	base := strings.ToLower(comps[len(comps)-1])
	if !strings.HasSuffix(base, ".pem") || strings.Contains(base, "key") || strings.Contains(base, "priv") {
		return false
	}
	return slices.Contains(comps, "certs") || strings.Contains(base, "cert") || strings.Contains(base, "chain")
}

// deployedLog: a deployed application's log, the record of what it did in
// production as /var/log's are the host's: a production.log (prod.log)
// anywhere outside /tmp, or a *.log in a log directory of a deployment root
// (/srv, /opt, /var/www; Capistrano's shared/log). A checkout's own
// log/development.log, ./logs/test.log or /tmp/app.log are not.
func deployedLog(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "/tmp/") {
		return false
	}
	comps := components(path.Clean(p))
	base := comps[len(comps)-1]
	if !strings.HasSuffix(base, ".log") || len(comps) < 3 {
		return false
	}
	inRoot := comps[0] == "srv" || comps[0] == "opt" || comps[0] == "var" && comps[1] == "www"
	return prodLog.MatchString(base) || inRoot && slices.ContainsFunc(comps[:len(comps)-1], func(c string) bool { return c == "log" || c == "logs" })
}

var prodLog = regexp.MustCompile(`^(?:[\w-]+[._-])?(?:prod|production)\.log$`)
