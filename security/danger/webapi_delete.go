package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// A delete sent to an API, hard (curl -X DELETE URL) or soft (a PATCH of
// {"deleted": true} to the same URL, which the service can undo), is judged
// by what the address names, the same way for both: a resource that is
// itself a store, a service or live configuration (a project, a repository,
// a database, a bucket, a DNS zone, a feature flag, a saved dashboard) is
// refused; one item inside such a store (a todo, a comment, a label, a
// document) is routine work, as DELETE FROM t WHERE id = 42 is. A local
// service, and an address named as a preview, staging or test one, pass.
// (Addresses other rules know — hosting providers, Elasticsearch, Vault,
// Kubernetes — are judged by those rules as well.)

// registered after the checks of the addresses other rules know (file order)
func init() { addHostCheck("curl", checkAPIDelete) }

// softDeleteBody: a JSON body that marks the resource it is sent to deleted,
// the way APIs with soft deletes (PostHog's flags and insights, many admin
// APIs) take a delete: {"deleted": true}.
var softDeleteBody = regexp.MustCompile(`"(?:is_)?deleted"\s*:\s*true\b`)

// keptResources: the collections whose members are whole stores, services
// or live configuration, not one record.
var keptResources = shell.Set("projects", "repos", "repositories", "services", "apps", "applications", "sites", "databases",
	"buckets", "zones", "dns_records", "clusters", "instances", "volumes", "environments", "feature_flags", "flags",
	"experiments", "dashboards", "insights", "secrets", "keys", "api_keys", "certificates", "domains", "organizations",
	"orgs", "accounts", "workspaces", "indexes", "indices", "collections", "backups", "snapshots", "tables", "schemas")

// checkAPIDelete judges curl's DELETE and soft delete of an API address.
func checkAPIDelete(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	soft := false
	url := ""
	for _, a := range args {
		if softDeleteBody.MatchString(a) {
			soft = true
		}
		if strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://") {
			url = a
		}
	}
	if !soft && !curlDeletes(args) || url == "" {
		return Verdict{}
	}
	return hitIf(keptResource(url), "remote-delete")
}

// keptResource: the URL names one member of a kept collection
// (…/feature_flags/42/) on a host that is not local and not named as a
// preview, staging or test one.
func keptResource(url string) bool {
	rest := url[strings.Index(url, "://")+3:]
	rest, _, _ = strings.Cut(rest, "?")
	_, p, _ := strings.Cut(rest, "/")
	if host, _ := splitEndpoint(url); loopbackHost(host) || host == "0.0.0.0" {
		return false
	}
	for _, part := range strings.FieldsFunc(rest, func(r rune) bool { return r == '/' || r == '.' }) {
		if nonProdTarget(part) {
			return false
		}
	}
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	return len(segs) >= 2 && keptResources[strings.ToLower(segs[len(segs)-2])]
}
