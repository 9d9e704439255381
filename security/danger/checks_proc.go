package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Checks for commands that stop the machine, its processes or the services
// and links that remote access depends on.

func checkShutdown(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		if w.S == "-c" || w.S == "--help" || w.S == "--version" {
			return Verdict{}
		}
	}
	// shutdown's first operand is its time; a machine's name there (virsh's
	// "shutdown ci-runner-18" typed at its own prompt) is refused.
	if ops := shell.ParseOpts(c.Args[1:], "").Operands; c.Name == "shutdown" && len(ops) > 0 && !shutdownTime.MatchString(ops[0].S) {
		return Verdict{}
	}
	return hit("shutdown")
}

var shutdownTime = regexp.MustCompile(`^(?:now|\+?\d+|\d{1,2}:\d{2})$|` + shell.DynMark)

func checkInit(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		if w.S == "0" || w.S == "6" {
			return hit("shutdown")
		}
		if w.S == "1" || w.S == "s" || w.S == "S" {
			return hit("stop-service") // single-user mode ends every remote session
		}
	}
	return Verdict{}
}

var (
	powerVerbs = shell.Set("poweroff", "reboot", "halt", "kexec", "soft-reboot", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate")
	stopVerbs  = shell.Set("stop", "kill", "mask", "disable")
	// criticalServices are the units whose loss cuts off remote access or
	// breaks the whole system; stopping an ordinary service is not flagged.
	criticalServices = shell.Set("ssh", "sshd", "openssh-server", "networking", "network", "NetworkManager", "systemd-networkd",
		"systemd-resolved", "dbus", "dbus-broker", "systemd-logind", "systemd-journald", "wpa_supplicant", "tailscaled",
		"getty", "docker", "containerd", "kubelet", "auditd")
	rescueTargets = shell.Set("rescue", "emergency", "rescue.target", "emergency.target", "halt.target", "poweroff.target", "reboot.target")
)

// securityServices enforce access control or record it; stopping one is a
// security switch rather than an outage.
var securityServices = shell.Set("apparmor", "auditd", "firewalld", "ufw", "fail2ban", "nftables", "iptables", "netfilter-persistent",
	"selinux", "crowdstrike", "falcon-sensor", "osqueryd", "clamav-daemon", "wazuh-agent")

func checkSystemctl(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "HMtpsno")
	ops := shell.Lits(o.Operands)
	if len(ops) == 0 {
		return Verdict{}
	}
	switch verb := ops[0]; {
	case powerVerbs[verb]:
		return hit("shutdown")
	case verb == "isolate" && len(ops) > 1 && rescueTargets[ops[1]]:
		return hit("stop-service")
	case verb == "clean":
		return cleansUnitData(c.Args[1:], ops[1:])
	case verb == "kill" && gentleSignals[func() string { sig, _ := signalAsked(shell.Lits(c.Args[1:])); return sig }()]:
		return Verdict{} // kill --signal=HUP is a reload
	case stopVerbs[verb]:
		// disable without --now still takes a critical unit away at the next boot.
		for _, u := range ops[1:] {
			if securityServices[strings.TrimSuffix(u, ".service")] && !o.Long["user"] {
				return hit("security-off")
			}
			if criticalUnit(u) {
				return hit("stop-service")
			}
		}
		if verb != "disable" || hasWord(c.Args, "--now") {
			return stopSystemUnits(o, ops[1:])
		}
	}
	return Verdict{}
}

// cleansUnitData: systemctl clean --what=KIND removes the directories a
// unit declares (StateDirectory=, LogsDirectory=, ConfigurationDirectory=):
// state is a service's data, the database's included, and logs its record.
// Without --what it removes cache and runtime data, which the unit makes
// again; units named as temporary pass.
func cleansUnitData(args []shell.Word, units []string) Verdict {
	if !slices.ContainsFunc(units, func(u string) bool { return !temporaryName(u) }) {
		return Verdict{}
	}
	for _, v := range optionValues(args, "--what", "--what") {
		for _, kind := range strings.Split(v, ",") {
			switch kind {
			case "state", "configuration", "all":
				return hit("delete-protected-tree")
			case "logs":
				return hit("log-tamper")
			}
		}
	}
	return Verdict{}
}

// stopSystemUnits: stopping, masking or disabling --now a system unit takes
// down what depends on it. User units (--user) and units named as temporary
// (dev servers, previews, tests, staging: nonProdTarget) pass.
func stopSystemUnits(o shell.Opts, units []string) Verdict {
	if o.Long["user"] || o.Long["dry-run"] {
		return Verdict{}
	}
	for _, u := range units {
		if !nonProdTarget(u) && !strings.HasPrefix(u, "-") {
			return hit("stop-system-service")
		}
	}
	return Verdict{}
}

