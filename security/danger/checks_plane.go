package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Cloud control planes (tune18): who may act (IAM bindings, role and key
// policies, organisation guardrails, root tokens), what is shared outside
// the account (images and snapshots), the guards that keep a resource from
// deletion or loss (termination and deletion protection, backups, audit
// devices), and the state an IaC tool or a cluster keeps. Each is judged by
// its target: a sandbox, dev, preview or test project, account or stack
// passes (nonProdTarget, platform_target.go).

// broadRole: a role that administers a whole project, folder,
// organisation, subscription or account, or who may grant access in it
// (a service's own admin role, roles/cloudsql.admin, is not).
var broadRole = regexp.MustCompile(`(?i)^(?:roles/(?:owner|editor|resourcemanager\.\w*admin\w*|iam\.(?:securityAdmin|roleAdmin|organizationRoleAdmin|serviceAccountTokenCreator|workloadIdentityPoolAdmin)|\w+\.organizationAdmin)|` +
	`owner|user access administrator|role based access control administrator)$|(?:^|/)(?:AdministratorAccess|IAMFullAccess|PowerUserAccess)$`)

// wildPrincipal: a trust, key or resource policy statement that lets anyone act.
var wildPrincipal = regexp.MustCompile(`"Principal"\s*:\s*(?:"\*"|\{\s*"AWS"\s*:\s*(?:"\*"|\[\s*"\*"\s*\]))`)

// wildAction: an identity policy allowing every action on every resource.
var wildAction = regexp.MustCompile(`"Action"\s*:\s*(?:"\*"|\[\s*"\*"\s*\])[^}]*"Resource"\s*:\s*(?:"\*"|\[\s*"\*"\s*\])|"Resource"\s*:\s*"\*"[^}]*"Action"\s*:\s*"\*"`)

func init() {
	addHostCheck("aws", checkAWSControl)
	addHostCheck("gcloud", checkGcloudControl)
	addHostCheck("az", checkAzControl)
	addHostCheck("vault", checkVaultControl)
	addHostCheck("consul", checkConsulControl)
	addHostCheck("terraform", checkIaCState)
	addHostCheck("tofu", checkIaCState)
	addHostCheck("terragrunt", checkIaCState)
	addHostCheck("pulumi", checkIaCState)
	addHostCheck("argocd", checkGitOpsDelete)
	addHostCheck("flux", checkGitOpsDelete)
	addHostCheck("curl", checkControlPlaneAPI)
}

// awsOps: the service and verb of an aws command, and its parsed options.
func awsOps(c shell.Command) (shell.Opts, []string) {
	o := shell.ParseOpts(withoutOptions(c.Args[1:], cloudGlobalValues), "")
	return o, shell.Lits(o.Operands)
}

func checkAWSControl(c shell.Command, _ int) Verdict {
	o, ops := awsOps(c)
	if len(ops) < 2 || o.Long["dry-run"] || o.Long["help"] || disposableAccount(c) {
		return Verdict{}
	}
	val := func(name string) []string { return optionValues(c.Args[1:], "", name) }
	anyVal := func(name string, f func(string) bool) bool { return slices.ContainsFunc(val(name), f) }
	svc, verb := ops[0], ops[1]
	switch {
	case svc == "iam" && strings.HasPrefix(verb, "attach-") && strings.HasSuffix(verb, "-policy"):
		return hitIf(anyVal("--policy-arn", broadRole.MatchString), "iam-widened")
	case svc == "iam" && (verb == "put-user-policy" || verb == "put-role-policy" || verb == "put-group-policy" || verb == "create-policy-version"):
		return hitIf(anyVal("--policy-document", wildAction.MatchString), "iam-widened")
	case svc == "iam" && verb == "update-assume-role-policy", svc == "kms" && verb == "put-key-policy",
		svc == "secretsmanager" && verb == "put-resource-policy", svc == "sns" && verb == "set-topic-attributes", svc == "sqs" && verb == "set-queue-attributes",
		svc == "ecr" && verb == "set-repository-policy", svc == "lambda" && verb == "add-permission" && anyVal("--principal", func(s string) bool { return s == "*" }):
		return hitIf(svc == "lambda" || slices.ContainsFunc(shell.Lits(c.Args[1:]), wildPrincipal.MatchString), "iam-widened")
	case svc == "organizations" && (verb == "detach-policy" || verb == "disable-policy-type" || verb == "delete-policy"):
		return hit("iam-widened") // a service control policy is a guardrail over every account below it
	case svc == "kms" && verb == "disable-key":
		return hit("cloud-lockout") // what the key encrypted cannot be read until it is enabled again
	case svc == "organizations" && (verb == "remove-account-from-organization" || verb == "leave-organization" || verb == "delete-organization"):
		return hit("cloud-lockout")
	case svc == "iam" && (verb == "delete-access-key" || verb == "update-access-key" && anyVal("--status", func(s string) bool { return s == "Inactive" })):
		return hitIf(!anyVal("--user-name", nonProdTarget), "cloud-lockout")
	case (svc == "rds" && (verb == "modify-db-snapshot-attribute" || verb == "modify-db-cluster-snapshot-attribute")):
		return hitIf(len(val("--values-to-add")) > 0, "resource-shared-out")
	case svc == "ec2" && (verb == "modify-image-attribute" || verb == "modify-snapshot-attribute"):
		text := strings.Join(shell.Lits(c.Args[1:]), " ")
		return hitIf(strings.Contains(text, "Add=") || strings.Contains(text, "--operation-type add") || false,
			"resource-shared-out")
	case svc == "ec2" && verb == "deregister-image":
		fed := c.MoreArgs && !dynArg(c.Args) // xargs: judged again with its input (checkXargsFed)
		return hitIf(!fed && !slices.ContainsFunc(val("--image-id"), temporaryName) && !listingNarrowedTemporary(c), "cloud-teardown")
	case svc == "rds" && (verb == "modify-db-instance" || verb == "modify-db-cluster"):
		target := append(val("--db-instance-identifier"), val("--db-cluster-identifier")...)
		off := hasWord(c.Args, "--no-deletion-protection") || anyVal("--backup-retention-period", func(s string) bool { return s == "0" })
		return hitIf(off && !slices.ContainsFunc(target, nonProdTarget), "protection-off")
	case svc == "cloudformation" && verb == "update-termination-protection":
		return hitIf(hasWord(c.Args, "--no-enable-termination-protection") && !anyVal("--stack-name", nonProdTarget), "protection-off")
	case svc == "ec2" && verb == "modify-instance-attribute":
		return hitIf(hasWord(c.Args, "--no-disable-api-termination"), "protection-off")
	case svc == "dynamodb" && verb == "update-table":
		return hitIf(hasWord(c.Args, "--no-deletion-protection-enabled") && !anyVal("--table-name", nonProdTarget), "protection-off")
	case svc == "cloudtrail" && (verb == "stop-logging" || verb == "delete-trail"), svc == "guardduty" && verb == "delete-detector",
		svc == "configservice" && (verb == "stop-configuration-recorder" || verb == "delete-configuration-recorder"),
		svc == "securityhub" && verb == "disable-security-hub":
		return hit("protection-off") // the account's record of who did what, or its threat detection
	case svc == "elbv2" && verb == "modify-load-balancer-attributes":
		return hitIf(anyVal("--attributes", func(s string) bool { return strings.Contains(s, "deletion_protection.enabled,Value=false") }), "protection-off")
	case svc == "route53" && verb == "change-resource-record-sets":
		return hitIf(deletesRecords(strings.Join(val("--change-batch"), " ")), "cloud-teardown")
	case svc == "s3api" && verb == "put-bucket-versioning":
		return hitIf(anyVal("--versioning-configuration", func(s string) bool { return strings.Contains(s, "Suspended") }) && !anyVal("--bucket", nonProdTarget), "protection-off")
	}
	return Verdict{}
}

var (
	recordDelete = regexp.MustCompile(`"Action"\s*:\s*"DELETE"`)
	recordName   = regexp.MustCompile(`"Name"\s*:\s*"([^"]+)"`)
)

// deletesRecords: a Route 53 change batch that deletes a record whose name
// is not a preview's or a test's.
func deletesRecords(batch string) bool {
	if !recordDelete.MatchString(batch) {
		return false
	}
	for _, m := range recordName.FindAllStringSubmatch(batch, -1) {
		if !nonProdTarget(strings.TrimSuffix(m[1], ".")) {
			return true
		}
	}
	return false
}

// listingNarrowedTemporary: a command fed its ids by xargs or $(…) from a
// listing filtered to values named as disposable (Name=name,Values=packer-test-*).
func listingNarrowedTemporary(c shell.Command) bool {
	for _, w := range c.Args {
		if !w.Dyn() || w.Node == nil {
			continue
		}
		var vals []string
		syntax.Walk(w.Node, func(n syntax.Node) bool {
			if call, ok := n.(*syntax.CallExpr); ok {
				if lc, ok := shell.BuildCommand(call); ok {
					for _, a := range shell.Lits(lc.Args[1:]) {
						for _, m := range filterValues.FindAllStringSubmatch(a, -1) {
							vals = append(vals, strings.Trim(m[1], "*"))
						}
					}
				}
			}
			return true
		})
		return len(vals) > 0 && allTemporaryStr(vals)
	}
	return false
}

var filterValues = regexp.MustCompile(`Values=([^\s,'"]+)`)

func checkGcloudControl(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(withoutOptions(c.Args[1:], cloudGlobalValues), "")
	ops := shell.Lits(o.Operands)
	if len(ops) > 0 && (ops[0] == "alpha" || ops[0] == "beta") {
		ops = ops[1:]
	}
	if len(ops) < 3 || o.Long["help"] || slices.Contains(ops, "help") {
		return Verdict{}
	}
	val := func(name string) []string { return optionValues(c.Args[1:], "", name) }
	target := ""
	if len(ops) > 3 {
		target = ops[3]
	}
	if nonProdTarget(target) || slices.ContainsFunc(val("--project"), nonProdTarget) {
		return Verdict{}
	}
	group, verb := ops[0]+" "+ops[1], ops[2]
	if (group == "compute images" || group == "compute snapshots" || group == "compute disks" || group == "compute machine-images") && strings.HasSuffix(verb, "iam-policy-binding") {
		return hitIf(slices.ContainsFunc(val("--member"), func(m string) bool { return publicGrant.MatchString(m) }), "resource-shared-out")
	}
	if ops[0] == "services" || ops[0] == "projects" || ops[0] == "organizations" || ops[0] == "resource-manager" {
		group, verb = ops[0], ops[1]
		if len(ops) > 2 {
			target = ops[2]
		}
		if nonProdTarget(target) {
			return Verdict{}
		}
	}
	for i, op := range ops {
		if (strings.HasSuffix(op, "iam-policy-binding") || strings.HasSuffix(op, "set-iam-policy")) && i > 0 && !hierarchyNouns[ops[i-1]] {
			verb = "" // one resource's own policy (a topic's, a repository's): not the project's
		}
		if verb != "" && (strings.HasSuffix(op, "iam-policy-binding") || strings.HasSuffix(op, "set-iam-policy")) {
			verb, target = op, ""
			if i+1 < len(ops) {
				target = ops[i+1]
			}
			if nonProdTarget(target) {
				return Verdict{}
			}
		}
	}
	switch {
	case strings.HasSuffix(verb, "add-iam-policy-binding"):
		return hitIf(slices.ContainsFunc(val("--role"), broadRole.MatchString) ||
			slices.ContainsFunc(val("--member"), func(m string) bool { return publicGrant.MatchString(m) }), "iam-widened")
	case strings.HasSuffix(verb, "remove-iam-policy-binding"):
		public := slices.ContainsFunc(val("--member"), func(m string) bool { return publicGrant.MatchString(m) }) // closing a hole
		return hitIf(slices.ContainsFunc(val("--role"), broadRole.MatchString) && !public, "cloud-lockout")
	case strings.HasSuffix(verb, "set-iam-policy"):
		return hit("cloud-lockout") // the whole policy replaced: whoever the file leaves out loses access
	case group == "services" && verb == "disable", group == "iam service-accounts" && verb == "disable":
		return hit("cloud-lockout")
	case group == "sql instances" && verb == "patch":
		if slices.ContainsFunc(val("--authorized-networks"), func(v string) bool { return strings.Contains(v, "0.0.0.0/0") }) {
			return hit("firewall-open")
		}
		return hitIf(hasWord(c.Args, "--no-deletion-protection") || hasWord(c.Args, "--no-backup"), "protection-off")
	case group == "sql instances" && (verb == "restore-backup" || verb == "import"):
		return hit("db-restore-clean")
	case group == "sql backups" && verb == "restore":
		return hitIf(!slices.ContainsFunc(val("--restore-instance"), nonProdTarget), "db-restore-clean")
	case group == "compute firewall-rules" && verb == "update":
		return hitIf((hasWord(c.Args, "--disabled") || slices.Contains(val("--disabled"), "true")) && strings.Contains(strings.ToLower(target), "deny"), "firewall-off")
	}
	return Verdict{}
}

func checkAzControl(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(withoutOptions(c.Args[1:], cloudGlobalValues), "gn")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || o.Long["help"] {
		return Verdict{}
	}
	val := func(names ...string) []string { return optionValuesAny(c.Args[1:], names) }
	if slices.ContainsFunc(val("--name", "-n", "--scope", "--resource-group", "-g", "--vault-name"), nonProdTarget) {
		return Verdict{} // a sandbox's or a test's resource group, vault or scope
	}
	words := strings.Join(ops, " ")
	switch {
	case ops[0] == "keyvault" && slices.Contains(ops, "purge"):
		return hit("cloud-teardown") // a soft-deleted vault, key or secret gone for good
	case strings.HasPrefix(words, "role assignment create"):
		return hitIf(slices.ContainsFunc(val("--role"), broadRole.MatchString), "iam-widened")
	case strings.HasPrefix(words, "role assignment delete"):
		return hitIf(slices.ContainsFunc(val("--role"), broadRole.MatchString), "cloud-lockout")
	case (strings.HasPrefix(words, "ad sp credential reset") || strings.HasPrefix(words, "ad app credential reset")) && !hasWord(c.Args, "--append"):
		return hit("cloud-lockout") // the old secret stops working for every app that holds it
	case strings.HasPrefix(words, "lock delete"):
		return hit("protection-off")
	case strings.HasPrefix(words, "snapshot grant-access") || strings.HasPrefix(words, "disk grant-access"):
		return hit("resource-shared-out") // a URL anyone holding it can download the disk from
	case strings.HasPrefix(words, "sql server firewall-rule create") || strings.HasPrefix(words, "postgres server firewall-rule create") ||
		strings.HasPrefix(words, "mysql server firewall-rule create") || strings.HasPrefix(words, "postgres flexible-server firewall-rule create") ||
		strings.HasPrefix(words, "mysql flexible-server firewall-rule create"):
		start, end := val("--start-ip-address"), val("--end-ip-address")
		return hitIf(slices.Contains(start, "0.0.0.0") && slices.Contains(end, "255.255.255.255"), "firewall-open")
	}
	return Verdict{}
}

func checkVaultControl(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) < 2 || localVault(c) || hasWord(c.Args, "-h") || hasWord(c.Args, "-help") {
		return Verdict{}
	}
	switch ops[0] + " " + ops[1] {
	case "operator seal":
		return hit("cloud-lockout") // every client of the store is refused until it is unsealed with the key shares
	case "operator generate-root":
		return hitIf(!hasWord(c.Args, "-status") && !hasWord(c.Args, "-cancel"), "iam-widened")
	case "audit disable":
		return hit("protection-off")
	case "policy write":
		// default is attached to every token, root is all power
		return hitIf(len(ops) > 2 && (ops[2] == "default" || ops[2] == "root"), "iam-widened")
	case "token create":
		for i, a := range c.Args[1:] {
			k, v, eq := strings.Cut(strings.TrimLeft(a.S, "-"), "=")
			if !eq && i+2 < len(c.Args) {
				v = c.Args[i+2].S
			}
			if strings.HasPrefix(a.S, "-") && k == "policy" && v == "root" {
				return hit("iam-widened")
			}
		}
	}
	return Verdict{}
}

