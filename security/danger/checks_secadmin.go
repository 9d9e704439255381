package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Security and IT administration (tune20): the verbs of identity,
// directory, secrets-manager, hardening and macOS management tools that
// weaken a protection, widen who may log in or read a secret, or destroy what
// a directory or secret store holds. Judged by effect: the same tools'
// hardening, listing, preview and archive forms pass, and a target named as
// disposable (test, lab, scratch, sandbox, tmp) passes.

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
	// Azure Key Vault: a purge ends the soft-delete grace period, for good
	"az": {
		{[]string{"keyvault", "purge"}, "cloud-teardown", nil},
		{[]string{"keyvault", "*", "purge"}, "cloud-teardown", func(_ shell.Command, ops []string) bool {
			return ops[1] == "secret" || ops[1] == "key" || ops[1] == "certificate"
		}},
	},
	// a Java keystore's private key entry deleted
	"keytool": {{[]string{"*"}, "secret-key-delete", func(c shell.Command, _ []string) bool {
		stores := optionValues(c.Args[1:], "-keystore", "-keystore")
		return hasWord(c.Args, "-delete") && !slices.ContainsFunc(stores, nonProdTarget)
	}}},
	// macOS: every local snapshot of a volume; security preferences set open
	"tmutil":   {{[]string{"deletelocalsnapshots"}, "backup-delete", func(_ shell.Command, ops []string) bool { return len(ops) > 1 && strings.HasPrefix(ops[1], "/") }}},
	"defaults": {{[]string{"write"}, "config-weakened", func(_ shell.Command, ops []string) bool { return macOpenDefault(ops) }}},
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
			return slices.ContainsFunc(ops[3:], everyAddress)
		}},
	},
	// SELinux: a domain made permissive is not confined any more.
	"semanage": {{[]string{"permissive"}, "security-off", func(c shell.Command, _ []string) bool {
		return hasWord(c.Args, "-a") || hasWord(c.Args, "--add")
	}}},
	// password stores: a folder of entries removed, a recipient added (who
	// can then decrypt every secret of the store), pass's own git.
	"pass": {{[]string{"rm"}, "remote-delete", recursiveStoreRemove}, {[]string{"remove"}, "remote-delete", recursiveStoreRemove},
		{[]string{"delete"}, "remote-delete", recursiveStoreRemove}},
	"gopass": {{[]string{"rm"}, "remote-delete", recursiveStoreRemove}, {[]string{"remove"}, "remote-delete", recursiveStoreRemove},
		{[]string{"delete"}, "remote-delete", recursiveStoreRemove}, {[]string{"recipients", "add"}, "expose-secret", nil}},
	// secret managers' items deleted for good: a GCP secret version
	// destroyed, an SSM parameter, a Doppler secret outside dev and staging,
	// a Bitwarden item deleted --permanent (not to the trash)
	"gcloud": {{[]string{"secrets", "versions", "destroy"}, "remote-delete", nil}},
	"aws": {{[]string{"ssm", "*"}, "remote-delete", func(_ shell.Command, ops []string) bool {
		return (ops[1] == "delete-parameter" || ops[1] == "delete-parameters") && !allTemporaryStr(ops[2:])
	}}},
	"doppler": {{[]string{"secrets", "delete"}, "remote-delete", func(c shell.Command, _ []string) bool {
		return !slices.ContainsFunc(optionValuesAny(c.Args[1:], []string{"-c", "--config"}), func(s string) bool { return nonProdTarget(s) || s == "dev" || s == "stg" })
	}}},
	"bw": {{[]string{"delete"}, "remote-delete", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--permanent") }}},
	// 1Password: an item or vault deleted outright (not --archive'd), a
	// vault opened to a user, an item shared by link.
	"op": {
		{[]string{"item", "delete"}, "remote-delete", func(c shell.Command, ops []string) bool {
			return !hasWord(c.Args, "--archive") && !opDisposable(c, ops[2:])
		}},
		{[]string{"vault", "delete"}, "remote-delete", func(c shell.Command, ops []string) bool { return !opDisposable(c, ops[2:]) }},
		{[]string{"document", "delete"}, "remote-delete", func(c shell.Command, ops []string) bool {
			return !hasWord(c.Args, "--archive") && !opDisposable(c, ops[2:])
		}},
		{[]string{"vault", "user", "grant"}, "expose-secret", func(c shell.Command, _ []string) bool { return !opDisposable(c, nil) }},
		{[]string{"vault", "group", "grant"}, "expose-secret", func(c shell.Command, _ []string) bool { return !opDisposable(c, nil) }},
		{[]string{"item", "share"}, "expose-secret", func(c shell.Command, ops []string) bool { return !opDisposable(c, ops[2:]) }},
	},
	// smallstep: a provisioner removed (everything it enrolled cannot renew),
	// a CA key's password taken off.
	"step": {
		{[]string{"ca", "provisioner", "remove"}, "account-change", nil},
		{[]string{"crypto", "change-pass"}, "secret-world-readable", func(c shell.Command, _ []string) bool { return hasWord(c.Args, "--no-password") }},
	},
	"vault": {
		{[]string{"token", "create"}, "account-change", func(c shell.Command, _ []string) bool {
			return slices.Contains(append(optionValues(c.Args[1:], "-policy", "-policy"), optionValues(c.Args[1:], "--policy", "--policy")...), "root")
		}},
		{[]string{"operator", "seal"}, "stop-service", nil},
		{[]string{"audit", "disable"}, "security-off", nil}, // the record of every request stops
	},
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
	addHostCheck("pass", checkPassGit)
	addHostCheck("gopass", checkPassGit)
}

func checkAdminTool(c shell.Command, _ int) Verdict {
	if hasWord(c.Args, "--help") || hasWord(c.Args, "-h") && c.Name != "semanage" {
		return Verdict{}
	}
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if c.Name == "pwpolicy" || c.Name == "systemsetup" || c.Name == "sysadminctl" || c.Name == "profiles" || c.Name == "keytool" || strings.HasPrefix(c.Name, "kadmin") ||
		strings.HasPrefix(c.Name, "ipa-") || c.Name == "manage-bde" || c.Name == "dseditgroup" || c.Name == "socketfilterfw" {
		ops = append([]string{""}, ops...) // their options are single-dash words
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

// checkPassGit: pass git … and gopass git … run git in the store's
// repository; judged as that git command.
func checkPassGit(c shell.Command, depth int) Verdict {
	if len(c.Args) < 3 || c.Args[1].S != "git" {
		return Verdict{}
	}
	inner := shell.Command{Name: "git", Args: c.Args[1:], Programs: []string{"git"}}
	return via(checkCommand(inner, depth), c.Name+" git")
}

func recursiveStoreRemove(c shell.Command, ops []string) bool {
	o := shell.ParseOpts(c.Args[1:], "")
	return o.Has("r", "recursive") && !allTemporaryStr(ops[1:])
}

// opDisposable: the item or the vault is named as a test's or a sandbox's.
func opDisposable(c shell.Command, items []string) bool {
	names := append(slices.Clone(items), optionValues(c.Args[1:], "--vault", "--vault")...)
	return slices.ContainsFunc(names, nonProdTarget)
}

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

// everyAddress: a network that covers every address.
func everyAddress(s string) bool {
	return s == "0.0.0.0/0" || s == "::/0" || s == "0/0" || s == "any" || s == "0.0.0.0/1"
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

// secretDumps: commands whose output is a secret store's content: the
// directory with its password hashes, secret keys, decrypted files.
var secretDumps = regexp.MustCompile(`^(?:slapcat|gpg --export-secret-(?:sub)?keys|gpg2 --export-secret-(?:sub)?keys|sops (?:-d|--decrypt)|pass show|gopass show|vault kv get|op read|op item get)\b`)

// publicDir: a web root, or a directory named as published (public, pub,
// htdocs): what is written there is handed to whoever asks.
func publicDir(p string) bool {
	p = path.Clean(p)
	if webRoot.MatchString(p) {
		return true
	}
	comps := strings.Split(path.Dir(p), "/")
	return slices.ContainsFunc(comps, func(c string) bool { return c == "public" || c == "pub" || c == "htdocs" || c == "www" })
}

// checkSecretDumpStmt: a secret store's content written by redirection into
// a published directory (slapcat > /var/www/html/x.ldif, op read … >
// /srv/share/public/x.txt); and LDIF fed to ldapmodify by a here-document.
func checkSecretDumpStmt(s *syntax.Stmt) Verdict {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
		return hitIf(dumpedThenStaged(b), "expose-secret")
	}
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(s.Redirs) == 0 { // both need a redirection: an output file or a here-document
		return Verdict{}
	}
	_, here := shell.HereText(s.Redirs)
	published := slices.ContainsFunc(s.Redirs, func(r *syntax.Redirect) bool {
		return r != nil && shell.WriteOps[r.Op] && publicDir(shell.ResolveWord(r.Word).S)
	})
	if !here && !published {
		return Verdict{}
	}
	c, ok := shell.BuildCommand(call)
	if !ok {
		return Verdict{}
	}
	if text, ok := shell.HereText(s.Redirs); ok && ldifTools[c.Name] {
		if v := judgeLDIF(text); v.Dangerous {
			return v
		}
	}
	words := c.Name + " " + strings.Join(shell.Lits(c.Args[1:]), " ")
	if !secretDumps.MatchString(words) && !readsSecretStore(c) {
		return Verdict{}
	}
	for _, r := range s.Redirs {
		if r != nil && shell.WriteOps[r.Op] && publicDir(shell.ResolveWord(r.Word).S) {
			return hit("expose-secret")
		}
	}
	return Verdict{}
}

// vaultAPIDelete: Vault's HTTP API, on whatever host serves it: a secrets
// engine, an auth method, a policy or a namespace (sys/…), or every version
// of a KV v2 secret (MOUNT/metadata/PATH); DELETE to it is the CLI's
// vault secrets disable, auth disable, policy delete or kv metadata delete.
var vaultAPIDelete = regexp.MustCompile(`^https?://[^/]+/v1/(?:sys/(?:mounts|auth|policy|policies/acl|namespaces)/|[^/]+/metadata/)([^?]+)`)

func checkVaultAPIDelete(c shell.Command, _ int) Verdict {
	if !curlDeletes(shell.Lits(c.Args[1:])) {
		return Verdict{}
	}
	for _, a := range c.Args[1:] {
		if m := vaultAPIDelete.FindStringSubmatch(a.S); m != nil && !nonProdTarget(m[1]) {
			return hit("cloud-teardown")
		}
	}
	return Verdict{}
}

func init() { addHostCheck("curl", checkVaultAPIDelete) }

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

// backupSuffix: what a backup copy adds to a file's name (.bak, .orig,
// .bak-20261127, .2026-11-27, ~).
var backupSuffix = regexp.MustCompile(`^(?:[._-]?(?:bak|backup|orig|old|save|saved|pre[-_]?\w*)(?:[._-]?[0-9][0-9T:._-]*)?|[._-](?:19|20)[0-9]{2}[0-9T:._-]*|~)$`)

// copiesToBackup: cp FILE FILE.bak beside it writes a new file and replaces
// nothing (cp -a /etc/pam.d/common-auth /etc/pam.d/common-auth.bak-20261127).
func copiesToBackup(ops []shell.Word, dst string) bool {
	if len(ops) != 2 || ops[0].Dyn() || ops[1].Dyn() {
		return false
	}
	src := path.Clean(ops[0].S)
	dst = path.Clean(dst)
	rest, ok := strings.CutPrefix(dst, src)
	return ok && rest != "" && backupSuffix.MatchString(rest)
}

// dumpedThenStaged: a secret store's content written to a file (sops -d
// x.enc.yaml > x.yaml) and that file staged by git add later in the same
// list: the plain text goes into the history and every clone.
func dumpedThenStaged(b *syntax.BinaryCmd) bool {
	redirected, git := false, false
	syntax.Walk(b, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			redirected = redirected || len(n.Redirs) > 0
		case *syntax.CallExpr:
			for _, a := range n.Args {
				git = git || shell.ShallowLit(a.Parts) == "git"
			}
		}
		return !redirected || !git
	})
	if !redirected || !git {
		return false // nothing is written to a file, or nothing staged
	}
	var dumped []string
	found := false
	syntax.Walk(b, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || found {
			return !found
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			return true
		}
		c, ok := shell.BuildCommand(call)
		if !ok {
			return true
		}
		words := c.Name + " " + strings.Join(shell.Lits(c.Args[1:]), " ")
		if secretDumps.MatchString(words) || readsSecretStore(c) {
			for _, r := range st.Redirs {
				if r != nil && shell.WriteOps[r.Op] {
					dumped = append(dumped, path.Clean(shell.ResolveWord(r.Word).S))
				}
			}
		}
		if c.Name == "git" && len(dumped) > 0 {
			ops := shell.Lits(shell.ParseOpts(c.Args[1:], "C").Operands)
			if len(ops) > 0 && ops[0] == "add" && !hasWord(c.Args, "-n") && !hasWord(c.Args, "--dry-run") {
				inTree := slices.ContainsFunc(dumped, func(d string) bool { return !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~") })
				for _, p := range ops[1:] {
					p = path.Clean(p)
					found = found || p == "." && inTree || slices.ContainsFunc(dumped, func(d string) bool { return d == p || strings.HasPrefix(d, p+"/") })
				}
				found = found || inTree && (hasWord(c.Args, "-A") || hasWord(c.Args, "--all"))
			}
		}
		return !found
	})
	return found
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
