package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Host effects reached through general-purpose tools and front ends:
// firewall rules that lock out SSH, macOS and AppArmor switches, edits of
// account databases and logs through tee/sed/cp, stack tools, PowerShell,
// remote runners (ansible, salt, lxc…), and signals to daemons found by
// pidof/pgrep.

// registerHostEdits adds this file's checks to hostChecks (called from its init).
func registerHostEdits() {
	for name, f := range map[string]func(shell.Command, int) Verdict{
		"firewall-cmd": checkFirewallCmd, "aa-complain": hitAlways("security-off"), "csrutil": checkMacSwitch, "spctl": checkMacSwitch,
		"chage": checkChage, "tee": checkTeeHost, "sed": checkSedHost, "cp": checkCpHost,
		"nvme": checkNvme, "hdparm": checkHdparm, "dmsetup": checkDmsetup, "lvreduce": checkLvreduce, "ceph": checkCeph,
		"serverless": checkServerless, "sls": checkServerless, "glab": checkGh, "hub": checkGh, "dotnet": checkDotnet,
		"lxc": checkRemoteExec, "incus": checkRemoteExec, "multipass": checkRemoteExec, "ansible": checkRemoteExec,
		"salt": checkRemoteExec, "vagrant": checkRemoteExec, "gcloud": checkRemoteExec,
		"netsh": checkNetsh, "apparmor_parser": checkApparmorParser, "dmesg": checkDmesg,
		"sam": checkStackTool, "sst": checkStackTool, "helmfile": checkStackTool, "cdktf": checkTerraform, "pulumi": checkStackTool,
		"nuget": checkNuget, "pwsh": checkPowershell, "powershell": checkPowershell, "powershell.exe": checkPowershell,
	} {
		setHostCheck(name, f)
	}
}

// registerRemoteExec adds checkRemoteExec after the other checks of programs
// that also run a command elsewhere (called last, so no set replaces it).
func registerRemoteExec() {
	for _, name := range []string{"fly", "flyctl", "heroku", "aws", "pssh", "parallel-ssh", "pdsh", "clush"} {
		addHostCheck(name, checkRemoteExec)
	}
}

// sshLockout: a DROP/REJECT/deny rule on port 22 or the ssh service.
func sshLockout(args []string) bool {
	port, drop := false, false
	for i, a := range args {
		switch a {
		case "22", "22/tcp", "ssh", "OpenSSH":
			port = true
		case "DROP", "REJECT", "deny", "reject":
			drop = true
		case "--dport", "--destination-port":
			port = port || i+1 < len(args) && args[i+1] == "22"
		}
	}
	return port && drop
}

func checkFirewallCmd(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		switch {
		// firewall-cmd(1): trusted accepts everything; drop and block refuse
		// every connection, ssh included, in the default zone
		case w.S == "--panic-on", w.S == "--set-default-zone=trusted", w.S == "--set-default-zone=drop", w.S == "--set-default-zone=block",
			w.S == "--remove-service=ssh", w.S == "--remove-port=22/tcp":
			return hit("firewall-off")
		}
	}
	return hitIf(firewalldOpensStore(shell.Lits(c.Args[1:])), "firewall-open")
}

func checkMacSwitch(c shell.Command, _ int) Verdict {
	return hitIf(hasWord(c.Args, "disable") || hasWord(c.Args, "--master-disable") || hasWord(c.Args, "--global-disable"), "security-off")
}

// hostTarget names the rule for writing into p: account databases, logs and history.
func hostTarget(p string, truncating bool) string {
	switch {
	case accountFile(p) && !checkWriteTarget(p).Dangerous: // a system-file rule may already name it
		return "account-change"
	case truncating:
		return tamperTarget(p)
	}
	return ""
}

func checkTeeHost(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	for _, w := range o.Operands {
		if id := hostTarget(w.S, !o.Has("a", "append")); id != "" {
			return hit(id)
		}
		if crontabSpool(w.S) {
			return hit("crontab-replace") // tee into the spool bypasses crontab(1)
		}
		if hardeningSysctls[strings.ReplaceAll(strings.TrimPrefix(w.S, "/proc/sys/"), "/", ".")] {
			return hit("security-off") // echo 0 | tee /proc/sys/kernel/randomize_va_space
		}
	}
	return Verdict{}
}

