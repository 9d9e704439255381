package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Checks by effect on the host rather than on files: security switches
// (firewall, SELinux/AppArmor, audit, kernel hardening) and persistence and
// tampering (cron, shell history, logs, start-up files). hostChecks
// dispatches to these and to the account, storage, release and remote
// checks in their own files. Which flags and subcommands destroy is kept
// as data; the functions only read it.

// hostChecks is consulted before commandChecks (see checkCommand), so a
// program may have a check here and one there.
// hostChecks are the checks of each program, run in order until one finds danger.
var hostChecks = map[string][]func(shell.Command, int) Verdict{}

// setHostCheck makes f the only host check of name; addHostCheck adds f after any
// already there.
func setHostCheck(name string, f func(shell.Command, int) Verdict) {
	hostChecks[name] = []func(shell.Command, int) Verdict{f}
}

func addHostCheck(name string, f func(shell.Command, int) Verdict) {
	hostChecks[name] = append(hostChecks[name], f)
}

func init() {
	for name, f := range map[string]func(shell.Command, int) Verdict{
		"iptables": checkIptables, "ip6tables": checkIptables, "iptables-legacy": checkIptables, "iptables-nft": checkIptables,
		"ip6tables-legacy": checkIptables, "ip6tables-nft": checkIptables,
		"nft": checkNft, "ufw": checkUfw, "setenforce": checkSetenforce, "aa-teardown": hitAlways("security-off"),
		"aa-disable": hitAlways("security-off"), "sysctl": checkSysctl, "auditctl": checkAuditctl,
		"crontab": checkCrontab, "history": checkHistory, "unset": checkUnsetHist, "export": checkExportHist,
		"declare": checkExportHist, "typeset": checkExportHist, "set": checkSetHist, "journalctl": checkJournalctl,
		"truncate": checkTamperArgs, "shred": checkTamperArgs, "ln": checkLnHistory,
		"passwd": checkPasswd, "usermod": checkUsermod, "userdel": checkUserdel,
		"deluser": checkUserdel, "groupdel": hitAlways("account-change"), "delgroup": hitAlways("account-change"),
		"chpasswd": hitAlways("account-change"), "gpasswd": checkGpasswd, "adduser": checkAdduser, "useradd": checkUseradd,
		"chattr":   checkChattr,
		"lvremove": checkStorageRemove, "vgremove": checkStorageRemove, "pvremove": checkStorageRemove,
		"zpool": checkZpool, "zfs": checkZfs, "cryptsetup": checkCryptsetup, "mdadm": checkMdadm, "btrfs": checkBtrfs,
		"helm": checkHelm, "eksctl": checkEksctl, "npm": checkUnpublish, "pnpm": checkUnpublish, "yarn": checkUnpublish,
		"gem": checkUnpublish, "cargo": checkUnpublish, "gh": checkGh, "flyctl": checkCloud, "fly": checkCloud, "vault": checkVault,
		"nc": checkNetcat, "ncat": checkNetcat, "netcat": checkNetcat, "socat": checkSocat, "setcap": checkSetcap,
	} {
		setHostCheck(name, f)
	}
	registerHostEdits()
	registerOpsMore()
	registerOpsScenarios()
	registerExpose()
	registerRemoteExec()
}

// checkHost runs the host checks for c, and the reverse-shell check for
// interpreters' one-liners.
func checkHost(c shell.Command, depth int) Verdict {
	for _, f := range hostChecks[c.Name] {
		if v := f(c, depth); v.Dangerous {
			return v
		}
	}
	switch c.Name {
	case "docker", "podman", "nerdctl", "kubectl", "oc", "docker-compose":
		if v := checkContainerExec(c, depth); v.Dangerous {
			return v
		}
		if c.Name == "docker" || c.Name == "podman" || c.Name == "nerdctl" {
			return checkDockerMass(c, depth)
		}
	case "kill":
		return killsDaemonByLookup(c)
	}
	if v := checkDecodedArgs(c); v.Dangerous {
		return v
	}
	if shell.PythonProgram.MatchString(c.Name) || scriptInterps[c.Name] || c.Name == "awk" || c.Name == "gawk" {
		code := strings.Join(shell.Lits(c.Args[1:]), " ")
		// gawk's /inet/tcp special file with a getline loop is a shell of its own.
		awkShell := strings.Contains(code, "/inet/") && strings.Contains(code, "|&") && strings.Contains(code, "getline")
		return hitIf(reverseShellCode(code) || awkShell, "reverse-shell")
	}
	return Verdict{}
}

