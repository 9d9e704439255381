package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Secret stores administered from the shell (tune20): password stores
// (pass, gopass), 1Password, Bitwarden, Doppler, Vault, the clouds' secret
// managers and Key Vault, Java keystores. A folder of entries, a secret's
// every version or a whole engine deleted for good, a store opened to
// another reader, a secret's content written where others read it
// (a published directory, a git commit). Archives, holds and targets named
// as disposable pass. The verbs join adminTools (checks_secadmin.go).

var secretStoreTools = map[string][]adminVerb{
	// Azure Key Vault's purges are checks_plane.go's (checkAzPlane), judged by
	// the vault's, group's or scope's name.
	// a Java keystore's private key entry deleted
	"keytool": {{[]string{"*"}, "secret-key-delete", func(c shell.Command, _ []string) bool {
		stores := optionValues(c.Args[1:], "-keystore", "-keystore")
		return hasWord(c.Args, "-delete") && !slices.ContainsFunc(stores, nonProdTarget)
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
	// vault's root tokens, seal and audit devices are checks_plane.go's (iam-widened,
	// cloud-lockout, protection-off), which also know a local dev server.
}

func init() {
	for name, verbs := range secretStoreTools {
		adminTools[name] = append(adminTools[name], verbs...)
		addHostCheck(name, checkAdminTool)
	}
	addHostCheck("pass", checkPassGit)
	addHostCheck("gopass", checkPassGit)
}

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
	eachCommand(b, func(st *syntax.Stmt, c shell.Command) bool {
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
		return found
	})
	return found
}