// checkSedHost: sed -i on an account database or a log edits the record.
func checkSedHost(c shell.Command, _ int) Verdict {
	inPlace := false
	for _, w := range c.Args[1:] {
		inPlace = inPlace || strings.HasPrefix(w.S, "-i") || strings.HasPrefix(w.S, "--in-place") ||
			len(w.S) > 1 && w.S[0] == '-' && w.S[1] != '-' && strings.ContainsRune(w.S, 'i')
	}
	if !inPlace {
		return Verdict{}
	}
	for _, w := range c.Args[1:] {
		if id := hostTarget(w.S, true); id != "" {
			return hit(id)
		}
	}
	return Verdict{}
}

// checkCpHost: cp /dev/null over a log or history file empties it; cp over
// an account database replaces it.
func checkCpHost(c shell.Command, depth int) Verdict {
	if v := checkCpRestore(c, depth); v.Dangerous {
		return v // a backup copied over a live tree (backup_modes.go)
	}
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "tS").Operands)
	if len(ops) < 2 {
		return Verdict{}
	}
	dst := ops[len(ops)-1]
	if id := hostTarget(dst, false); id != "" {
		return hit(id)
	}
	return hitIf(ops[0] == "/dev/null" && tamperTarget(dst) != "", tamperTarget(dst))
}

func checkServerless(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "sr").Operands)
	return hitIf(len(ops) > 0 && ops[0] == "remove", "cloud-teardown")
}

func checkDotnet(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "ks").Operands)
	return hitIf(len(ops) > 1 && ops[0] == "nuget" && ops[1] == "delete", "package-unpublish")
}

// checkRemoteExec judges the command that lxc exec, ansible -a, salt
// cmd.run and vagrant ssh -c run on another machine.
func checkRemoteExec(c shell.Command, depth int) Verdict {
	var script string
	switch c.Name {
	case "lxc", "incus", "multipass":
		for i, w := range c.Args {
			if w.S == "--" && hasWord(c.Args[:i], "exec") {
				return via(checkInner(c.Args[i+1:], depth), c.Name+" exec")
			}
		}
	case "gcloud":
		if vs := optionValues(c.Args[1:], "--command", "--command"); len(vs) > 0 && hasWord(c.Args, "ssh") {
			script = vs[0]
		}
	case "ansible":
		if vs := optionValues(c.Args[1:], "-a", "--args"); len(vs) > 0 {
			script = vs[0]
		}
	case "salt":
		for i, w := range c.Args {
			if w.S == "cmd.run" && i+1 < len(c.Args) {
				script = c.Args[i+1].S
			}
		}
	case "vagrant":
		if vs := optionValues(c.Args[1:], "-c", "--command"); len(vs) > 0 {
			script = vs[0]
		}
		for i, w := range c.Args { // vagrant ssh -- CMD
			if w.S == "--" && hasWord(c.Args[:i], "ssh") {
				script = strings.Join(shell.Lits(c.Args[i+1:]), " ")
			}
		}
	case "fly", "flyctl": // fly ssh console -C CMD
		if vs := optionValues(c.Args[1:], "-C", "--command"); len(vs) > 0 && hasWord(c.Args, "ssh") {
			script = vs[0]
		}
	case "heroku": // heroku run CMD… -a APP
		ops := shell.Lits(shell.ParseOpts(c.Args[1:], "ares").Operands)
		if len(ops) > 1 && (ops[0] == "run" || ops[0] == "run:detached") {
			script = strings.Join(ops[1:], " ")
		}
	case "pssh", "parallel-ssh", "pdsh", "clush": // the last operand runs on every host
		if ops := shell.Lits(shell.ParseOpts(c.Args[1:], "hHlpotwxgbe").Operands); len(ops) > 0 {
			script = ops[len(ops)-1]
		}
	case "aws": // aws ssm send-command … --parameters commands='…'
		if hasWord(c.Args, "send-command") {
			for _, v := range optionValues(c.Args[1:], "--parameters", "--parameters") {
				if _, cmd, ok := strings.Cut(v, "commands="); ok {
					script = strings.Trim(cmd, `[]"'`)
				}
			}
		}
	}
	if c.Name == "ansible" {
		if mods := optionValues(c.Args[1:], "-m", "--module-name"); len(mods) > 0 {
			if cmd := ansibleModuleCommand(mods[0], script); cmd != "" {
				script = cmd
			} else if cmd := ansibleSwitchCommand(mods[0], script); cmd != "" && !disposableInventory(c) {
				script = cmd // checks_config_mgmt.go
			}
		}
	}
	if script == "" || depth >= shell.MaxDepth {
		return Verdict{}
	}
	return via(classifyShell(shell.ForParser(script, Shell), depth+1), c.Name)
}