func hitAlways(id string) func(shell.Command, int) Verdict {
	return func(c shell.Command, _ int) Verdict {
		help := hasWord(c.Args, "--help") || hasWord(c.Args, "-h")
		return hitIf(!help, id)
	}
}

// temporaryName reports whether a resource's name says it is disposable:
// tmp, temp, scratch, preview, ephemeral, sandbox, test, e2e, pr-123, or an
// experiment's own (a benchmark and its load generators, a load test, a
// proof of concept: qbench-loadgen-1, pgbench-db, exp-42, poc-ingest), or a
// restore check's copy (crm_restore_check, restore-verify-1).
var temporaryName = regexp.MustCompile(`(?i)(?:^|[-_./:@])(?:tmp|temp|scratch|preview|ephemeral|sandbox|throwaway|test|e2e|pr-?\d+|` +
	`(?:micro|pg|sys|db|q|u|perf|load)?bench(?:mark)?s?|load-?gen|load-?test|experiments?|exp|poc|restore[-_]?(?:check|verify|drill))(?:$|[-_./:@]|\d)`).MatchString

// --- security switches

// checkIptables: flush (-F), default policy (-P) and a rule dropping all
// traffic of a chain with no match (-A INPUT -j DROP). Listing, saving and
// narrow ACCEPT rules pass.
func checkIptables(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	matches := false
	for _, a := range args {
		switch a {
		case "-p", "--protocol", "-s", "--source", "-d", "--destination", "-i", "-o", "-m", "--match", "--dport", "--sport":
			matches = true
		}
	}
	if sshLockout(args) && !hasWord(c.Args, "-D") && !hasWord(c.Args, "--delete") {
		return hit("firewall-off")
	}
	if iptablesOpensStore(args) {
		return hit("firewall-open")
	}
	for i, a := range args {
		switch {
		case a == "-F" || a == "--flush" || a == "-P" || a == "--policy":
			return hit("firewall-off")
		case (a == "-A" || a == "-I" || a == "--append" || a == "--insert") && !matches:
			for j := i + 1; j+1 < len(args); j++ {
				if args[j] == "-j" && (args[j+1] == "DROP" || args[j+1] == "REJECT" || args[j+1] == "ACCEPT" && (args[i+1] == "INPUT" || args[i+1] == "FORWARD")) {
					return hit("firewall-off")
				}
			}
		}
	}
	return Verdict{}
}

// checkNft: nft flush ruleset / flush table / delete table.
// A rule whose whole statement is drop or reject (nft add rule inet filter
// input drop) cuts the machine off. The command may be one quoted word.
func checkNft(c shell.Command, _ int) Verdict {
	var ops []string
	for _, op := range shell.Lits(shell.ParseOpts(c.Args[1:], "fI").Operands) {
		ops = append(ops, strings.Fields(strings.Trim(op, ";"))...)
	}
	if len(ops) >= 2 && (ops[0] == "flush" || ops[0] == "delete") && (ops[1] == "ruleset" || ops[1] == "table" || ops[1] == "chain") {
		return hitIf(!nftScratchTable(ops), "firewall-off")
	}
	if nftAcceptPolicy(ops) {
		return hit("firewall-off")
	}
	if nftOpensStore(ops) {
		return hit("firewall-open")
	}
	// add|insert rule FAMILY TABLE CHAIN drop: nothing between chain and verdict.
	if len(ops) == 6 && (ops[0] == "add" || ops[0] == "insert") && ops[1] == "rule" && (ops[5] == "drop" || ops[5] == "reject") {
		return hit("firewall-off")
	}
	return hitIf(len(ops) >= 2 && ops[0] == "add" && ops[1] == "chain" && strings.Contains(strings.Join(ops, " "), "policy drop"), "firewall-off")
}

