package danger

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// MinIO's client, mc, whose targets are ALIAS/BUCKET/PREFIX: judged by the
// alias (local, dev, staging…) and the bucket or prefix (ci-artifacts,
// tmp-…), as the other stores' targets are. Recursive forced removes, forced
// bucket removal and mirrors that remove what the source lacks delete
// objects; anonymous access set to public/download/upload publishes a
// bucket (unless it is meant to serve a site's public files); a lifecycle
// expiry within a week deletes what the bucket holds; the consoleAdmin
// policy attached makes a user the deployment's administrator; anything
// copied to the "play" alias (play.min.io, MinIO's public playground) is
// published.

// publicContent: buckets meant to be read by anyone (a static site, assets,
// downloads).
var publicContent = regexp.MustCompile(`(?i)(?:^|[-_./])(?:public|static|site|www|web|assets|cdn|downloads?|media)(?:$|[-_./])`)

// mcDisposable: an mc target whose alias or bucket/prefix says it is
// disposable (a local or staging alias, a CI or scratch bucket).
func mcDisposable(target string) bool {
	for _, part := range strings.Split(strings.Trim(target, "/"), "/") {
		if disposableStore(part) {
			return true
		}
	}
	return false
}

// mcValueOpts: mc options that take a value.
var mcValueOpts = shell.Set("--older-than", "--newer-than", "--expire-days", "--expiry-days", "--transition-days", "--user", "--group",
	"--config-dir", "-C", "--encrypt-key", "--storage-class", "--attr", "--tags", "--rewind", "--version-id", "--limit-upload", "--limit-download",
	"--noncurrent-expire-days", "--expire-date", "--prefix", "--tier", "--policy", "--exclude")

func init() {
	addHostCheck("mc", checkMinioClient)
	addHostCheck("mcli", checkMinioClient)
}

func checkMinioClient(c shell.Command, _ int) Verdict {
	if hasWord(c.Args, "--help") || hasWord(c.Args, "-h") || hasWord(c.Args, "--dry-run") || hasWord(c.Args, "--fake") {
		return Verdict{}
	}
	ops := plainWords(c.Args[1:], mcValueOpts)
	if len(ops) < 2 {
		return Verdict{}
	}
	targets := ops[1:]
	allDisp := func(ts []string) bool {
		for _, t := range ts {
			if !mcDisposable(t) {
				return false
			}
		}
		return len(ts) > 0
	}
	force := hasWord(c.Args, "--force")
	switch ops[0] {
	case "rm":
		return hitIf((hasWord(c.Args, "--recursive") || hasWord(c.Args, "-r")) && force && !allDisp(targets), "cloud-teardown")
	case "rb":
		return hitIf(force && !allDisp(targets), "cloud-teardown")
	case "mirror":
		remove := hasWord(c.Args, "--remove") || hasWord(c.Args, "--delete")
		if remove && !mcDisposable(ops[len(ops)-1]) {
			return hit("cloud-teardown")
		}
		return mcToPlayground(ops)
	case "anonymous", "policy":
		if len(ops) >= 4 && ops[1] == "set" && (ops[2] == "public" || ops[2] == "download" || ops[2] == "upload") {
			bucket := ops[3]
			return hitIf(!mcDisposable(bucket) && !publicContent.MatchString(bucket[strings.IndexByte(bucket, '/')+1:]), "storage-made-public")
		}
	case "ilm":
		for _, d := range append(optionValues(c.Args[1:], "", "--expire-days"), optionValues(c.Args[1:], "", "--expiry-days")...) {
			if n, err := strconv.Atoi(d); err == nil && n <= expiryDays && !allDisp(targets[len(targets)-1:]) {
				return hit("data-expiry")
			}
		}
	case "admin":
		// mc admin policy attach ALIAS consoleAdmin --user X (set, in older releases)
		if len(ops) >= 5 && ops[1] == "policy" && (ops[2] == "attach" || ops[2] == "set") && ops[4] == "consoleAdmin" {
			return hitIf(!mcDisposable(ops[3]), "account-change")
		}
	case "cp", "mv", "put":
		return mcToPlayground(ops)
	}
	return Verdict{}
}

// mcToPlayground: a copy whose destination is the public playground alias.
func mcToPlayground(ops []string) Verdict {
	dst := ops[len(ops)-1]
	return hitIf(len(ops) >= 3 && (dst == "play" || strings.HasPrefix(dst, "play/")), "expose-secret")
}