// ansibleModules: what an ad-hoc module run does, as the command that does
// the same on the host (-m user -a 'name=bob state=absent' is userdel bob), by
// the state its arguments ask for; services are checkAnsibleService's.
var ansibleModules = map[string]map[string]string{
	"file":                               {"absent": "rm -rf -- %s"},
	"ansible.builtin.file":               {"absent": "rm -rf -- %s"},
	"user":                               {"absent": "userdel %s"},
	"ansible.builtin.user":               {"absent": "userdel %s"},
	"group":                              {"absent": "groupdel %s"},
	"postgresql_db":                      {"absent": "dropdb %s"},
	"community.postgresql.postgresql_db": {"absent": "dropdb %s"},
	"mysql_db":                           {"absent": "mysqladmin drop %s"},
	"community.mysql.mysql_db":           {"absent": "mysqladmin drop %s"},
}

// ansibleModuleCommand is the command module with args ("k=v …") amounts
// to, or "" when it has none.
func ansibleModuleCommand(module, args string) string {
	states, ok := ansibleModules[module]
	if !ok {
		return ""
	}
	kv := map[string]string{}
	for _, f := range strings.Fields(args) {
		if k, v, ok := strings.Cut(f, "="); ok {
			kv[k] = strings.Trim(v, `'"`)
		}
	}
	form, ok := states[kv["state"]]
	if !ok {
		return ""
	}
	target := kv["path"]
	for _, k := range []string{"dest", "name", "db"} {
		if target == "" {
			target = kv[k]
		}
	}
	if target == "" {
		return ""
	}
	return strings.Replace(form, "%s", shellQuote(target), 1)
}

// killsDaemonByLookup: kill $(pidof sshd), kill -9 $(pgrep -f dockerd),
// kill $(cat /run/nginx.pid). HUP, USR1/USR2 and 0 (reload, reopen logs,
// probe) pass.
func killsDaemonByLookup(c shell.Command) Verdict {
	for _, w := range c.Args[1:] {
		switch strings.TrimPrefix(strings.TrimPrefix(w.S, "-"), "SIG") {
		case "HUP", "USR1", "USR2", "0", "1", "WINCH":
			return Verdict{}
		}
	}
	found, rule := false, "kill-daemon"
	for _, w := range c.Args[1:] {
		if w.Node == nil || !w.Dyn() {
			continue
		}
		syntax.Walk(w.Node, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || found {
				return !found
			}
			inner, ok := shell.BuildCommand(call)
			if !ok {
				return true
			}
			valued := "uUgGPstF" // pgrep -o/-n (oldest/newest) take no value; pidof -o PID does
			if inner.Name == "pidof" {
				valued = "o"
			}
			ops := shell.Lits(shell.ParseOpts(inner.Args[1:], valued).Operands)
			switch inner.Name {
			case "pgrep":
				// pgrep selects as pkill does: -u postgres is every process of the user
				if v := checkPkill(pgrepAsPkill(c, inner), 0); v.Dangerous {
					found, rule = true, v.Rule
					return false
				}
				fallthrough
			case "pidof":
				found = len(ops) > 0 && isDaemon(ops[len(ops)-1])
				if !found && len(ops) > 0 && killSignal(shell.Lits(c.Args[1:])) && runtimePattern(ops[len(ops)-1]) {
					found, rule = true, "kill-runtime"
				}
			case "grep", "egrep":
				// ps aux | grep NAME | awk '{print $2}': the pattern selects
				if o := shell.ParseOpts(inner.Args[1:], "efmABC"); len(o.Operands) > 0 && !o.Has("v", "invert-match") {
					p := o.Operands[0].S
					found = isDaemon(p)
					if !found && killSignal(shell.Lits(c.Args[1:])) && runtimePattern(p) {
						found, rule = true, "kill-runtime"
					}
				}
			case "awk", "gawk", "mawk":
				// ps -eo pid,comm | awk '$2=="sshd"{print $1}': the pattern selects
				if o := shell.ParseOpts(inner.Args[1:], "Fvf"); len(o.Operands) > 0 {
					found = slices.ContainsFunc(awkSelects(o.Operands[0].S), isDaemon)
				}
			case "cat":
				found = len(ops) > 0 && (isDaemon(strings.TrimSuffix(path.Base(ops[0]), ".pid")) || pidFileDaemon(ops[0]))
			case "lsof", "fuser":
				found = namesDaemonPort(inner.Args[1:]) // whatever holds a database's port (checks_kill_port.go)
			case "nvidia-smi":
				// every process on the GPUs: each user's training and serving jobs
				if slices.ContainsFunc(shell.Lits(inner.Args[1:]), func(a string) bool { return strings.HasPrefix(a, "--query-compute-apps") }) {
					found, rule = true, "kill-runtime"
				}
			}
			return !found
		})
	}
	return hitIf(found, rule)
}

