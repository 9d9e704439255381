package danger

import (
	"path"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Macs administered over ssh (tune20): the lines typed into an interactive
// ssh session on a Mac, whose far side is a shell. The guest account, the
// screen lock, FileVault, the application firewall, management profiles,
// the system and login keychains, trusted roots, password policies, the
// admin group, Remote Login, local snapshots and security preferences.
// The verbs join adminTools (checks_secadmin.go).

var macAdminTools = map[string][]adminVerb{
	// macOS: every local snapshot of a volume; security preferences set open
	"tmutil":   {{[]string{"deletelocalsnapshots"}, "backup-delete", func(_ shell.Command, ops []string) bool { return len(ops) > 1 && strings.HasPrefix(ops[1], "/") }}},
	"defaults": {{[]string{"write"}, "config-weakened", func(_ shell.Command, ops []string) bool { return macOpenDefault(ops) }}},
	// macOS over ssh: the guest account on, FileVault off, every management
	// profile removed, the system or login keychain deleted, a root CA
	// trusted system-wide, the password policies cleared, Remote Login off
	// (the session typing it is cut off).
	"fdesetup":    {{[]string{"disable"}, "security-off", nil}},
	"pwpolicy":    {{[]string{"*"}, "config-weakened", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "-clearaccountpolicies") }}},
	"systemsetup": {{[]string{"*"}, "stop-service", func(c shell.Command, _ []string) bool { return macSetting(c, "-setremotelogin", "off") }}},
	"sysadminctl": {{[]string{"*"}, "config-weakened", func(c shell.Command, _ []string) bool {
		return macSetting(c, "-guestAccount", "on") || macSetting(c, "-screenLock", "off")
	}}},
	// a user added to or taken out of the admin group (as gpasswd on sudo)
	"dseditgroup": {{[]string{"*"}, "account-change", func(c shell.Command, ops []string) bool {
		return (hasWord(c.Args, "-a") || hasWord(c.Args, "-d")) && len(ops) > 1 && adminGroup(ops[len(ops)-1])
	}}},
	"socketfilterfw": {{[]string{"*"}, "firewall-off", func(c shell.Command, _ []string) bool { return macSetting(c, "--setglobalstate", "off") }}},
	"profiles": {{[]string{"*"}, "security-off", func(c shell.Command, _ []string) bool {
		return (hasWord(c.Args, "remove") || hasWord(c.Args, "-R")) && (hasWord(c.Args, "-all") || hasWord(c.Args, "-D"))
	}}},
	"security": {
		{[]string{"delete-keychain"}, "secret-key-delete", func(_ shell.Command, ops []string) bool { return slices.ContainsFunc(ops[1:], sharedKeychain) }},
		{[]string{"add-trusted-cert"}, "config-weakened", func(c shell.Command, _ []string) bool {
			return hasWord(c.Args, "-d") && !slices.Contains(optionValues(c.Args[1:], "-r", "-r"), "deny")
		}},
	},
}

func init() {
	for name, verbs := range macAdminTools {
		adminTools[name] = append(adminTools[name], verbs...)
		addHostCheck(name, checkAdminTool)
	}
}

// macSetting: NAME VALUE among the single-dash words of a macOS tool.
func macSetting(c shell.Command, name, value string) bool {
	args := shell.Lits(c.Args[1:])
	for i, a := range args {
		if strings.EqualFold(a, name) && i+1 < len(args) && strings.EqualFold(args[i+1], value) {
			return true
		}
	}
	return false
}

// sharedKeychain: a keychain the whole Mac or a user's log-in depends on.
func sharedKeychain(p string) bool {
	b := strings.ToLower(path.Base(p))
	return strings.HasPrefix(p, "/Library/Keychains/") || strings.HasPrefix(p, "/System/Library/Keychains/") ||
		b == "login.keychain" || b == "login.keychain-db" || b == "system.keychain"
}

// macOpenDefaults: macOS preference keys whose value opens the machine
// (the guest account, no password after the screensaver, the application
// firewall off, automatic login).
var macOpenDefaults = map[string]string{"GuestEnabled": "true", "askForPassword": "0", "globalstate": "0", "autoLoginUser": "*", "DisableFDEAutoLogin": "false"}

func macOpenDefault(ops []string) bool {
	if len(ops) < 4 {
		return false
	}
	want, ok := macOpenDefaults[ops[2]]
	if !ok {
		return false
	}
	v := strings.ToLower(ops[len(ops)-1])
	return want == "*" || v == want || want == "true" && (v == "yes" || v == "1") || want == "0" && v == "false"
}