func checkUfw(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) == 0 {
		return Verdict{}
	}
	if ops[0] == "delete" && len(ops) > 2 && ops[1] == "allow" && (ops[2] == "22" || ops[2] == "22/tcp" || ops[2] == "ssh" || ops[2] == "OpenSSH") {
		return hit("firewall-off")
	}
	// ufw(8) "default deny|reject outgoing": nothing leaves the host, the
	// package mirrors and every API included
	outDenied := ops[0] == "default" && (contains(ops, "deny") || contains(ops, "reject")) && contains(ops, "outgoing")
	if ufwOpensStore(ops) {
		return hit("firewall-open")
	}
	return hitIf(ops[0] == "disable" || ops[0] == "reset" || (ops[0] == "default" && contains(ops, "allow")) || outDenied || sshLockout(ops), "firewall-off")
}

func checkSetenforce(c shell.Command, _ int) Verdict {
	return hitIf(len(c.Args) > 1 && (c.Args[1].S == "0" || strings.EqualFold(c.Args[1].S, "permissive")), "security-off")
}

// hardeningSysctls are kernel settings whose value 0 switches a protection off.
var hardeningSysctls = shell.Set("kernel.randomize_va_space", "kernel.kptr_restrict", "kernel.dmesg_restrict",
	"kernel.yama.ptrace_scope", "fs.protected_symlinks", "fs.protected_hardlinks", "fs.protected_regular",
	"kernel.unprivileged_bpf_disabled", "net.ipv4.tcp_syncookies", "fs.suid_dumpable")

func checkSysctl(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		k, v, ok := strings.Cut(w.S, "=")
		k = strings.ReplaceAll(strings.TrimSpace(k), "/", ".")
		if ok && hardeningSysctls[k] && (strings.TrimSpace(v) == "0") != (k == "fs.suid_dumpable") {
			return hit("security-off")
		}
	}
	return Verdict{}
}

// checkAuditctl: -D deletes every audit rule, -e 0 disables auditing.
func checkAuditctl(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	for i, a := range args {
		if a == "-D" || (a == "-e" && i+1 < len(args) && args[i+1] == "0") {
			return hit("security-off")
		}
	}
	return Verdict{}
}

// --- persistence and tampering

// checkCrontab: -r removes the whole crontab; installing one from stdin or
// /dev/null replaces it. -l, -e and installing a named file pass.
func checkCrontab(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "u")
	if o.Has("r", "remove") {
		return hit("crontab-replace")
	}
	if o.Has("leT", "list", "edit", "test") { // -T (cronie) checks a table without installing it
		return Verdict{}
	}
	ops := shell.Lits(o.Operands)
	return hitIf(len(ops) > 0 && (ops[0] == "-" || ops[0] == "/dev/null" || ops[0] == "/dev/stdin"), "crontab-replace")
}

func checkHistory(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "d")
	// bash(1) "history -d start-end" deletes a range of entries, as -c all of them
	for _, r := range optionValues(c.Args[1:], "-d", "") {
		if strings.Contains(strings.TrimPrefix(r, "-"), "-") {
			return hit("history-tamper")
		}
	}
	return hitIf(o.Has("c", ""), "history-tamper")
}

var historyVars = shell.Set("HISTFILE", "HISTSIZE", "HISTFILESIZE")

// checkPromptCommand judges code put in PROMPT_COMMAND, which bash runs
// before every prompt from then on.
func checkPromptCommand(name, value string, depth int) Verdict {
	if name != "PROMPT_COMMAND" || depth >= shell.MaxDepth {
		return Verdict{}
	}
	return startupCode(value, depth)
}

// startupCode judges code that will run by itself from now on (at every
// login, prompt or boot): as dangerous as the commands it holds, or as a
// program it starts from out of sight (hiddenLaunch).
func startupCode(text string, depth int) Verdict {
	return hitIf(classifyShell(shell.ForParser(text, Shell), depth+1).Dangerous || hiddenLaunch(text), "startup-inject")
}

func checkUnsetHist(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		if historyVars[w.S] {
			return hit("history-tamper")
		}
	}
	return Verdict{}
}