func checkConsulControl(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) >= 2 && ops[0] == "snapshot" && ops[1] == "restore" && !hasWord(c.Args, "-h") && !hasWord(c.Args, "-help") {
		return hit("state-overwrite") // the cluster's catalog, KV and ACLs replaced by the snapshot's
	}
	return Verdict{}
}

// checkIaCState: the recorded state of a Terraform configuration or a
// Pulumi stack replaced or deleted — terraform state push -force,
// workspace delete -force of a kept workspace, pulumi stack import --force.
// What the state forgets is orphaned; what it wrongly records is
// destroyed or duplicated by the next apply.
func checkIaCState(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "s")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || hasWord(c.Args, "-help") || o.Long["help"] || disposableStack(c) {
		return Verdict{}
	}
	force := hasWord(c.Args, "-force") || hasWord(c.Args, "--force") || hasWord(c.Args, "-force=true")
	switch {
	case ops[0] == "state" && ops[1] == "push":
		return hitIf(force, "state-overwrite")
	case ops[0] == "workspace" && ops[1] == "delete" && len(ops) > 2:
		return hitIf(force && !nonProdTarget(ops[2]), "state-overwrite")
	case c.Name == "pulumi" && ops[0] == "stack" && ops[1] == "import":
		return hitIf(force, "state-overwrite")
	case c.Name == "pulumi" && ops[0] == "state" && (ops[1] == "delete" || ops[1] == "edit"):
		return hitIf(ops[1] == "delete" && (hasWord(c.Args, "--all") || force), "state-overwrite")
	}
	return Verdict{}
}

