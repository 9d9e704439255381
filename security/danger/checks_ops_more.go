package danger

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// More host effects kept as data: service managers other than systemd,
// account tools of other systems, firewalls of other systems, cloud and
// hosting CLIs whose teardown verbs differ, and deletion of the files that
// record what happened (logs, history). Registered from checks_host.go.

// serviceManagers maps a service manager to the verbs that stop, unload or
// delete what it runs. A verb is judged with the operand after it.
var serviceManagers = map[string]map[string]bool{
	"launchctl":     shell.Set("unload", "bootout", "disable", "remove", "stop", "kill"),
	"supervisorctl": shell.Set("stop", "remove", "shutdown"),
	"pm2":           shell.Set("kill", "stop", "delete", "del"),
	"sc":            shell.Set("stop", "delete", "config"),
	"sc.exe":        shell.Set("stop", "delete", "config"),
	"sv":            shell.Set("down", "stop", "kill", "force-stop", "exit"),
	"s6-svc":        shell.Set("-d", "-k", "-x"),
	"openrc":        shell.Set("single", "shutdown"),
}

// daemonStops maps a daemon's own control program to the words that stop
// the daemon: mysqladmin(1) shutdown, nginx(8) -s stop, apachectl(8) stop,
// httpd -k stop, pg_ctl(1) stop, pg_ctlcluster(1) stop, rabbitmqctl(8)
// stop, mongod --shutdown, redis-cli SHUTDOWN, consul leave.
var daemonStops = map[string]map[string]bool{
	"mysqladmin": shell.Set("shutdown"), "mariadb-admin": shell.Set("shutdown"), "nginx": shell.Set("stop", "quit"),
	"apachectl": shell.Set("stop", "graceful-stop"), "apache2ctl": shell.Set("stop", "graceful-stop"), "httpd": shell.Set("stop", "graceful-stop"),
	"pg_ctl": shell.Set("stop", "kill"), "pg_ctlcluster": shell.Set("stop"), "rabbitmqctl": shell.Set("stop", "shutdown"),
	"mongod": shell.Set("--shutdown"), "redis-cli": shell.Set("shutdown"), "valkey-cli": shell.Set("shutdown"), "consul": shell.Set("leave"),
}

// checkDaemonStop: the daemon told to stop by its own tool, as systemctl stop
// would; a cluster in a scratch directory (pg_ctl -D ./tmp/pgdata stop) passes.
func checkDaemonStop(c shell.Command, _ int) Verdict {
	stops := daemonStops[c.Name]
	if c.Name == "pg_ctl" {
		// a user's own cluster (no -D: $PGDATA, or one in the project) is
		// not the system's; the packaged one under /var/lib is
		dirs := optionValues(c.Args[1:], "-D", "--pgdata")
		if len(dirs) == 0 || !strings.HasPrefix(dirs[0], "/var/lib/") && !strings.HasPrefix(dirs[0], "/srv/") {
			return Verdict{}
		}
	}
	if c.Name == "pg_ctlcluster" && slices.ContainsFunc(shell.Lits(c.Args[1:]), func(w string) bool { return devDatabase(w) || temporaryName(w) }) {
		return Verdict{} // pg_ctlcluster 16 regress stop: a test cluster
	}
	for _, w := range shell.Lits(c.Args[1:]) {
		if stops[strings.ToLower(w)] {
			return hit("stop-system-service")
		}
	}
	return Verdict{}
}

// checkServiceManager: launchctl bootout system/…, supervisorctl stop all,
// pm2 kill, sc stop SERVICE. Targets named as temporary pass; "all" and a
// missing target (pm2 kill) mean everything the manager runs.
func checkServiceManager(c shell.Command, _ int) Verdict {
	verbs := serviceManagers[c.Name]
	ops := shell.Lits(c.Args[1:])
	if hasWord(c.Args, "--help") || hasWord(c.Args, "-h") {
		return Verdict{}
	}
	for i, op := range ops {
		if !verbs[op] {
			continue
		}
		targets := []string{}
		for _, t := range ops[i+1:] {
			if !strings.HasPrefix(t, "-") {
				targets = append(targets, t)
			}
		}
		if c.Name == "sc" || c.Name == "sc.exe" {
			if op == "config" && !hasWordFold(ops, "disabled") {
				return Verdict{}
			}
		}
		if c.Name == "launchctl" && op != "bootout" && op != "unload" && op != "disable" {
			// launchctl stop/remove LABEL of the user's own agent is routine.
			if len(targets) == 0 || !strings.Contains(targets[0], "com.apple.") && !strings.HasPrefix(targets[0], "system/") {
				return Verdict{}
			}
		}
		if c.Name == "launchctl" && len(targets) > 0 && (strings.HasPrefix(targets[0], "gui/") || strings.HasPrefix(targets[0], "user/") ||
			strings.Contains(targets[0], "/LaunchAgents/") && !strings.HasPrefix(targets[0], "/System/")) {
			return Verdict{}
		}
		if len(targets) == 0 || allTemporaryStr(targets) && targets[0] != "all" {
			if len(targets) == 0 && (c.Name == "pm2" && op == "kill" || c.Name == "supervisorctl" && op == "shutdown") {
				return hit("stop-system-service")
			}
			return Verdict{}
		}
		for _, t := range targets {
			if criticalUnit(strings.TrimSuffix(path2base(t), ".plist")) || strings.Contains(t, "sshd") || strings.Contains(t, "openssh") {
				return hit("stop-service")
			}
		}
		return hit("stop-system-service")
	}
	return Verdict{}
}