func checkExportHist(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		if k, v, ok := strings.Cut(w.S, "="); ok && disablesHistory(k, v) {
			return hit("history-tamper")
		}
	}
	return Verdict{}
}

// disablesHistory: HISTFILE=/dev/null or empty, HISTSIZE=0.
func disablesHistory(name, value string) bool {
	switch name {
	case "HISTFILE":
		return value == "" || value == "/dev/null"
	case "HISTIGNORE":
		return value == "*"
	case "HISTSIZE", "HISTFILESIZE":
		return value == "0"
	}
	return false
}

func checkSetHist(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "+o" && args[i+1] == "history" {
			return hit("history-tamper")
		}
	}
	return Verdict{}
}

func checkJournalctl(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		if strings.HasPrefix(w.S, "--vacuum-") {
			if f, v, _ := strings.Cut(w.S, "="); vacuumTooSmall(f, v) {
				return hit("log-tamper")
			}
		}
	}
	return Verdict{}
}

// tamperTarget names the rule for writing over (or emptying) a file that
// records what happened on the host: logs and shell history.
func tamperTarget(p string) string {
	switch {
	case strings.HasPrefix(p, "/var/log/"), p == "/var/log", strings.HasPrefix(p, "/var/run/utmp"), p == "/run/utmp":
		return "log-tamper"
	case isHistoryFile(p):
		return "history-tamper"
	}
	return ""
}

func isHistoryFile(p string) bool {
	switch base := p[strings.LastIndexByte(p, '/')+1:]; base {
	case ".bash_history", ".zsh_history", ".history", ".sh_history", ".python_history", ".psql_history", ".mysql_history",
		".node_repl_history", ".irb_history", ".sqlite_history", ".rediscli_history":
		return true
	}
	return false
}

// checkTamperArgs: truncate or shred of a log or history file.
func checkTamperArgs(c shell.Command, _ int) Verdict {
	for _, w := range shell.ParseOpts(c.Args[1:], "srn").Operands {
		if id := tamperTarget(w.S); id != "" {
			return hit(id)
		}
		if deployedLog(w.S) {
			return hit("log-tamper")
		}
	}
	return Verdict{}
}

// checkLnHistory: ln -sf /dev/null ~/.bash_history.
func checkLnHistory(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "St").Operands)
	return hitIf(len(ops) == 2 && ops[0] == "/dev/null" && tamperTarget(ops[1]) != "", "history-tamper")
}

// --- statement level: assignments and redirections

// checkHostStmt judges what a simple command's assignments and redirections
// do to the host: HISTFILE=/dev/null, : > /var/log/auth.log, and code
// appended to a shell start-up file (echo 'curl … | sh' >> ~/.bashrc).
func checkHostStmt(s *syntax.Stmt, depth int) Verdict {
	call, _ := s.Cmd.(*syntax.CallExpr)
	if d, ok := s.Cmd.(*syntax.DeclClause); ok {
		for _, a := range d.Args {
			if a.Name != nil && disablesHistory(a.Name.Value, shell.ResolveWord(a.Value).S) {
				return hit("history-tamper")
			}
			if a.Name != nil && preloadsScratch(a.Name.Value, shell.ResolveWord(a.Value).S) {
				return hit("run-from-scratch")
			}
			if a.Name != nil {
				if v := checkPromptCommand(a.Name.Value, shell.ResolveWord(a.Value).S, depth); v.Dangerous {
					return v
				}
			}
		}
	}
	if call != nil {
		if v := checkEditorAssign(call); v.Dangerous {
			return v
		}
		for _, a := range call.Assigns {
			if a.Name != nil && disablesHistory(a.Name.Value, shell.ResolveWord(a.Value).S) {
				return hit("history-tamper")
			}
			if a.Name != nil {
				if v := checkPromptCommand(a.Name.Value, shell.ResolveWord(a.Value).S, depth); v.Dangerous {
					return v
				}
			}
		}
	}
	for _, r := range s.Redirs {
		if r == nil || !shell.WriteOps[r.Op] {
			continue
		}
		p := shell.ResolveWord(r.Word).S
		if id := hostTarget(p, truncates(r.Op)); id != "" && !(id == "log-tamper" && logsOwnOutput(s, p)) {
			return hit(id)
		}
		if truncates(r.Op) && writesNothing(s) && deployedLog(p) {
			return hit("log-tamper") // : > /srv/shop/shared/log/production.log; a server's own output sent there is logging
		}
		if hardeningSysctls[strings.ReplaceAll(strings.TrimPrefix(p, "/proc/sys/"), "/", ".")] {
			return hit("security-off")
		}
		if crontabSpool(p) {
			return hit("crontab-replace") // >> into the spool bypasses crontab(1), as tee does
		}
		if isStartupFile(p) && call != nil {
			if c, ok := shell.BuildCommand(call); ok {
				if text, known := shell.StdinText(c, s.Redirs, "", false); known {
					if v := startupInject(p, text, depth); v.Dangerous {
						return v // echo … >> ~/.bashrc, cat > unit.service <<'EOF'
					}
				}
			}
		}
	}
	if call != nil {
		if c, ok := shell.BuildCommand(call); ok && c.Name == "tee" {
			if text, known := shell.HereText(s.Redirs); known {
				return teeStartup(c, text, depth) // sudo tee /etc/profile.d/x.sh <<< '…'
			}
		}
	}
	return Verdict{}
}