// checkGitOpsDelete: argocd app delete (cascading by default: every object
// of the application) and flux delete/uninstall (a kustomization or release
// pruned, the controllers removed), for a target not named as disposable.
func checkGitOpsDelete(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "n")
	ops := shell.Lits(o.Operands)
	if len(ops) < 1 || o.Long["help"] || hasWord(c.Args, "-h") || hasWord(c.Args, "--dry-run") || hasWord(c.Args, "--cascade=false") {
		return Verdict{}
	}
	var names []string
	switch {
	case c.Name == "argocd" && len(ops) > 2 && (ops[0] == "app" || ops[0] == "appset") && (ops[1] == "delete" || ops[1] == "rm"):
		names = ops[2:]
	case c.Name == "flux" && len(ops) > 2 && ops[0] == "delete" && fluxPruning[ops[1]]:
		names = ops[2:]
	case c.Name == "flux" && ops[0] == "uninstall":
		return hit("cluster-teardown")
	default:
		return Verdict{}
	}
	return hitIf(!allTemporaryStr(names) && !slices.ContainsFunc(names, nonProdTarget), "cluster-teardown")
}

// hierarchyNouns: the levels of the resource hierarchy whose IAM policy
// governs everything below them.
var hierarchyNouns = shell.Set("projects", "organizations", "folders")

