package danger

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Elasticsearch and OpenSearch through their HTTP API (curl, http, xh),
// the URL written out or held in a variable named for the cluster ($ES,
// $ES_URL, $OPENSEARCH): what a request does is decided by its method, its
// path and its body, and whom it does it to by the index, snapshot or host.
//
//   - DELETE of an index expression (customers, _all, *, .kibana*,a,b, a
//     loop's $i) that is not all scratch, test or staging indices;
//   - DELETE of a data stream (its backing indices) likewise;
//   - DELETE of snapshots (backups) not named for a test or CI run;
//   - _delete_by_query matching every document (match_all, no query);
//   - _close of an index (it goes offline until opened);
//   - action.destructive_requires_name turned off (wildcard deletes allowed);
//   - a role mapping or user given superuser/all_access for every user.

var (
	storeVar        = regexp.MustCompile(`(?i)^(?:ES|OS|ELASTIC\w*|OPENSEARCH\w*|ES_\w+|\w+_ES|\w+_ES_URL|SEARCH_URL|KIBANA\w*)$`)
	storeAllDocs    = regexp.MustCompile(`"match_all"\s*:\s*\{\s*\}`)
	storeNoSafety   = regexp.MustCompile(`"?action\.destructive_requires_name"?\s*:\s*"?false`)
	storeSuperRole  = regexp.MustCompile(`"(?:superuser|all_access|security_manager)"`)
	storeEveryUser  = regexp.MustCompile(`"(?:username|users|backend_roles)"\s*:\s*(?:\[\s*)?"\*"`)
	storeRoleMapURL = regexp.MustCompile(`(?:^|/)(?:_security/role_mapping|_security/user|_plugins/_security/api/(?:rolesmapping|internalusers)|_opendistro/_security/api/(?:rolesmapping|internalusers))(?:/|$)`)
)

func init() {
	for _, name := range []string{"curl", "http", "https", "xh"} {
		addHostCheck(name, checkStoreHTTP)
	}
}

// leadingParam: the name of the variable a word starts with ("$ES/x" → ES).
func leadingParam(w shell.Word) string {
	if w.Node == nil || len(w.Node.Parts) == 0 {
		return ""
	}
	part := w.Node.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) > 0 {
		part = dq.Parts[0]
	}
	if pe, ok := part.(*syntax.ParamExp); ok && pe.Param != nil {
		return pe.Param.Value
	}
	return ""
}

// storeRequestPath: the API path of a word that is a search cluster's URL,
// and whether its host is a disposable one.
func storeRequestPath(w shell.Word) (p string, disposable, ok bool) {
	if strings.HasPrefix(w.S, shell.DynMark) && storeVar.MatchString(leadingParam(w)) {
		return strings.TrimPrefix(w.S, shell.DynMark), false, true
	}
	raw := w.S
	if !strings.Contains(raw, "://") || strings.HasPrefix(raw, "-") {
		return "", false, false
	}
	u, err := url.Parse(strings.ReplaceAll(raw, shell.DynMark, "x"))
	if err != nil || !storeAPIPorts[u.Port()] && !storeHost.MatchString(u.Hostname()) {
		return "", false, false
	}
	return u.EscapedPath(), disposableEndpoint(u.Host, "9200") || disposableStore(u.Hostname()), true
}

// allDisposable: every name of a comma-separated expression is scratch,
// test, staging or CI; wildcards alone, _all, system indices (.kibana) and
// names computed at run time are not.
func allDisposable(expr string) bool {
	for _, n := range strings.Split(expr, ",") {
		if n == "" || strings.Contains(n, shell.DynMark) || strings.HasPrefix(n, ".") || strings.Trim(n, "*") == "" || n == "_all" || !disposableStore(n) {
			return false
		}
	}
	return true
}

func checkStoreHTTP(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	method := ""
	for i, a := range args {
		switch {
		case strings.HasPrefix(a, "-X") && len(a) > 2:
			method = strings.ToUpper(a[2:])
		case (a == "-X" || a == "--request") && i+1 < len(args):
			method = strings.ToUpper(args[i+1])
		case strings.HasPrefix(a, "--request="):
			method = strings.ToUpper(strings.TrimPrefix(a, "--request="))
		case c.Name != "curl" && i == 0 && strings.ToUpper(a) == a && len(a) > 2:
			method = a // http DELETE URL
		}
	}
	body := strings.Join(shell.Lits(optValues(c.Args[1:], "d", "data", "data-binary", "data-raw", "json")), " ")
	if method == "" && body != "" {
		method = "POST"
	}
	for _, w := range c.Args[1:] {
		p, disposable, ok := storeRequestPath(w)
		if !ok || disposable {
			continue
		}
		p, _, _ = strings.Cut(p, "?")
		segs := strings.Split(strings.Trim(p, "/"), "/")
		if v := storeRequest(method, segs, body); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// storeRequest judges one request to a search cluster that is not disposable.
func storeRequest(method string, segs []string, body string) Verdict {
	if len(segs) == 0 || segs[0] == "" {
		return Verdict{}
	}
	last := segs[len(segs)-1]
	switch {
	case method == "DELETE" && segs[0] == "_snapshot" && len(segs) >= 3:
		return hitIf(!allDisposable(segs[2]), "backup-delete")
	case method == "DELETE" && len(segs) == 1 && (!strings.HasPrefix(segs[0], "_") || segs[0] == "_all"):
		return hitIf(!allDisposable(segs[0]), "queue-purge")
	case method == "DELETE" && len(segs) == 2 && segs[0] == "_data_stream":
		return hitIf(!allDisposable(segs[1]), "queue-purge") // the stream's backing indices go with it
	case (method == "POST" || method == "") && last == "_delete_by_query":
		return hitIf((body == "" || storeAllDocs.MatchString(body)) && !allDisposable(segs[0]), "queue-purge")
	case (method == "POST" || method == "") && last == "_close" && len(segs) == 2:
		return hitIf(!allDisposable(segs[0]), "queue-purge")
	case (method == "PUT" || method == "POST") && strings.Join(segs, "/") == "_cluster/settings":
		return hitIf(storeNoSafety.MatchString(body), "security-off")
	case (method == "PUT" || method == "POST") && storeRoleMapURL.MatchString(strings.Join(segs, "/")):
		return hitIf(storeEveryUser.MatchString(body) && (storeSuperRole.MatchString(body) || strings.Contains(strings.Join(segs, "/"), "all_access")), "sql-superuser")
	}
	return Verdict{}
}
