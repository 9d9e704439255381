package danger

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Where a datastore's files may go and who may read them.
//
//   - A database dump copied to one's own backup host (a host of one's own
//     network whose name or path says backup, vault or archive) is a backup,
//     not an exposure; keys and credentials stay exposures wherever they go.
//   - The configuration files of the stores that keep their passwords in
//     them (redis.conf's requirepass and masterauth, users.acl, Kafka's
//     secrets directory, a MongoDB keyfile) are credentials to chmod.
//   - A volume prune limited by a filter to one run's or CI's volumes
//     (label=com.acme.ci=true, label=run=42) removes that run's fixtures.
//   - Moving or removing a Kubernetes static pod manifest stops that
//     control-plane component (etcd, the API server) on the node.

var backupPlace = regexp.MustCompile(`(?i)backup|vault|archive|bkp|bak`)

// ownBackupCopy: src is a database dump (not a key or credential) and dest
// (user@host:path) is a backup host of one's own network.
func ownBackupCopy(src, dest string) bool {
	if classifyPath(src) != pcDatabase && !strings.Contains(src, "dump") && !strings.Contains(src, "backup") {
		return false
	}
	if classifyPath(src) == pcCredential {
		return false
	}
	hostPart, p, ok := strings.Cut(dest, ":")
	if !ok {
		return false
	}
	host := hostPart[strings.LastIndexByte(hostPart, '@')+1:]
	return internalHost(host) && (backupPlace.MatchString(host) || backupPlace.MatchString(p))
}

var storeSecretConfigs = regexp.MustCompile(`^/etc/(?:redis|valkey|keydb)/(?:[^/]+\.conf|[^/]+\.acl)$|^/etc/kafka/secrets(?:/|$)|^/etc/(?:mongod?b?|mongodb)[^/]*/.*key(?:file)?$|^/etc/rabbitmq/\.erlang\.cookie$|^/var/lib/rabbitmq/\.erlang\.cookie$`)

func serviceSecretConfig(p string) bool {
	return storeSecretConfigs.MatchString(path.Clean(strings.Trim(p, `"'`)))
}

// prunedByRunFilter: every --filter of a prune names one run's or CI's
// volumes (a run label key, or a test/CI value).
func prunedByRunFilter(args []shell.Word) bool {
	filters := optionValues(args, "", "--filter")
	for _, f := range filters {
		kind, val, _ := strings.Cut(f, "=")
		key, v, _ := strings.Cut(val, "=")
		switch {
		case kind == "label" && (runLabels[key[strings.LastIndexByte(key, '.')+1:]] || v != "" && disposableStore(v)):
		case kind == "name" && disposableStore(val):
		default:
			return false
		}
	}
	return len(filters) > 0
}

func init() {
	addHostCheck("mv", checkStaticPodMove)
}

// checkStaticPodMove: mv of a static pod manifest out of the kubelet's
// manifest directory.
func checkStaticPodMove(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "tS").Operands)
	if len(ops) < 2 {
		return Verdict{}
	}
	dest := path.Clean(ops[len(ops)-1])
	for _, src := range ops[:len(ops)-1] {
		src = path.Clean(src)
		if path.Dir(src) == "/etc/kubernetes/manifests" && !strings.HasPrefix(dest, "/etc/kubernetes/manifests/") && (strings.HasSuffix(src, ".yaml") || strings.HasSuffix(src, ".yml") || strings.Contains(src, "*")) {
			return hit("stop-system-service")
		}
	}
	return Verdict{}
}