// criticalUnit accepts "sshd", "sshd.service", "ssh.socket", "getty@tty1".
func criticalUnit(u string) bool {
	u, _, _ = strings.Cut(u, "@")
	u = strings.TrimSuffix(strings.TrimSuffix(u, ".service"), ".socket")
	return criticalServices[u] || strings.Contains(u, shell.DynMark)
}

// checkService: service NAME stop, rc-service NAME stop, /etc/init.d/NAME stop.
func checkService(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	name, verb := c.Name, ""
	switch {
	case c.Name == "service" || c.Name == "rc-service":
		if len(ops) < 2 {
			return Verdict{}
		}
		name, verb = ops[0], ops[1]
	case len(ops) > 0:
		verb = ops[0]
	}
	if (verb == "stop" || verb == "force-stop") && securityServices[name] {
		return hit("security-off")
	}
	if (verb == "stop" || verb == "force-stop") && criticalUnit(name) {
		return hit("stop-service")
	}
	return hitIf((verb == "stop" || verb == "force-stop") && !temporaryName(name), "stop-system-service")
}

// checkNetDown: ip link set IF down, ifdown IF, ifconfig IF down, nmcli networking off.
func checkNetDown(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	switch c.Name {
	case "ifdown":
		return hitIf(len(ops) > 0, "stop-service")
	case "ifconfig":
		return hitIf(len(ops) > 1 && ops[len(ops)-1] == "down", "stop-service")
	case "nmcli":
		// nmcli connection delete|down NAME: the profile the host is reached by
		conn := len(ops) > 2 && (ops[0] == "connection" || ops[0] == "con" || ops[0] == "c") && (ops[1] == "delete" || ops[1] == "down") &&
			slices.ContainsFunc(ops[2:], func(n string) bool { return n != "id" && n != "uuid" && !disposableLink(n) })
		return hitIf(conn || len(ops) > 1 && (ops[0] == "networking" || ops[0] == "n") && ops[1] == "off", "stop-service")
	}
	// ip [opts] link set [dev] IF down; ip addr flush [dev] IF
	if len(ops) >= 4 && (ops[0] == "link" || ops[0] == "l") && ops[1] == "set" && hasWord(c.Args, "down") {
		return hitIf(!disposableLink(linkName(ops[2:])), "stop-service")
	}
	if len(ops) >= 3 && (ops[0] == "addr" || ops[0] == "address" || ops[0] == "a") && (ops[1] == "flush" || ops[1] == "f") {
		return hitIf(!disposableLink(linkName(ops[2:])), "stop-service")
	}
	return Verdict{}
}

// linkName: IF of "dev IF" or "IF".
func linkName(ops []string) string {
	if len(ops) > 1 && ops[0] == "dev" {
		return ops[1]
	}
	return ops[0]
}

// disposableLink: a link or connection profile that carries no host's
// traffic but a guest's or a container's (veth, tap, vnet, docker0's
// bridges' ends) or is named as a test's or CI's; lo.
func disposableLink(name string) bool {
	for _, p := range []string{"veth", "tap", "vnet", "lo"} {
		if strings.HasPrefix(name, p) && (name == p || p != "lo") {
			return true
		}
	}
	return name != "" && !strings.Contains(name, shell.DynMark) && nonProdTarget(name)
}

func hitIf(cond bool, id string) Verdict {
	if cond {
		return hit(id)
	}
	return Verdict{}
}

func hasWord(ws []shell.Word, s string) bool {
	for _, w := range ws {
		if w.S == s {
			return true
		}
	}
	return false
}

// checkKill flags a signal to pid -1 (every process the user may signal).
func checkKill(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if len(args) == 1 && args[0] == "-1" {
		return hit("kill-all")
	}
	i := 0
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-s" || a == "-n":
			i = 2
		case strings.HasPrefix(a, "-") && a != "--":
			i = 1
		}
	}
	if i < len(args) && args[i] == "--" {
		i++
	}
	for ; i < len(args); i++ {
		if args[i] == "-1" {
			return hit("kill-all")
		}
	}
	return killsInit(args)
}

// killsInit: any signal but 0 (a liveness probe) and HUP (reload) sent to
// pid 1, which is init: KILL panics the kernel, TERM may halt the system.
func killsInit(args []string) Verdict {
	if len(args) == 0 || args[len(args)-1] != "1" {
		return Verdict{}
	}
	for i, a := range args[:len(args)-1] {
		switch a {
		case "-0", "-HUP", "-SIGHUP", "-1":
			return Verdict{}
		}
		if isSignalOpt(a) && gentleSignals[strings.TrimPrefix(strings.ToUpper(a[1:]), "SIG")] {
			return Verdict{} // USR1, USR2, CONT: a report or a reload, not an exit
		}
		switch a {
		case "-s", "-n":
			if i+1 < len(args) && gentleSignals[strings.TrimPrefix(strings.ToUpper(args[i+1]), "SIG")] {
				return Verdict{}
			}
		}
	}
	return hit("kill-init")
}

