package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Release, hosting and app-store command lines (tune17): each verb below
// withdraws or destroys something already published or live — a package
// version others install, a secret a running app reads, a signing identity,
// a customer, a real device's data. A target named as disposable (preview,
// dev, staging, test, pr-12) passes; verbs marked live need a production
// target (--live, a prod-named project or app) before they are refused.

type releaseVerb struct {
	words []string // the leading operands, in order
	rule  string
	live  bool // refused only against a production target
}

var releaseTools = map[string][]releaseVerb{
	"npm":      npmVerbs,
	"pnpm":     npmVerbs,
	"stripe":   {{[]string{"*", "delete"}, "sdk-bulk-delete", true}, {[]string{"subscriptions", "cancel"}, "sdk-bulk-delete", true}},
	"fastlane": {{[]string{"match", "nuke"}, "secret-key-delete", false}},
	"fastboot": {{[]string{"erase"}, "write-block-device", false}, {[]string{"format"}, "write-block-device", false}},
	"cfgutil":  {{[]string{"erase"}, "write-block-device", false}},
	"firebase": {{[]string{"functions:secrets:destroy"}, "secret-key-delete", false}, {[]string{"auth:delete"}, "sdk-bulk-delete", false}},
	"supabase": {{[]string{"secrets", "unset"}, "secret-key-delete", false}, {[]string{"storage", "rm"}, "cloud-teardown", false}},
	"fly":      flyVerbs,
	"flyctl":   flyVerbs,
	"heroku":   {{[]string{"config:unset"}, "secret-key-delete", false}},
	"netlify":  {{[]string{"env:unset"}, "secret-key-delete", false}},
	"vercel":   {{[]string{"env", "rm"}, "secret-key-delete", false}, {[]string{"env", "remove"}, "secret-key-delete", false}},
	"wrangler": {{[]string{"secret", "delete"}, "secret-key-delete", false},
		// r2.dev public access: every object of the bucket readable by anyone
		{[]string{"r2", "bucket", "dev-url", "enable"}, "storage-made-public", false}},
	// a site's certificate and private key deleted (or revoked): the
	// server that names them fails to start or reload, and HTTPS stops
	"flarectl": {{[]string{"dns", "delete"}, "cloud-teardown", false}, {[]string{"zone", "delete"}, "cloud-teardown", false}},
	"certbot":  {{[]string{"delete"}, "secret-key-delete", false}}, // revoke: cert_revoke.go
}

var npmVerbs = []releaseVerb{
	{[]string{"deprecate"}, "package-unpublish", false},
	{[]string{"dist-tag", "add"}, "package-unpublish", false},
	{[]string{"dist-tag", "rm"}, "package-unpublish", false},
	{[]string{"owner", "rm"}, "package-unpublish", false},
}

var flyVerbs = []releaseVerb{
	{[]string{"secrets", "unset"}, "secret-key-delete", false},
	{[]string{"scale", "count", "0"}, "stop-service", false},
	{[]string{"postgres", "destroy"}, "cloud-teardown", false},
	{[]string{"volumes", "destroy"}, "volume-delete", false},
}

// releaseTargetOpts name the environment, project or app a command acts on.
var releaseTargetOpts = []string{"--cert-name", "--env", "--environment", "--project", "-P", "--app", "-a", "--site", "--tag", "--config"}

func init() {
	for name := range releaseTools {
		addHostCheck(name, checkReleaseTool)
	}
}

func checkReleaseTool(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(withoutValueOpts(c.Args[1:]), "aPse")
	ops := shell.Lits(o.Operands)
	if len(ops) == 0 || o.Long["dry-run"] || o.Long["help"] || o.Has("h", "") {
		return Verdict{}
	}
	for _, v := range releaseTools[c.Name] {
		if !leadingWords(ops, v.words) {
			continue
		}
		targets := optionValuesAny(c.Args[1:], releaseTargetOpts)
		if v.rule == "storage-made-public" && len(ops) > len(v.words) {
			bucket := ops[len(v.words)]
			if servedContent.MatchString(bucket) || nonProdTarget(bucket) {
				return Verdict{} // a bucket of a site's assets is meant to be read by anyone; a preview's holds nothing of record
			}
		}
		if slices.ContainsFunc(targets, nonProdTarget) || v.words[0] == "deprecate" && len(ops) > 1 && oneVersion(ops[1]) {
			return Verdict{}
		}
		if v.live && !o.Long["live"] && !slices.ContainsFunc(targets, productionName) {
			return Verdict{}
		}
		return hit(v.rule)
	}
	return Verdict{}
}

// releaseValueOpts are long options of these tools that take a separate
// value (cfgutil --ecid 0x1A erase), so the value is not read as the verb.
var releaseValueOpts = shell.Set("--cert-name", "--ecid", "--project", "--app", "--env", "--environment", "--site", "--config", "--account", "--cwd", "--registry", "--otp", "--api-key")

