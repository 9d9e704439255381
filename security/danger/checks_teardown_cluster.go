package danger

import (
	"slices"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Cluster managers removing the cluster they manage: Patroni's remove
// erases a PostgreSQL cluster's state from its store (leader, members,
// configuration), pcs destroys a Pacemaker cluster, kubeadm, k0s and
// microk8s reset a node's control plane and its data, talosctl reset
// wipes a node, rke remove and kops delete cluster tear a cluster down.
// The subcommands are data; a cluster named as temporary passes.
var clusterRemovals = map[string][][]string{
	"patronictl": {{"remove"}},
	"pcs":        {{"cluster", "destroy"}},
	"kubeadm":    {{"reset"}},
	"k0s":        {{"reset"}},
	"microk8s":   {{"reset"}},
	"talosctl":   {{"reset"}},
	"rke":        {{"remove"}},
	"kops":       {{"delete", "cluster"}},
	"pg_autoctl": {{"drop", "node"}, {"drop", "monitor"}},
}

func init() {
	for name := range clusterRemovals {
		commandChecks[name] = checkClusterRemoval
	}
}

// checkClusterRemoval finds a removal subcommand among the operands (the
// values of options such as patronictl -c come before it) and the name
// that follows it, if any.
func checkClusterRemoval(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "c").Operands)
	if hasWord(c.Args, "--help") || hasWord(c.Args, "--dry-run") || c.Name == "kops" && !hasWord(c.Args, "--yes") && !hasWord(c.Args, "-y") {
		return Verdict{}
	}
	for _, sub := range clusterRemovals[c.Name] {
		for i := 0; i+len(sub) <= len(ops); i++ {
			if !slices.Equal(ops[i:i+len(sub)], sub) {
				continue
			}
			rest := ops[i+len(sub):]
			return hitIf(len(rest) == 0 || !temporaryName(rest[0]), "cluster-teardown")
		}
	}
	return Verdict{}
}
