package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Configuration management (tune18): Ansible's modules do on every host of
// an inventory what a shell command does on one — ufw state=disabled is
// ufw disable, selinux state=disabled is setenforce 0, authorized_key adds a
// login key — so they are judged as that command (ansibleModuleCommand).
// An ansible-console line is a module call typed at its prompt, and a
// playbook named for tearing hosts down does so unless run with --check.
// An inventory named as a sandbox, dev or test one is ordinary.

// ansibleSwitches: modules whose state turns a host's protection off or
// grants access, as the shell command that does the same.
var ansibleSwitches = map[string]func(kv map[string]string) string{
	"ufw": func(kv map[string]string) string {
		if kv["state"] == "disabled" || kv["state"] == "reset" {
			return "ufw disable"
		}
		return ""
	},
	"selinux": func(kv map[string]string) string {
		if kv["state"] == "disabled" || kv["state"] == "permissive" {
			return "setenforce 0"
		}
		return ""
	},
	"authorized_key": func(kv map[string]string) string {
		if kv["state"] == "absent" || kv["user"] == "" {
			return ""
		}
		home := "/home/" + kv["user"]
		if kv["user"] == "root" {
			home = "/root"
		}
		return "echo " + shellQuote(kv["key"]) + " >> " + home + "/.ssh/authorized_keys"
	},
	"iptables": func(kv map[string]string) string {
		if kv["flush"] == "yes" || kv["flush"] == "true" {
			return "iptables -F"
		}
		return ""
	},
}

// ansibleCollections are the prefixes of fully qualified module names.
var ansibleCollections = []string{"ansible.builtin.", "ansible.legacy.", "ansible.posix.", "community.general.", "community.crypto."}

func ansibleShortName(module string) string {
	for _, p := range ansibleCollections {
		module = strings.TrimPrefix(module, p)
	}
	return module
}

// ansibleKV parses a module's "k=v k='v w'" arguments.
func ansibleKV(args string) map[string]string {
	kv := map[string]string{}
	for _, w := range quotedFields(args) {
		if k, v, ok := strings.Cut(w, "="); ok {
			kv[k] = strings.Trim(v, `'"`)
		}
	}
	return kv
}

// ansibleSwitchCommand is the shell command module with args amounts to, or "".
func ansibleSwitchCommand(module, args string) string {
	f, ok := ansibleSwitches[ansibleShortName(module)]
	if !ok {
		return ""
	}
	return f(ansibleKV(args))
}

// disposableInventory: every inventory given (-i) is named as a sandbox,
// dev, test or local one.
func disposableInventory(c shell.Command) bool {
	inv := optionValuesAny(c.Args[1:], []string{"-i", "--inventory", "--inventory-file"})
	return len(inv) > 0 && !slices.ContainsFunc(inv, func(i string) bool {
		return !slices.ContainsFunc(components(i), throwawayTarget)
	})
}

// teardownPlaybook: a playbook whose name says it removes what it runs on.
var teardownPlaybook = regexp.MustCompile(`(?i)^(?:[\w-]*[-_])?(?:decommission|destroy|teardown|tear-down|wipe|nuke|deprovision)(?:[-_][\w-]*)?\.ya?ml$`)

func init() {
	addHostCheck("ansible-playbook", checkTeardownPlaybook)
	for _, name := range []string{"shell", "raw", "file", "user", "group", "service", "systemd", "ufw", "selinux", "authorized_key"} {
		addHostCheck(name, checkAnsibleConsoleLine)
	}
}

func checkTeardownPlaybook(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "iekluft")
	if o.Has("C", "check") || o.Long["syntax-check"] || o.Long["list-tasks"] || o.Long["list-hosts"] || o.Long["help"] || disposableInventory(c) {
		return Verdict{}
	}
	for _, p := range shell.Lits(o.Operands) {
		if teardownPlaybook.MatchString(path.Base(p)) {
			return hit("cloud-teardown")
		}
	}
	return Verdict{}
}

// checkAnsibleConsoleLine: "shell CMD" or "MODULE k=v …" as typed at
// ansible-console's prompt (a bare module name is no program a shell runs
// with k=v operands): judged as the command it runs on the hosts.
func checkAnsibleConsoleLine(c shell.Command, depth int) Verdict {
	ops := shell.Lits(c.Args[1:])
	if len(ops) == 0 || depth >= shell.MaxDepth {
		return Verdict{}
	}
	var cmd string
	switch c.Name {
	case "shell", "raw":
		cmd = strings.Join(ops, " ")
	case "service", "systemd":
		kv := ansibleKV(strings.Join(ops, " "))
		if kv["state"] == "stopped" && kv["name"] != "" {
			cmd = "systemctl stop " + shellQuote(kv["name"])
		}
	default:
		if slices.ContainsFunc(ops, func(a string) bool { return !strings.Contains(a, "=") }) {
			return Verdict{} // file(1), or another program of that name
		}
		args := strings.Join(ops, " ")
		if cmd = ansibleModuleCommand(c.Name, args); cmd == "" {
			cmd = ansibleSwitchCommand(c.Name, args)
		}
	}
	if cmd == "" {
		return Verdict{}
	}
	return via(classifyShell(shell.ForParser(cmd, Shell), depth+1), "ansible-console")
}

// quotedFields splits s at blanks outside single or double quotes.
func quotedFields(s string) []string {
	var out []string
	var cur strings.Builder
	var q rune
	for _, r := range s {
		switch {
		case q != 0 && r == q:
			q = 0
		case q == 0 && (r == '\'' || r == '"'):
			q = r
		case q == 0 && (r == ' ' || r == '\t'):
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}
