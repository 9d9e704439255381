package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Kubernetes operations beyond delete (tune18): the custom resources
// through which operators run databases and brokers (deleting one deletes
// the cluster and, by its default policy, its volumes), every node drained
// at once, and a data store's port forwarded to every address.

// operatorDataKind: the kinds (plural, singular or short, with or without
// their group) of operator-managed data stores: Crunchy's and Zalando's
// and CloudNativePG's PostgreSQL, Percona's and Oracle's MySQL, MongoDB,
// Redis, Strimzi's Kafka, Elastic and OpenSearch, Cassandra, CockroachDB,
// ClickHouse, RabbitMQ, etcd, MinIO tenants and Vitess.
var operatorDataKind = regexp.MustCompile(`(?i)^(?:postgresclusters?|postgresqls?|clusters?\.postgresql\.cnpg\.io|pgclusters?|perconaxtradbclusters?|pxc|` +
	`perconaservermongodbs?|psmdb|mongodbs?|mongodbcommunity|innodbclusters?|mysqlclusters?|mariadbs?|redisclusters?|redisfailovers?|redis(?:enterprise)?clusters?|` +
	`kafkas?(?:\.kafka\.strimzi\.io)?|kafkatopics?|elasticsearch(?:es)?|opensearchclusters?|cassandradatacenters?|cassdc|crdbclusters?|cockroachdbs?|` +
	`clickhouseinstallations?|chi|rabbitmqclusters?|etcdclusters?|tenants?\.minio\.min\.io|vitessclusters?|scyllaclusters?)(?:\.[\w.]+)?$`).MatchString

func init() { addHostCheck("kubectl", checkKubeOps); addHostCheck("oc", checkKubeOps) }

func checkKubeOps(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if slices.ContainsFunc(optionValues(c.Args[1:], "", "--context"), localCluster) || hasWord(c.Args, "--dry-run=client") || hasWord(c.Args, "--dry-run=server") {
		return Verdict{}
	}
	switch {
	case slices.Contains(args, "drain"):
		return hitIf(slices.ContainsFunc(c.Args, everyNodeListing), "kubectl-scale-all")
	case slices.Contains(args, "port-forward"):
		for _, a := range optionValues(c.Args[1:], "", "--address") {
			if strings.Contains(a, "0.0.0.0") || strings.Contains(a, "::") {
				return hitIf(slices.ContainsFunc(args, adminPort.MatchString), "firewall-open")
			}
		}
	}
	return Verdict{}
}

// everyNodeListing: w is computed by a listing of every node (kubectl get
// nodes with no selector, no name and no grep narrowing it).
func everyNodeListing(w shell.Word) bool {
	if !w.Dyn() || w.Node == nil {
		return false
	}
	all, narrowed := false, false
	syntax.Walk(w.Node, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		lc, ok := shell.BuildCommand(call)
		if !ok {
			return true
		}
		switch lc.Name {
		case "kubectl", "oc":
			ops := shell.Lits(shell.ParseOpts(withoutOptions(lc.Args[1:], shell.Set("--context", "-o", "--output", "-n", "--namespace")), "").Operands)
			if len(ops) == 2 && ops[0] == "get" && (ops[1] == "nodes" || ops[1] == "node" || ops[1] == "no") {
				all = all || len(optionValuesAny(lc.Args[1:], []string{"-l", "--selector"})) == 0
			}
		case "grep", "egrep", "head", "tail", "awk", "sed":
			narrowed = true
		}
		return true
	})
	return all && !narrowed
}
