package danger

import (
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Security and IT administration (tune20): the verbs of identity,
// directory, hardening and PKI tools that weaken a protection, widen who
// may log in, or destroy what a directory holds, kept as a table
// (adminTools) that secret_stores.go and macos_admin.go add their tools to.
// Judged by effect: the same tools' hardening, listing, preview and archive
// forms pass, and a target named as disposable (test, lab, scratch,
// sandbox, tmp) passes.

type adminVerb struct {
	words []string // the leading operands, in order ("*" for any)
	rule  string
	when  func(c shell.Command, ops []string) bool // nil: always
}

var adminTools = map[string][]adminVerb{
	// FreeIPA: users, hosts and groups deleted (not --preserve'd), admins
	// granted, the allow-everyone HBAC rule turned on, the password policy
	// emptied.
	"ipa": {
		{[]string{"user-del"}, "account-change", func(c shell.Command, ops []string) bool {
			return !hasWord(c.Args, "--preserve") && !allTemporaryStr(ops[1:])
		}},
		{[]string{"host-del"}, "account-change", func(_ shell.Command, ops []string) bool { return !allTemporaryStr(ops[1:]) }},
		{[]string{"group-del"}, "account-change", func(_ shell.Command, ops []string) bool { return !allTemporaryStr(ops[1:]) }},
		{[]string{"group-add-member"}, "account-change", func(_ shell.Command, ops []string) bool { return len(ops) > 1 && adminGroup(ops[1]) }},
		{[]string{"hbacrule-enable", "allow_all"}, "config-weakened", nil},
		{[]string{"cert-revoke"}, "cert-revoke", ipaRevokes},
		// a sudo rule for every user, host and command; an HBAC rule for every user, host and service
		{[]string{"sudorule-add"}, "account-change", func(c shell.Command, _ []string) bool { return allCategories(c, "usercat", "cmdcat") }},
		{[]string{"sudorule-mod"}, "account-change", func(c shell.Command, _ []string) bool { return allCategories(c, "usercat", "cmdcat") }},
		{[]string{"hbacrule-add"}, "config-weakened", func(c shell.Command, _ []string) bool { return allCategories(c, "usercat", "hostcat", "servicecat") }},
		{[]string{"pwpolicy-mod"}, "config-weakened", func(c shell.Command, _ []string) bool { return zeroedOption(c, passwordPolicyOpts) }},
	},
	// Samba AD: users and groups deleted, Domain Admins granted, the domain's
	// password rules switched off.
	"samba-tool": {
		{[]string{"user", "delete"}, "account-change", func(_ shell.Command, ops []string) bool { return !allTemporaryStr(ops[2:]) }},
		{[]string{"group", "delete"}, "account-change", func(_ shell.Command, ops []string) bool { return !allTemporaryStr(ops[2:]) }},
		{[]string{"group", "addmembers"}, "account-change", func(_ shell.Command, ops []string) bool { return len(ops) > 2 && adminGroup(ops[2]) }},
		{[]string{"domain", "passwordsettings", "set"}, "config-weakened", func(c shell.Command, _ []string) bool {
			return zeroedOption(c, []string{"--min-pwd-length", "--history-length", "--account-lockout-threshold"}) ||
				contains(optionValues(c.Args[1:], "--complexity", "--complexity"), "off")
		}},
	},
	// the IdM server or client uninstalled: the identities it served, or the
	// host's membership of the domain, are gone
	"ipa-server-install":  {{[]string{"*"}, "account-change", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--uninstall") }}},
	"ipa-replica-install": {{[]string{"*"}, "account-change", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--uninstall") }}},
	"ipa-client-install":  {{[]string{"*"}, "account-change", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--uninstall") }}},
	// disk encryption taken off (LUKS decrypted in place, BitLocker off)
	"manage-bde": {{[]string{"*"}, "security-off", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "-off") }}},
	// Kerberos: the KDC's database destroyed, a principal deleted.
	"kdb5_util":    {{[]string{"destroy"}, "account-change", nil}},
	"kadmin":       {{[]string{"*"}, "account-change", kadminDeletes}},
	"kadmin.local": {{[]string{"*"}, "account-change", kadminDeletes}},
	// p11-kit: a certificate made a trust anchor for every program
	"trust": {{[]string{"anchor"}, "config-weakened", func(c shell.Command, _ []string) bool {
		return !hasWord(c.Args, "--remove") && !hasWord(c.Args, "-r")
	}}},
	// realmd: the host leaves its domain (its users cannot log in), or every
	// domain user is let in.
	"realm": {
		{[]string{"leave"}, "account-change", nil},
		{[]string{"permit"}, "config-weakened", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--all") || hasWord(c.Args, "-a") }},
		{[]string{"deny"}, "account-change", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--all") || hasWord(c.Args, "-a") }},
	},
	"fail2ban-client": {
		{[]string{"stop"}, "security-off", nil},
		{[]string{"unban"}, "security-off", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--all") }},
		{[]string{"set", "*", "addignoreip"}, "security-off", func(_ shell.Command, ops []string) bool {
			return slices.ContainsFunc(ops[3:], everyNetwork)
		}},
	},
	// SELinux: a domain made permissive is not confined any more.
	"semanage": {{[]string{"permissive"}, "security-off", func(c shell.Command, _ []string) bool {
		return hasWord(c.Args, "-a") || hasWord(c.Args, "--add")
	}}},
	// smallstep: a provisioner removed (everything it enrolled cannot renew),
	// a CA key's password taken off.
	"step": {
		{[]string{"ca", "provisioner", "remove"}, "account-change", nil},
		{[]string{"crypto", "change-pass"}, "secret-world-readable", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--no-password") }},
	},
}

// passwordPolicyOpts: FreeIPA's pwpolicy options whose 0 removes the check
// (no minimum length, no history, unlimited failures, no character classes).
var passwordPolicyOpts = []string{"--minlength", "--history", "--maxfail", "--minclasses"}

func init() {
	for name := range adminTools {
		addHostCheck(name, checkAdminTool)
	}
	for _, n := range []string{"ldapdelete", "ssh-keygen", "clamscan", "clamdscan", "sops", "pam-auth-update", "cryptsetup"} {
		addHostCheck(n, checkAdminFlags)
	}
}

// wordOptionTools take single-dash word options (-clearaccountpolicies,
// -keystore, -off) and no leading verb; their verbs in adminTools are "*".
var wordOptionTools = shell.Set("pwpolicy", "systemsetup", "sysadminctl", "profiles", "keytool", "manage-bde", "dseditgroup", "socketfilterfw")

func checkAdminTool(c shell.Command, _ int) Verdict {
	if hasWord(c.Args, "--help") || hasWord(c.Args, "-h") && c.Name != "semanage" {
		return Verdict{}
	}
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if wordOptionTools[c.Name] || strings.HasPrefix(c.Name, "kadmin") || strings.HasPrefix(c.Name, "ipa-") {
		ops = append([]string{""}, ops...) // their options are single-dash words: no verb comes first
	}
	for _, v := range adminTools[c.Name] {
		if leadingWords(ops, v.words) && (v.when == nil || v.when(c, ops)) {
			return hit(v.rule)
		}
	}
	return Verdict{}
}

// checkAdminFlags: tools whose danger is an option rather than a verb.
func checkAdminFlags(c shell.Command, _ int) Verdict {
	switch c.Name {
	case "ldapdelete": // -r: the entry and everything under it
		o := shell.ParseOpts(c.Args[1:], "HDwyhpfUYRXoOeEMz")
		if !strings.Contains(o.Short, "r") {
			return Verdict{}
		}
		targets := append(shell.Lits(o.Operands), optionValues(c.Args[1:], "-H", "-H")...)
		return hitIf(!slices.ContainsFunc(targets, nonProdTarget), "remote-delete")
	case "ssh-keygen": // a user certificate signed for root (or, with no -n, for anyone), valid forever
		if len(optionValues(c.Args[1:], "-s", "-s")) == 0 || hasWord(c.Args, "-h") {
			return Verdict{}
		}
		validity := optionValues(c.Args[1:], "-V", "-V")
		forever := len(validity) == 0 || strings.HasSuffix(validity[0], "forever")
		named := optionValues(c.Args[1:], "-n", "-n")
		principals := strings.Split(strings.Join(named, ","), ",")
		anyone := len(named) == 0 // ssh-keygen(1): no principals, valid for any
		return hitIf(forever && (anyone || slices.ContainsFunc(principals, func(p string) bool { return p == "root" || adminGroup(p) })), "account-change")
	case "clamscan", "clamdscan": // every file it suspects deleted, unseen
		for _, w := range c.Args[1:] {
			if w.S == "--remove" || w.S == "--remove=yes" {
				ops := shell.Lits(shell.ParseOpts(c.Args[1:], "ld").Operands)
				return hitIf(!slices.ContainsFunc(ops, func(p string) bool { return scratchPath(p) }), "delete-protected-tree")
			}
		}
	case "cryptsetup": // reencrypt --decrypt: the device's encryption taken off
		return hitIf(hasWord(c.Args, "reencrypt") && hasWord(c.Args, "--decrypt"), "security-off")
	case "sops": // the encrypted file rewritten as plain text where it lives
		o := shell.ParseOpts(c.Args[1:], "")
		return hitIf(o.Has("d", "decrypt") && o.Has("i", "in-place"), "expose-secret")
	case "pam-auth-update": // a profile that authenticates or enforces switched off
		for _, p := range append(optionValues(c.Args[1:], "--disable", "--disable"), optionValues(c.Args[1:], "--remove", "--remove")...) {
			if pamGuards[p] {
				return hit("security-off")
			}
		}
	}
	return Verdict{}
}

// pamGuards: pam-auth-update profiles that check a password or enforce a
// policy; without them logins are not checked the same way.
var pamGuards = shell.Set("unix", "sss", "ldap", "krb5", "winbind", "pwquality", "cracklib", "faillock", "tally2",
	"google-authenticator", "u2f", "yubico", "passwdqc", "systemd")

// adminGroup: a group whose members administer the host or the domain.
func adminGroup(g string) bool {
	g = strings.ToLower(strings.TrimPrefix(g, "%"))
	return privilegedGroups[g] || g == "admins" || g == "administrators" || g == "domain admins" || g == "enterprise admins" || g == "sudoers"
}

func zeroedOption(c shell.Command, names []string) bool {
	for _, n := range names {
		for _, v := range optionValues(c.Args[1:], n, n) {
			if v == "0" {
				return true
			}
		}
	}
	return false
}

// everyNetwork: a network that covers every address.
func everyNetwork(s string) bool {
	return s == "0.0.0.0/0" || s == "::/0" || s == "0/0" || s == "any" || s == "0.0.0.0/1"
}

// replacesGroups: usermod -G LIST without -a sets the user's supplementary
// groups to LIST, removing every other (usermod(8)).
func replacesGroups(args []string) bool {
	groups, appended := false, false
	for _, a := range args {
		switch {
		case a == "--append":
			appended = true
		case a == "--groups" || strings.HasPrefix(a, "--groups="):
			groups = true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			appended = appended || strings.ContainsRune(a, 'a')
			groups = groups || strings.ContainsRune(a, 'G')
		}
	}
	return groups && !appended
}

// allCategories: every named --X=all category is given (ipa's usercat,
// hostcat, cmdcat, servicecat).
func allCategories(c shell.Command, names ...string) bool {
	for _, n := range names {
		if !contains(optionValues(c.Args[1:], "--"+n, "--"+n), "all") {
			return false
		}
	}
	return true
}

// kadminDeletes: kadmin -q "delprinc [-force] NAME" of a principal not
// named as a test's.
func kadminDeletes(c shell.Command, _ []string) bool {
	for _, q := range optionValues(c.Args[1:], "-q", "-q") {
		f := strings.Fields(q)
		if len(f) > 1 && (f[0] == "delprinc" || f[0] == "delete_principal") && !temporaryName(f[len(f)-1]) {
			return true
		}
	}
	return false
}