// teeStartup judges text tee writes into files run at login or boot.
func teeStartup(c shell.Command, text string, depth int) Verdict {
	for _, w := range shell.ParseOpts(c.Args[1:], "").Operands {
		if v := startupInject(w.S, text, depth); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// startupInject: text written into a file run at login or boot is judged as
// the code it will run there; of a systemd unit or an autostart entry, the
// commands its Exec lines name.
func startupInject(p, text string, depth int) Verdict {
	if !isStartupFile(p) || depth >= shell.MaxDepth {
		return Verdict{}
	}
	if strings.HasSuffix(p, ".service") || strings.HasSuffix(p, ".desktop") {
		var cmds []string
		for _, m := range unitExec.FindAllStringSubmatch(text, -1) {
			cmds = append(cmds, m[1])
		}
		text = strings.Join(cmds, "\n")
	}
	return startupCode(text, depth)
}

// unitExec: a unit's ExecStart= (ExecStartPre=, ExecStop=…) or a desktop
// entry's Exec= line, its command after systemd's prefixes (-, @, +, !, :).
var unitExec = regexp.MustCompile(`(?m)^\s*Exec(?:Start|StartPre|StartPost|Stop|StopPost|Reload|Condition)?\s*=\s*[-@+!:]*(.*)$`)

func truncates(op syntax.RedirOperator) bool {
	return op == syntax.RdrOut || op == syntax.RdrClob || op == syntax.RdrAll || op == syntax.RdrAllClob
}

// isStartupFile: files a shell or the system runs at login or boot (and the
// units and autostart entries whose commands it runs).
func isStartupFile(p string) bool {
	switch base := p[strings.LastIndexByte(p, '/')+1:]; base {
	case ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".kshrc", "config.fish":
		return true
	}
	if strings.Contains(p, "/systemd/") && strings.HasSuffix(p, ".service") || strings.Contains(p, "/autostart/") && strings.HasSuffix(p, ".desktop") {
		return true // a unit or an autostart entry: its Exec lines run at boot or login
	}
	return strings.HasPrefix(p, "/etc/profile") || p == "/etc/bash.bashrc" || p == "/etc/rc.local" ||
		strings.HasPrefix(p, "/etc/cron") || strings.HasPrefix(p, "/var/spool/cron")
}

// rootCaps are the file capabilities (capabilities(7)) that let a program
// become root or read and write anything: set on a binary with setcap(8),
// they work like chmod u+s.
var rootCaps = regexp.MustCompile(`(?i)cap_(?:setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|sys_module|chown|fowner)|^all[=+]|,all[=+]`)

// checkSetcap: setcap cap_setuid+ep /usr/bin/python3.
func checkSetcap(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	return hitIf(len(ops) > 1 && rootCaps.MatchString(ops[0]) && !strings.HasPrefix(ops[0], "-"), "chmod-chown-system")
}