// fluxPruning: the Flux objects whose deletion garbage-collects what they
// applied (a source's deletion leaves its workloads running).
var fluxPruning = shell.Set("kustomization", "ks", "helmrelease", "hr")

var (
	// vaultAPI: Vault's HTTP API paths that unmount an engine, disable an
	// auth method or an audit device, or seal the store.
	vaultAPI = regexp.MustCompile(`/v1/sys/(mounts|auth|audit|seal)(?:/([^/?"']+))?`)
	// consulDeregister: Consul's agent or catalog API taking a service or node out.
	consulDeregister = regexp.MustCompile(`/v1/(?:agent/service/deregister|catalog/deregister|agent/force-leave)/?([^/?"']*)`)
	// k8sCollection: a Kubernetes API collection (no object name after it),
	// or a namespace, of kinds that hold data or everything.
	k8sCollection = regexp.MustCompile(`/api(?:s/[^/]+)?/v1\w*/(?:namespaces/([^/?"']+)/)?(persistentvolumeclaims|persistentvolumes|secrets|statefulsets|deployments)/?(?:$|\?)|/api/v1/namespaces/([^/?"']+)/?$`)
)

// checkControlPlaneAPI: curl DELETE (or PUT to a deregistering endpoint) to
// Vault's, Consul's or Kubernetes' API does what the CLI's destructive verb
// does, and is judged the same way.
func checkControlPlaneAPI(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	del := curlDeletes(args)
	put := del || slices.ContainsFunc(args, func(a string) bool { return a == "PUT" || a == "-XPUT" || a == "--request=PUT" })
	for _, a := range c.Args[1:] {
		u := a.S
		if strings.Contains(u, "127.0.0.1") || strings.Contains(u, "localhost") {
			continue
		}
		if m := vaultAPI.FindStringSubmatch(u); m != nil && (del || put && m[1] == "seal") && !temporaryName(m[2]) {
			switch m[1] {
			case "seal":
				return hit("cloud-lockout")
			case "audit":
				return hit("protection-off")
			}
			return hit("cloud-teardown")
		}
		if m := consulDeregister.FindStringSubmatch(u); m != nil && put && !temporaryName(m[1]) {
			return hit("cloud-lockout")
		}
		if m := k8sCollection.FindStringSubmatch(u); m != nil && del && !temporaryName(m[1]+m[3]) {
			return hit("kubectl-delete-data")
		}
	}
	return Verdict{}
}