func path2base(p string) string {
	p = p[strings.LastIndexByte(p, '/')+1:]
	return p[strings.LastIndexByte(p, '.')+1:]
}

func hasWordFold(ws []string, s string) bool {
	for _, w := range ws {
		if strings.EqualFold(w, s) {
			return true
		}
	}
	return false
}

// checkPfctl: pfctl -d disables the BSD/macOS packet filter; -F all flushes it.
func checkPfctl(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "FfaTtsKkx")
	return hitIf(o.Has("d", "") || hasWord(c.Args, "-Fa") || contains(optionValues(c.Args[1:], "-F", "-F"), "all") || contains(optionValues(c.Args[1:], "-F", "-F"), "rules"), "firewall-off")
}

// accountTools: account changes on BSD (pw), macOS (dscl, sysadminctl) and
// Windows (net user/localgroup). Each entry lists the words that, present
// anywhere among the operands, delete an account or grant it administration.
var accountTools = map[string][]string{
	"pw":          {"userdel", "groupdel", "usermod"},
	"dscl":        {"-delete", "-passwd", "-append"},
	"sysadminctl": {"-deleteUser", "-resetPasswordFor", "-addAdmin"},
	"net":         {"/delete", "/del", "/add", "/active:no"},
	"net.exe":     {"/delete", "/del", "/add", "/active:no"},
	"vipw":        {""},
	"vigr":        {""},
}

func checkAccountTool(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if hasWord(c.Args, "--help") || hasWord(c.Args, "-h") {
		return Verdict{}
	}
	if c.Name == "net" || c.Name == "net.exe" {
		// net user NAME /delete, net localgroup administrators NAME /add
		if len(args) < 2 || !strings.EqualFold(args[0], "user") && !strings.EqualFold(args[0], "localgroup") {
			return Verdict{}
		}
		if strings.EqualFold(args[0], "localgroup") && !strings.EqualFold(args[1], "administrators") {
			return Verdict{}
		}
	}
	if c.Name == "pw" && len(args) > 0 && args[0] == "usermod" {
		return hitIf(contains(args, "-G") && grantsPrivilege(strings.Join(optionValues(c.Args[1:], "-G", "-G"), ",")), "account-change")
	}
	if c.Name == "dscl" && contains(args, "-append") {
		return hitIf(strings.Contains(strings.Join(args, " "), "/Groups/admin"), "account-change")
	}
	for _, w := range accountTools[c.Name] {
		if w == "-deleteUser" && contains(args, "-keepHome") {
			continue // the account goes, its home is kept (as ipa user-del --preserve)
		}
		for _, a := range args {
			if w == "" || strings.EqualFold(a, w) {
				return hit("account-change")
			}
		}
	}
	return Verdict{}
}

// systemLogs are the host's own records (login, auth, kernel, audit); an
// application's log under /var/log/<app>/ is not one of them.
var systemLogs = shell.Set("auth.log", "secure", "syslog", "messages", "kern.log", "wtmp", "btmp", "lastlog", "utmp", "faillog",
	"audit.log", "daemon.log", "user.log", "debug", "sudo.log", "system.log", "journal", "audit", "log")

// recordTarget names the rule for deleting p: a history file, a system log
// or the log directories themselves.
func recordTarget(p string) string {
	if isHistoryFile(p) {
		return "history-tamper"
	}
	if !strings.HasPrefix(p, "/var/log") && !strings.HasPrefix(p, "/run/log/journal") {
		return ""
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(p, "/var/log"), "/")
	first, _, _ := strings.Cut(rel, "/")
	switch {
	case strings.HasPrefix(p, "/run/log/journal"), rel == "", rel == "*", first == "journal", first == "audit":
		return "log-tamper"
	case systemLogs[first] || systemLogs[strings.TrimSuffix(first, "*")]:
		return "log-tamper"
	}
	return ""
}

// checkRmRecords: rm/unlink/srm of shell history or system logs.
func checkRmRecords(c shell.Command, _ int) Verdict {
	for _, w := range shell.ParseOpts(c.Args[1:], "").Operands {
		if id := recordTarget(w.S); id != "" {
			return hit(id)
		}
	}
	return Verdict{}
}

