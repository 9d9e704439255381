package danger

import (
	"regexp"
	"strings"
)

// Secret stores and directories administered from Python (tune20): hvac's
// Vault client and ldap3's Connection, judged as their CLIs are — every
// version of a secret deleted, a secrets engine or auth method disabled,
// Vault sealed, a policy granting everything; a directory subtree deleted
// (the tree-delete control, or a loop over a search's entries), an
// administrators' group's members replaced or emptied. A path named as
// disposable passes.

var (
	hvacSecretDelete = regexp.MustCompile(`\.\s*kv\s*\.\s*(?:v[12]\s*\.\s*)?(?:delete_metadata_and_all_versions|destroy_secret_versions|delete_secret|delete_latest_version_of_secret)\s*\(([^)]*)`)
	hvacDisable      = regexp.MustCompile(`\.\s*sys\s*\.\s*(?:disable_secrets_engine|disable_auth_method)\s*\(([^)]*)`)
	hvacSeal         = regexp.MustCompile(`\.\s*sys\s*\.\s*seal\s*\(\s*\)`)
	hvacAuditOff     = regexp.MustCompile(`\.\s*sys\s*\.\s*disable_audit_device\s*\(`)
	hvacPolicy       = regexp.MustCompile(`\.\s*sys\s*\.\s*create_or_update_policy\s*\(([^)]*)`)
	// a policy stanza on every path with sudo or every capability
	vaultRootPolicy = regexp.MustCompile(`(?s)path\s+"\*"\s*\{[^}]*capabilities\s*=\s*\[[^\]]*"(?:sudo|\*)"`)

	ldapDelete     = regexp.MustCompile(`\.\s*delete\s*\(([^\n]*)`)
	ldapLoopDelete = regexp.MustCompile(`\bfor\s+(\w+)\s+in\s+[^:\n]*:[^\n]*\.\s*delete\s*\(\s*(\w+)\s*\.\s*entry_dn`)
	ldapModify     = regexp.MustCompile(`\.\s*modify\s*\(\s*(` + pyL + `)\s*,([^\n]*)`)
	ldapEmptying   = regexp.MustCompile(`MODIFY_REPLACE|MODIFY_DELETE\s*,\s*\[\s*\]`)
	ldapGroupCN    = regexp.MustCompile(`(?i)^cn=([^,]+),`)
)

func pySecretAdmin(code string, strs []string) Verdict {
	for _, m := range hvacSecretDelete.FindAllStringSubmatch(code, -1) {
		if !pyArgTemporary(m[1], strs) {
			return hit("remote-delete")
		}
	}
	for _, m := range hvacDisable.FindAllStringSubmatch(code, -1) {
		if !pyArgTemporary(m[1], strs) {
			return hit("cloud-teardown")
		}
	}
	if hvacSeal.MatchString(code) {
		return hit("stop-service")
	}
	if hvacAuditOff.MatchString(code) {
		return hit("security-off")
	}
	for _, m := range hvacPolicy.FindAllStringSubmatch(code, -1) {
		for _, l := range pyLit.FindAllStringSubmatch(m[1], -1) {
			if vaultRootPolicy.MatchString(pyLiteral(l[1], strs)) {
				return hit("account-change")
			}
		}
	}
	// the tree-delete control: the entry and everything under it
	for _, m := range ldapDelete.FindAllStringSubmatch(code, -1) {
		for _, l := range pyLit.FindAllStringSubmatch(m[1], -1) {
			if pyLiteral(l[1], strs) == "1.2.840.113556.1.4.805" {
				return hit("remote-delete")
			}
		}
	}
	for _, m := range ldapLoopDelete.FindAllStringSubmatch(code, -1) {
		if m[1] == m[2] {
			return hit("remote-delete")
		}
	}
	for _, m := range ldapModify.FindAllStringSubmatch(code, -1) {
		g := ldapGroupCN.FindStringSubmatch(litValue(m[1], strs))
		if g == nil || !adminGroup(g[1]) || !ldapEmptying.MatchString(m[2]) {
			continue
		}
		for _, l := range pyLit.FindAllStringSubmatch(m[2], -1) {
			if ldifMemberAttr.MatchString(pyLiteral(l[1], strs)) {
				return hit("account-change")
			}
		}
	}
	return Verdict{}
}

// pyArgTemporary: the call's path= (or first) literal names something
// disposable (scratch/agent-test, tmp-…).
func pyArgTemporary(args string, strs []string) bool {
	if i := strings.Index(args, "path"); i >= 0 {
		args = args[i:]
	}
	l := pyLit.FindStringSubmatch(args)
	return l != nil && temporaryName(pyLiteral(l[1], strs))
}
