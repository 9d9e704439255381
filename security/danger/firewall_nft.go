package danger

import (
	"slices"
	"strings"
)

// nftScratchTable: nft delete|flush table FAMILY NAME (or table NAME) of a
// table named as a test's or a scratch one: the rules the machine runs on
// are in other tables.
func nftScratchTable(ops []string) bool {
	if len(ops) < 3 || ops[1] != "table" {
		return false
	}
	name := ops[len(ops)-1]
	return temporaryName(name) || isScratchName(name)
}

// nftAcceptPolicy: the input or forward chain's policy changed to accept
// (nft chain inet filter input '{ policy accept; }'): what the chain's rules
// do not drop is let in, as iptables -P INPUT ACCEPT does. A chain being
// created (its type and hook given) starts from nothing and opens nothing.
func nftAcceptPolicy(ops []string) bool {
	i := slices.Index(ops, "chain")
	if i < 0 || i > 1 || i == 1 && ops[0] != "add" && ops[0] != "create" && ops[0] != "chain" {
		return false
	}
	text := strings.Join(ops, " ")
	if !strings.Contains(strings.ReplaceAll(text, ";", " "), "policy accept") {
		return false
	}
	named := slices.ContainsFunc(ops[i+1:], func(s string) bool { return s == "input" || s == "forward" || s == "INPUT" || s == "FORWARD" })
	return named && !strings.Contains(text, "hook ")
}