func withoutValueOpts(args []shell.Word) []shell.Word {
	out := make([]shell.Word, 0, len(args))
	for i := 0; i < len(args); i++ {
		if releaseValueOpts[args[i].S] && i+1 < len(args) {
			out = append(out, shell.Word{S: args[i].S + "=" + args[i+1].S})
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// servedContent: a bucket named for what a site serves to everyone anyway.
var servedContent = regexp.MustCompile(`(?i)(?:^|[-_.])(?:assets|static|public|cdn|www|site|web|docs|fonts)(?:$|[-_.])`)

func leadingWords(ops, words []string) bool {
	if len(ops) < len(words) {
		return false
	}
	for i, w := range words {
		if w != "*" && ops[i] != w {
			return false
		}
	}
	return true
}

func productionName(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "prod") || strings.Contains(s, "live") || s == "main" || s == "master"
}

// nonProdTarget: a throwaway target, or one named as staging or a preview.
func nonProdTarget(s string) bool {
	return throwawayTarget(s) || strings.Contains(strings.ToLower(s), "staging") || strings.Contains(strings.ToLower(s), "preview")
}

// throwawayTarget: a name that says it is temporary or a developer's, test's or
// lab's own (not staging, which others share).
func throwawayTarget(s string) bool { return temporaryName(s) || devTarget(s) }

// oneVersion: a package spec naming one exact version (@acme/ui@1.2.0),
// whose deprecation points users at its fix; a bare name, a range or "*"
// deprecates every install.
func oneVersion(spec string) bool {
	i := strings.LastIndex(spec, "@")
	if i <= 0 {
		return false
	}
	v := spec[i+1:]
	return v != "" && !strings.ContainsAny(v, "*<>^~| xX")
}

// hostingAPIDelete: a hosting provider's API address of a DNS record, a
// service, an app, a project or a site; DELETE to it is the CLI's delete.
var hostingAPIDelete = regexp.MustCompile(`^https?://api\.(?:cloudflare\.com/client/v4/(?:zones/[^/]+/dns_records|accounts/[^/]+/(?:workers/scripts|pages/projects|d1/database|r2/buckets|storage/kv/namespaces))|render\.com/v1/(?:services|postgres)|heroku\.com/apps|vercel\.com/v\d+/projects|netlify\.com/api/v1/sites|fly\.io/v1/apps)/([^/?]+)`)

func init() {
	addHostCheck("curl", checkHostingAPIDelete)
}

func checkHostingAPIDelete(c shell.Command, _ int) Verdict {
	if !curlDeletes(shell.Lits(c.Args[1:])) {
		return Verdict{}
	}
	for _, a := range c.Args[1:] {
		if m := hostingAPIDelete.FindStringSubmatch(a.S); m != nil && !nonProdTarget(m[1]) {
			return hit("cloud-teardown")
		}
	}
	return Verdict{}
}

// checkD1Remote: wrangler d1 execute --remote runs its --command against the
// deployed database, so the SQL is judged as a client's would be; without
// --remote it runs against the local copy.
func checkD1Remote(c shell.Command, depth int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	if len(ops) < 3 || ops[0] != "d1" || ops[1] != "execute" || !o.Long["remote"] || nonProdTarget(ops[2]) {
		return Verdict{}
	}
	for _, s := range optionValues(c.Args[1:], "", "--command") {
		if v := classifySQL(shell.ForParser(s, SQL), depth+1); v.Dangerous {
			return via(v, "wrangler d1")
		}
	}
	return Verdict{}
}

// checkAdbShellRm: adb shell rm -r of a real device's shared storage
// (/sdcard, /storage, /data/media) deletes the owner's photos and files; an
// emulator (-e, -s emulator-5554) is a scratch device.
func checkAdbShellRm(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "sHPt")
	ops := shell.Lits(o.Operands)
	serials := optionValues(c.Args[1:], "-s", "")
	if o.Has("e", "") || len(serials) > 0 && strings.HasPrefix(serials[0], "emulator-") || len(ops) < 3 || ops[0] != "shell" || ops[1] != "rm" { // ops: shell rm PATH…, its flags parsed as adb's
		return Verdict{}
	}
	recursive := slices.ContainsFunc(shell.Lits(c.Args[1:]), func(a string) bool {
		return a == "-r" || a == "-R" || a == "-rf" || a == "-fr" || a == "-Rf" || a == "-fR"
	})
	onStorage := slices.ContainsFunc(ops[2:], func(a string) bool {
		return strings.HasPrefix(a, "/sdcard") || strings.HasPrefix(a, "/storage/") || strings.HasPrefix(a, "/data/media")
	})
	return hitIf(recursive && onStorage, "remote-delete")
}

// checkKeychainIdentity: security delete-identity / delete-certificate
// remove a signing identity from a keychain; the private key goes with it.
func checkKeychainIdentity(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "cZtk").Operands)
	return hitIf(len(ops) > 0 && (ops[0] == "delete-identity" || ops[0] == "delete-certificate"), "secret-key-delete")
}

func init() {
	addHostCheck("wrangler", checkD1Remote)
	addHostCheck("adb", checkAdbShellRm)
	addHostCheck("security", checkKeychainIdentity)
}