// checkPkill flags pkill/killall that select every process of a user or
// group (no name pattern), or a pattern that matches everything. killall5
// signals every process outside its session.
func checkPkill(c shell.Command, _ int) Verdict {
	if c.Name == "killall5" {
		return hit("kill-all")
	}
	var rest []shell.Word
	for _, w := range c.Args[1:] {
		if !isSignalOpt(w.S) {
			rest = append(rest, w)
		}
	}
	o := shell.ParseOpts(rest, "uUgGPstF")
	if c.Name == "killall" {
		o = shell.ParseOpts(rest, "usoyn")
	}
	if len(o.Operands) == 0 {
		// every process of a user or group, or every child of init (-P 1: each service)
		return hitIf(o.Has("uUgG", "euid", "uid", "user", "group", "pgroup") || slices.Contains(optionValues(rest, "-P", "--parent"), "1"), "kill-all")
	}
	for _, p := range shell.Lits(o.Operands) {
		if p == "." || p == ".*" || p == "^" || p == "" || p == "$" {
			return hit("kill-all")
		}
	}
	for _, p := range shell.Lits(o.Operands) {
		if isDaemon(p) && !temporaryName(p) && !gentleSignal(shell.Lits(c.Args[1:])) {
			return hit("kill-daemon")
		}
	}
	return hitIf(killsRuntime(shell.Lits(o.Operands), shell.Lits(c.Args[1:])), "kill-runtime")
}

// isSignalOpt: -9, -KILL, -SIGKILL (not -u, -U, -f, -9u...).
func isSignalOpt(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	body := strings.TrimPrefix(s[1:], "SIG")
	if strings.Trim(body, "0123456789") == "" {
		return true
	}
	// a name has three letters at least (HUP, USR1): -U, -G, -P are pkill's selectors
	return len(body) >= 3 && strings.ToUpper(body) == body && strings.Trim(body, "ABCDEFGHIJKLMNOPQRSTUVWXYZ12") == ""
}

// daemons are system services whose processes an agent should not signal
// directly: databases, web servers, the container runtime, sshd, init.
var daemons = shell.Set("sshd", "systemd", "init", "dockerd", "containerd", "kubelet", "mysqld", "mariadbd", "mysqld_safe",
	"postgres", "postmaster", "mongod", "mongos", "redis-server", "nginx", "apache2", "httpd", "php-fpm", "haproxy",
	"memcached", "rsyslogd", "syslog-ng", "journald", "systemd-journald", "cron", "crond", "dbus-daemon", "NetworkManager",
	"networkd", "systemd-networkd", "firewalld", "auditd", "etcd", "kube-apiserver", "named", "dnsmasq", "sssd", "polkitd",
	"elasticsearch", "rabbitmq-server", "beam.smp", "zookeeper", "kafka", "caddy", "traefik", "envoy", "consul", "vault",
	"tailscaled", "wpa_supplicant", "udevd", "systemd-udevd", "slapd", "postfix", "master", "dovecot", "exim4", "ntpd", "chronyd")

// isDaemon matches a daemon's name, its path (/usr/sbin/sshd) or a pkill -f
// pattern that starts with it ("postgres: checkpointer").
func isDaemon(p string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(p), " ")
	first = strings.TrimSuffix(strings.TrimPrefix(first[strings.LastIndexByte(first, '/')+1:], "^"), "$")
	first = strings.TrimSuffix(first, ":")
	return daemons[first]
}

// gentleSignal: the signal asked for makes a daemon reload, reopen its logs
// or report (HUP, USR1, USR2, CONT, 0), not exit: killall -HUP nginx.
func gentleSignal(args []string) bool {
	sig, ok := signalAsked(args)
	return ok && gentleSignals[sig]
}

// signalAsked: the signal named by -s SIG, --signal[=]SIG or -SIG,
// upper case and without "SIG" (KILL, 9, HUP).
func signalAsked(args []string) (string, bool) {
	for i, a := range args {
		sig := ""
		switch {
		case (a == "-s" || a == "--signal") && i+1 < len(args):
			sig = args[i+1]
		case strings.HasPrefix(a, "--signal="):
			sig = strings.TrimPrefix(a, "--signal=")
		case isSignalOpt(a):
			sig = a[1:]
		default:
			continue
		}
		return strings.TrimPrefix(strings.ToUpper(sig), "SIG"), true
	}
	return "", false
}

var gentleSignals = shell.Set("HUP", "1", "USR1", "10", "USR2", "12", "CONT", "18", "0")
