package danger

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Data published where anyone can read it:
//
//   - a home directory or credentials copied, synced or archived into a web
//     server's document root (cp -r ~ /var/www/html/, tar czf
//     /var/www/html/home.tgz ~, zip -r /srv/www/k.zip ~/.ssh): the server
//     hands them to whoever asks, as INTO OUTFILE '/var/www/…' does;
//   - a bucket policy that allows everyone (aws s3api put-bucket-policy with
//     "Principal": "*" and no Condition), as a public ACL does.
//
// And BigQuery's bq rm of a dataset (-r, with its tables) or a table, which
// is DROP TABLE for the warehouse, unless its name says disposable.

var webRoot = regexp.MustCompile(`^(?:/var/www|/srv/www|/srv/http|/usr/share/nginx/html|/usr/local/apache2/htdocs|/var/lib/nginx/html)(?:/|$)|/public_html(?:/|$)|^(?:~|/home/[^/]+)/public_html`)

func init() {
	for _, n := range []string{"cp", "rsync", "tar", "zip", "ln"} {
		addHostCheck(n, checkPublishToWebRoot)
	}
	addHostCheck("bq", checkBQRemove)
}

func checkPublishToWebRoot(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "fCbdgeoSTXxt")
	ops := shell.Lits(o.Operands)
	var dest string
	var srcs []string
	switch c.Name {
	case "tar":
		f := optionValues(c.Args[1:], "-f", "--file")
		args := shell.Lits(c.Args[1:])
		for i, a := range args {
			if len(f) == 0 && i+1 < len(args) && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "f") {
				f = []string{args[i+1]} // tar -czf FILE SRC…
				ops = slices.DeleteFunc(ops, func(o string) bool { return o == args[i+1] })
			}
		}
		if len(f) == 0 && len(ops) > 1 && !strings.HasPrefix(ops[0], "-") && strings.Contains(ops[0], "f") {
			f, ops = ops[1:2], ops[2:] // tar czf FILE SRC…: the old-style bundled letters
		}
		creates := slices.ContainsFunc(args, func(a string) bool {
			return a == "--create" || !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && strings.Contains(a, "c")
		}) || len(args) > 0 && !strings.HasPrefix(args[0], "-") && strings.Contains(args[0], "c")
		if len(f) == 0 || !creates {
			return Verdict{}
		}
		dest, srcs = f[0], ops
		if dirs := optionValues(c.Args[1:], "-C", "--directory"); len(dirs) > 0 {
			for i, s := range srcs {
				if s == "." || s == "./" {
					srcs[i] = dirs[0]
				}
			}
		}
	case "zip":
		if len(ops) < 2 {
			return Verdict{}
		}
		dest, srcs = ops[0], ops[1:]
	default:
		if len(ops) < 2 {
			return Verdict{}
		}
		dest, srcs = ops[len(ops)-1], ops[:len(ops)-1]
	}
	if !webRoot.MatchString(path.Clean(dest)) {
		return Verdict{}
	}
	for _, s := range srcs {
		if cl := classifyPath(s); cl == pcHome && !strings.HasPrefix(path.Clean(s), "~/public_html") || cl == pcCredential || secretPath(s) {
			return hit("expose-secret")
		}
	}
	return Verdict{}
}

// publicPolicy: a policy document (JSON, or a Python dict written out as
// text) that allows everyone and sets no condition.
var (
	policyPrincipalAll = regexp.MustCompile(`["']Principal["']\s*:\s*(?:["']\*["']|\{\s*["']AWS["']\s*:\s*(?:["']\*["']|\[\s*["']\*["']\s*\])\s*\})`)
	policyAllow        = regexp.MustCompile(`["']Effect["']\s*:\s*["']Allow["']`)
	policyCondition    = regexp.MustCompile(`["']Condition["']\s*:`)
)

func publicPolicy(doc string) bool {
	return policyPrincipalAll.MatchString(doc) && policyAllow.MatchString(doc) && !policyCondition.MatchString(doc)
}

func checkBQRemove(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || ops[0] != "rm" || o.Has("j", "job") {
		return Verdict{}
	}
	for _, n := range ops[1:] {
		if !temporaryName(n) {
			return hit("cloud-teardown")
		}
	}
	return Verdict{}
}

// repoAPIPath: a code host's API address of a whole repository, project or
// group (GitHub's /repos/O/R, GitLab's /api/v4/projects/ID, Bitbucket's
// /2.0/repositories/W/R, Gitea's /api/v1/repos/O/R): DELETE to it is
// gh repo delete, the code, issues and history with it.
var repoAPIPath = regexp.MustCompile(`^(?:/api/v3)?/repos/[^/]+/([^/]+)/?$|^/api/v4/(?:projects|groups)/([^/]+)/?$|^/2\.0/repositories/[^/]+/([^/]+)/?$|^/api/v1/repos/[^/]+/([^/]+)/?$`)

func init() { addHostCheck("curl", checkRepoAPIDelete) }

func checkRepoAPIDelete(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if !curlDeletes(args) {
		return Verdict{}
	}
	for _, a := range args {
		if !strings.Contains(a, "://") {
			continue
		}
		u, err := url.Parse(a)
		if err != nil {
			continue
		}
		if m := repoAPIPath.FindStringSubmatch(u.Path); m != nil && !temporaryName(m[1]+m[2]+m[3]+m[4]) {
			return hit("cloud-teardown")
		}
	}
	return Verdict{}
}

// curlDeletes: curl's arguments ask for the DELETE method.
func curlDeletes(args []string) bool {
	for i, a := range args {
		if strings.EqualFold(a, "-XDELETE") || strings.EqualFold(a, "--request=DELETE") ||
			(a == "-X" || a == "--request") && i+1 < len(args) && strings.EqualFold(args[i+1], "DELETE") {
			return true
		}
	}
	return false
}
