package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// A credential made or decrypted earlier on the line is a secret wherever
// the line sends it (tune18): the file a new access key or service-account
// key was written to, made world-readable or uploaded; a vault file
// decrypted in place, then committed and pushed. Its name need not say it
// is a secret: the command that wrote it does.

// mintedFiles: the files c writes a new credential or decrypted secrets to
// (besides its > redirections, which the caller adds when mints is true).
func mintedFiles(c shell.Command) (files []string, mints, decrypts bool) {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	words := c.Name + " " + strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(words, "aws iam create-access-key"), strings.HasPrefix(words, "aws iam create-service-specific-credential"),
		strings.HasPrefix(words, "aws sts get-session-token"), strings.HasPrefix(words, "aws sts assume-role"),
		strings.HasPrefix(words, "az ad sp create-for-rbac"), strings.HasPrefix(words, "az ad sp credential reset"),
		strings.HasPrefix(words, "az ad app credential reset"), strings.HasPrefix(words, "vault token create"),
		strings.HasPrefix(words, "gcloud auth print-access-token"):
		return nil, true, false
	case strings.HasPrefix(words, "gcloud iam service-accounts keys create") && len(ops) > 4:
		return ops[4:5], true, false
	case c.Name == "ansible-vault" && len(ops) > 1 && ops[0] == "decrypt":
		if out := optionValues(c.Args[1:], "", "--output"); len(out) > 0 {
			return out, true, true
		}
		return ops[1:], true, true
	case c.Name == "sops" && (o.Has("d", "decrypt")):
		if o.Has("i", "in-place") {
			return ops, true, true
		}
		return nil, true, true
	}
	return nil, false, false
}

// worldMode: a chmod mode that lets others read (644, o+r, a+r, +r).
var worldMode = regexp.MustCompile(`^0?[0-7][0-7][4-7]$|^(?:[ugo]*[ao][ugo]*|)\+[rwx]*r`)

// checkMintedSecrets walks the line in order, recording the files that
// received a credential, and judges each later chmod, upload or push.
func checkMintedSecrets(f *syntax.File) Verdict {
	if !namesMinter(f) {
		return Verdict{}
	}
	minted := map[string]bool{}
	decrypted, piped := false, false // piped: the stage before printed a new credential
	var v Verdict
	eachCommand(f, func(st *syntax.Stmt, c shell.Command) bool {
		ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
		usesMinted := slices.ContainsFunc(ops, func(a string) bool { return minted[a] || minted[strings.TrimPrefix(a, "@")] })
		switch {
		case c.Name == "chmod" && len(ops) > 1 && worldMode.MatchString(ops[0]) && usesMinted:
			v = hit("secret-world-readable")
		case uploaders[c.Name] && usesMinted:
			v = hit("expose-secret")
		case c.Name == "curl" && slices.ContainsFunc(shell.Lits(c.Args[1:]), func(a string) bool {
			_, file, ok := strings.Cut(a, "@")
			return ok && minted[strings.TrimRight(file, ";")]
		}):
			v = hit("expose-secret")
		case c.Name == "git" && decrypted && len(ops) > 0 && ops[0] == "push":
			v = hit("expose-secret") // the decrypted file, added with the rest, is in the remote's history
		}
		if reencrypts(c) {
			for _, a := range ops {
				delete(minted, a)
			}
			decrypted = len(minted) > 0 && decrypted
		}
		files, mints, decrypts := mintedFiles(c)
		if c.Name == "tee" && piped {
			files, mints = ops, true // … create-access-key | tee key.json
		}
		piped = mints && len(st.Redirs) == 0
		if mints {
			for _, r := range st.Redirs {
				if truncates(r.Op) || r.Op == syntax.AppOut || r.Op == syntax.AppAll {
					files = append(files, lit(r.Word))
				}
			}
			for _, f := range files {
				minted[f] = true
			}
			decrypted = decrypted || decrypts && len(files) > 0
		}
		return v.Dangerous
	})
	return v
}

// uploaders copy a file they name to another host or a bucket.
var uploaders = shell.Set("gsutil", "aws", "az", "azcopy", "rclone", "scp", "rsync", "sftp", "gh", "s3cmd", "mc", "wormhole", "croc", "nc", "ncat")

// reencrypts: ansible-vault encrypt FILE, sops -e -i FILE: the decrypted
// copy is sealed again before anything later sends it.
func reencrypts(c shell.Command) bool {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	return c.Name == "ansible-vault" && len(ops) > 1 && ops[0] == "encrypt" || c.Name == "sops" && o.Has("e", "encrypt") && o.Has("i", "in-place")
}

// minters are the programs mintedFiles knows; a line running none of them
// (by its first word, behind any wrapper) is not walked again.
var minters = shell.Set("aws", "az", "gcloud", "vault", "ansible-vault", "sops")

func namesMinter(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && !found {
			for _, a := range call.Args {
				if minters[path.Base(lit(a))] {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
