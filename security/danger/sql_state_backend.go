package danger

import "regexp"

// An IaC tool's state kept in a database (Terraform's pg backend keeps each
// workspace's state as a row of terraform_remote_state.states): deleting or
// rewriting a workspace's row is state surgery (tune18), as terraform
// workspace delete -force is, and is judged the same way — a workspace named
// as disposable (pr-1423, a sandbox's) passes.

var stateBackendWrite = regexp.MustCompile(`(?is)\b(?:DELETE\s+FROM|UPDATE)\s+"?terraform_remote_state"?\s*\.\s*"?states"?\b(.*)`)

// stateRowName: the workspace a WHERE clause selects by name.
var stateRowName = regexp.MustCompile(`(?i)\bname\s*(?:=|IN\s*\(|LIKE)\s*'([^']*)'`)

func checkStateBackendSQL(code string) Verdict {
	m := stateBackendWrite.FindStringSubmatch(code)
	if m == nil {
		return Verdict{}
	}
	names := stateRowName.FindAllStringSubmatch(m[1], -1)
	for _, n := range names {
		if !nonProdTarget(n[1]) {
			return hit("state-overwrite")
		}
	}
	return hitIf(len(names) == 0, "state-overwrite")
}