// netcatNames are other builds of netcat with the same -e/-c flags.
var netcatNames = []string{"nc.traditional", "nc.openbsd", "netcat.traditional", "netcat.openbsd", "ncat.exe", "nc.exe", "pwncat"}

// vacuumTooSmall: journalctl --vacuum-size/-time/-files values that keep
// (next to) nothing: under 10M, under a day, at most one file.
func vacuumTooSmall(flag, v string) bool {
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.') {
		i++
	}
	n, err := strconv.ParseFloat(v[:i], 64)
	if err != nil {
		return true
	}
	unit := strings.ToLower(v[i:])
	switch flag {
	case "--vacuum-files":
		return n <= 1
	case "--vacuum-size":
		switch unit {
		case "", "b", "k", "kb", "kib":
			return true
		case "m", "mb", "mib":
			return n < 10
		}
		return n == 0
	case "--vacuum-time":
		switch unit {
		case "", "s", "sec", "m", "min", "h", "hour", "hours", "us", "ms":
			return true
		case "d", "day", "days":
			return n < 1
		}
		return n == 0
	}
	return false
}

// cliTeardown maps hosting CLIs to the operands that delete an app, a site,
// a database or its data.
var cliTeardown = map[string]map[string]bool{
	"heroku":     shell.Set("apps:destroy", "destroy", "pg:reset", "addons:destroy", "addons:remove", "pg:backups:delete", "redis:reset"),
	"vercel":     shell.Set("remove", "rm"),
	"netlify":    shell.Set("sites:delete"),
	"railway":    shell.Set("delete", "down"),
	"render":     shell.Set("delete"),
	"wrangler":   shell.Set("delete"),
	"firebase":   shell.Set("hosting:disable", "firestore:delete", "database:remove", "projects:delete", "functions:delete"),
	"supabase":   shell.Set("delete"),
	"linode-cli": shell.Set("delete", "rm"),
	"hcloud":     shell.Set("delete"),
	"scw":        shell.Set("delete"),
	"ibmcloud":   shell.Set("delete", "rm"),
	"oci":        shell.Set("delete", "terminate"),
	"exo":        shell.Set("delete"),
	"upctl":      shell.Set("delete"),
	"civo":       shell.Set("remove", "delete", "rm"),
}

// checkHostingCLI judges a hosting CLI by cliTeardown; a target named as
// temporary (a preview deployment, pr-12) passes, and so does wrangler's and
// firebase's --dry-run.
func checkHostingCLI(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	if len(ops) == 0 || o.Long["help"] || o.Long["dry-run"] {
		return Verdict{}
	}
	if opensToWorld(c) {
		return hit("firewall-off")
	}
	if slices.ContainsFunc(optionValuesAny(c.Args[1:], []string{"--env", "--environment", "-e"}), nonProdTarget) {
		return Verdict{} // wrangler … --env preview: a preview environment's copy
	}
	verbs := cliTeardown[c.Name]
	for i, op := range ops {
		if !verbs[op] {
			continue
		}
		rest := ops[i+1:]
		if len(rest) > 0 && (allTemporaryStr(rest) || c.Name == "vercel" && !slices.ContainsFunc(rest, notDeploymentURL)) {
			return Verdict{}
		}
		if len(rest) == 0 && (c.Name == "vercel" || c.Name == "netlify") {
			return Verdict{}
		}
		return hit("cloud-teardown")
	}
	return Verdict{}
}

func registerOpsMore() {
	for name := range serviceManagers {
		setHostCheck(name, checkServiceManager)
	}
	for name := range accountTools {
		setHostCheck(name, checkAccountTool)
	}
	for name := range cliTeardown {
		setHostCheck(name, checkHostingCLI)
	}
	for _, name := range netcatNames {
		setHostCheck(name, checkNetcat)
		netClients[name] = true
	}
	for name := range daemonStops {
		addHostCheck(name, checkDaemonStop)
	}
	setHostCheck("pfctl", checkPfctl)
	setHostCheck("lvresize", checkLvresize)
	setHostCheck("lvconvert", checkLvconvert)
	setHostCheck("gluster", checkGluster)
	for _, name := range []string{"rm", "unlink", "srm"} {
		setHostCheck(name, checkRmRecords)
	}
}

// crontabSpool: the per-user crontab files cron reads, which crontab(1)
// alone is meant to write.
func crontabSpool(p string) bool {
	return strings.HasPrefix(p, "/var/spool/cron/") || strings.HasPrefix(p, "/var/cron/tabs/") || strings.HasPrefix(p, "/usr/lib/cron/tabs/")
}

// vercelDeployment: one immutable deployment's address (app-8x2kq1fz.vercel.app),
// not the project or its production alias.
var vercelDeployment = regexp.MustCompile(`^(?:https?://)?[a-z0-9-]+-[a-z0-9]{8,10}(?:-[a-z0-9-]+)?\.vercel\.app/?$`)

func notDeploymentURL(s string) bool { return !vercelDeployment.MatchString(s) }