var awkLiteral = regexp.MustCompile(`"([^"]+)"|/([^/]+)/`)

// awkSelects: the strings and regexps an awk program's pattern (before its
// first action) compares the input with.
func awkSelects(prog string) []string {
	pattern, _, _ := strings.Cut(prog, "{")
	var out []string
	for _, m := range awkLiteral.FindAllStringSubmatch(pattern, -1) {
		out = append(out, oneCharClass.ReplaceAllString(m[1]+m[2], "$1")) // /[n]ginx/ keeps awk out of its own match
	}
	return out
}

// pgrepAsPkill: kill SIG $(pgrep SEL…) and pgrep SEL… | xargs kill SIG are
// pkill SIG SEL…, the signal spelt as pkill takes it (-s KILL as -KILL).
// pgrep's listing options (-l, -a, -d DELIM) change only its output.
func pgrepAsPkill(kill, pgrep shell.Command) shell.Command {
	args := []shell.Word{{S: "pkill"}}
	ka := kill.Args[1:]
	for i := 0; i < len(ka) && strings.HasPrefix(ka[i].S, "-"); i++ {
		switch a := ka[i].S; {
		case (a == "-s" || a == "-n") && i+1 < len(ka):
			i++
			args = append(args, shell.Word{S: "-" + strings.TrimPrefix(ka[i].S, "SIG")})
		case strings.HasPrefix(a, "--signal="):
			args = append(args, shell.Word{S: "-" + a[len("--signal="):]})
		case a != "--":
			args = append(args, ka[i])
		}
	}
	pa := pgrep.Args[1:]
	for i := 0; i < len(pa); i++ {
		switch pa[i].S {
		case "-d", "--delimiter":
			i++
		case "-l", "-a", "--list-name", "--list-full":
		default:
			args = append(args, pa[i])
		}
	}
	return shell.Command{Name: "pkill", Args: args}
}

// checkNetsh: netsh advfirewall set … state off (Windows).
func checkNetsh(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	return hitIf(contains(args, "advfirewall") && contains(args, "state") && contains(args, "off"), "firewall-off")
}

// checkApparmorParser: -R unloads a profile, leaving its program unconfined.
func checkApparmorParser(c shell.Command, _ int) Verdict {
	return hitIf(shell.ParseOpts(c.Args[1:], "").Has("R", "remove"), "security-off")
}

// checkDmesg: -C/--clear empties the kernel's log buffer.
func checkDmesg(c shell.Command, _ int) Verdict {
	return hitIf(shell.ParseOpts(c.Args[1:], "fFlnsS").Has("Cc", "clear", "read-clear"), "log-tamper")
}

// checkStackTool: sam delete, sst remove, helmfile destroy, pulumi stack rm
// tear down every resource of a stack.
func checkStackTool(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "s").Operands)
	if len(ops) == 0 || hasWord(c.Args, "--help") || disposableStack(c) {
		return Verdict{}
	}
	switch c.Name {
	case "sam":
		return hitIf(ops[0] == "delete", "terraform-destroy")
	case "sst":
		return hitIf(ops[0] == "remove", "terraform-destroy")
	case "helmfile":
		return hitIf(ops[0] == "destroy" || ops[0] == "delete", "cluster-teardown")
	case "pulumi":
		// pulumi down is destroy's alias.
		return hitIf(ops[0] == "down" || len(ops) > 1 && ops[0] == "stack" && (ops[1] == "rm" || ops[1] == "remove"), "terraform-destroy")
	}
	return Verdict{}
}

func checkNuget(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	return hitIf(len(ops) > 1 && ops[0] == "delete", "package-unpublish")
}

// checkPowershell: -EncodedCommand runs hidden code; a download piped into
// Invoke-Expression runs fetched code.
func checkPowershell(c shell.Command, _ int) Verdict {
	code := strings.ToLower(strings.Join(shell.Lits(c.Args[1:]), " "))
	for _, w := range c.Args[1:] {
		if l := strings.ToLower(w.S); l == "-enc" || l == "-e" || l == "-encodedcommand" || l == "-ec" {
			return hit("decode-to-shell")
		}
	}
	runs := strings.Contains(code, "iex") || strings.Contains(code, "invoke-expression")
	fetches := strings.Contains(code, "iwr") || strings.Contains(code, "invoke-webrequest") || strings.Contains(code, "downloadstring") ||
		strings.Contains(code, "irm ") || strings.Contains(code, "invoke-restmethod")
	return hitIf(runs && fetches, "pipe-to-shell")
}
