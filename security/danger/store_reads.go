package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Reads from a datastore that print its records or its secrets to stdout,
// for the pipeline checks that follow them to a sender (checkPipeExpose):
// mongoexport without an output file, a search cluster's _search or _sql,
// clickhouse-client and cqlsh queries, a Redis RDB streamed to stdout,
// elasticdump to stdout, and etcd or Redis keys that name secrets.

// secretKeyName: a key or path naming secrets (Kubernetes' /registry/secrets,
// config:secrets, db-credentials, api_token).
var secretKeyName = regexp.MustCompile(`(?i)secret|credential|passw(?:or)?d|token|private[-_]?key|api[-_]?key`)

// storeDump: c prints a datastore's records.
func storeDump(c shell.Command) bool {
	switch c.Name {
	case "mongoexport":
		return len(optionValues(c.Args[1:], "-o", "--out")) == 0
	case "clickhouse-client", "clickhouse", "cqlsh":
		for _, q := range append(optionValues(c.Args[1:], "-q", "--query"), optionValues(c.Args[1:], "-e", "--execute")...) {
			if t := strings.ToUpper(strings.TrimSpace(q)); strings.HasPrefix(t, "SELECT") && !strings.Contains(t, "INTO OUTFILE") {
				return true
			}
		}
	case "redis-cli", "valkey-cli":
		return slices0(optionValues(c.Args[1:], "", "--rdb")) == "-"
	case "elasticdump":
		return slices0(optionValues(c.Args[1:], "", "--output")) == "$"
	case "etcdctl":
		return hasWord(c.Args, "get") && (hasWord(c.Args, "--prefix") || hasWord(c.Args, "--from-key"))
	case "curl", "http", "https", "xh":
		for _, w := range c.Args[1:] {
			if p, _, ok := storeRequestPath(w); ok {
				p, _, _ = strings.Cut(p, "?")
				last := p[strings.LastIndexByte(p, '/')+1:]
				if last == "_search" || last == "_msearch" || last == "_sql" || last == "_export" {
					return true
				}
			}
		}
	}
	return false
}

// storeSecretRead: c prints a datastore key that names a secret (etcdctl get
// /registry/secrets/…, redis-cli HGETALL config:secrets).
func storeSecretRead(c shell.Command) bool {
	words := shell.Lits(c.Args[1:])
	for i, w := range words {
		switch {
		case c.Name == "etcdctl" && w == "get" && i+1 < len(words):
			return secretKeyName.MatchString(words[i+1])
		case (c.Name == "redis-cli" || c.Name == "valkey-cli") && i+1 < len(words) && redisReads[strings.ToUpper(w)]:
			return secretKeyName.MatchString(words[i+1])
		}
	}
	return false
}

var redisReads = shell.Set("GET", "HGETALL", "HGET", "MGET", "DUMP", "LRANGE", "SMEMBERS")

func slices0(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}
