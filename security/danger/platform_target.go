package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// The target of an infrastructure-as-code or cloud control-plane command
// decides it (tune18): tearing down a sandbox, a preview, a pull request's
// stack, a developer's own stack, a local kind cluster or a CI run's
// resources is ordinary; the same verb on anything else is not. These
// helpers find the target where each tool names it — a stack option, the
// operands after the verb, the account profile, the cluster context, the
// directory a cd moved to — and judge it with the shared vocabulary
// (temporaryName, devTarget, nonProdTarget).

// stackOpts name the stack, environment or account a tool acts on.
var stackOpts = []string{"-s", "--stack", "--stack-name", "--profile"}

// disposableStack: every stack the command names (by option, or as the
// operands after destroy/rm/delete) says it is not production's, and at
// least one is named: pulumi destroy -s acme/app/pr-512, cdk destroy
// ApiStack-pr1290, sam delete --stack-name ingest-sandbox-jdoe.
func disposableStack(c shell.Command) bool {
	names := optionValuesAny(c.Args[1:], stackOpts)
	if len(names) == 0 {
		o := shell.ParseOpts(c.Args[1:], "s")
		ops := shell.Lits(o.Operands)
		for i, op := range ops {
			if (op == "destroy" || op == "rm" || op == "remove" || op == "delete") && i+1 < len(ops) {
				names = ops[i+1:]
				break
			}
		}
	}
	return len(names) > 0 && !slices.ContainsFunc(names, func(n string) bool { return !nonProdTarget(n) })
}

// iacTools run a configuration found in the working directory.
var iacTools = shell.Set("terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "sam", "sst", "serverless", "sls")

// iacInDisposableDir: an IaC run after a cd into a directory whose path
// names a sandbox, scratch, preview or test environment (cd
// live/sandbox/jdoe && terragrunt run-all destroy): the configuration there
// is that environment's. -chdir names the directory instead.
func iacInDisposableDir(c shell.Command, cwd string) bool {
	if !iacTools[c.Name] {
		return false
	}
	dir := cwd
	for _, d := range optionValues(c.Args[1:], "", "-chdir") {
		dir = path.Join(cwd, d)
		if strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~") {
			dir = d
		}
	}
	return slices.ContainsFunc(components(dir), environmentName)
}

// environmentName: a path component that names a disposable environment
// (sandbox, tf-scratch-amy, pr-12, e2e); /tmp and the like are where a
// checkout lies, not which environment it configures.
func environmentName(comp string) bool {
	switch comp {
	case "tmp", "temp", ".tmp", "var", "private":
		return false
	}
	return temporaryName(comp)
}

// scratchState: an infrastructure state file (terraform.tfstate) kept in a
// directory named as a sandbox or scratch environment holds only that
// environment's resources.
func scratchState(comps []string) bool {
	if len(comps) < 2 || !strings.Contains(comps[len(comps)-1], ".tfstate") {
		return false
	}
	return slices.ContainsFunc(comps[:len(comps)-1], environmentName)
}

// localCluster: a cluster context of a cluster on this machine (kind,
// minikube, k3d, Docker Desktop) or named as a developer's or a test's.
func localCluster(ctx string) bool {
	l := strings.ToLower(ctx)
	for _, p := range []string{"kind-", "minikube", "k3d-", "docker-desktop", "rancher-desktop", "colima", "orbstack"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return throwawayTarget(ctx)
}

// scopedBatch: az storage blob delete-batch narrowed by --pattern to a
// disposable prefix (pr-1877/*), or run on a container that holds a cache.
func scopedBatch(c shell.Command) bool {
	if !hasWord(c.Args, "delete-batch") {
		return false
	}
	for _, p := range optionValues(c.Args[1:], "", "--pattern") {
		if temporaryName(strings.Trim(p, "*/")) {
			return true
		}
	}
	for _, s := range optionValuesAny(c.Args[1:], []string{"-s", "--source"}) {
		if scratchWord.MatchString(s) || scratchNames[s] || temporaryName(s) {
			return true
		}
	}
	return false
}

// disposableAccount: an aws command run with a profile (or AWS_PROFILE)
// naming a sandbox, dev or test account.
func disposableAccount(c shell.Command) bool {
	profiles := optionValues(c.Args[1:], "", "--profile")
	for _, kv := range c.Env {
		if v, ok := strings.CutPrefix(kv, "AWS_PROFILE="); ok {
			profiles = append(profiles, v)
		}
	}
	return len(profiles) > 0 && !slices.ContainsFunc(profiles, func(p string) bool { return !throwawayTarget(p) })
}

// localVault: a Vault CLI pointed at a server on this machine (a -dev
// server) by VAULT_ADDR or -address.
func localVault(c shell.Command) bool {
	addrs := optionValues(c.Args[1:], "", "-address")
	for _, kv := range c.Env {
		if v, ok := strings.CutPrefix(kv, "VAULT_ADDR="); ok {
			addrs = append(addrs, v)
		}
	}
	return len(addrs) > 0 && !slices.ContainsFunc(addrs, func(a string) bool {
		return !strings.Contains(a, "://127.0.0.1") && !strings.Contains(a, "://localhost")
	})
}

var (
	// pyProfileName: a boto3 session's account profile.
	pyProfileName = regexp.MustCompile(`\bprofile_name\s*=\s*(\x01\d+\x02)`)
	// pyDeleteFirstArg: the name a delete call's first argument gives.
	pyResourceKeyword = regexp.MustCompile(`\b(?:UserName|RoleName|StackName|DBInstanceIdentifier|DBClusterIdentifier|ClusterName|TableName|FunctionName|GroupName)\s*=\s*(\x01\d+\x02)`)
	pyDeleteFirstArg  = regexp.MustCompile(`\.\s*(?:begin_)?(?:delete|destroy|terminate)\w*\s*\(\s*(\x01\d+\x02)\s*[,)]`)
)

// pyDisposableTarget: cloud SDK code whose session names a sandbox or dev
// account (boto3.Session(profile_name='sandbox')), or whose delete call
// names a resource as disposable (begin_delete('rg-ci-ephemeral-5512')).
func pyDisposableTarget(code string, strs []string) bool {
	for _, m := range pyProfileName.FindAllStringSubmatch(code, -1) {
		if throwawayTarget(litValue(m[1], strs)) {
			return true
		}
	}
	if named := pyResourceKeyword.FindAllStringSubmatch(code, -1); len(named) > 0 && !slices.ContainsFunc(named, func(m []string) bool { return !temporaryName(litValue(m[1], strs)) }) {
		return true // delete_access_key(UserName='e2e-tmp-bot', …)
	}
	ms := pyDeleteFirstArg.FindAllStringSubmatch(code, -1)
	for _, m := range ms {
		if !temporaryName(litValue(m[1], strs)) {
			return false
		}
	}
	return len(ms) > 0
}

// vimCreatesOnly: :w FILE without ! — Vim refuses to write over an existing
// file (E13), so the write can only create FILE; a new file in a backup or
// data directory loses nothing.
func vimCreatesOnly(line string) bool {
	m := vimWriteNew.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	switch classifyPath(fsPath(shell.Word{S: m[1]})) {
	case pcDatabase, pcData, pcScratch, pcFile, pcUnknown:
		return true
	}
	return false
}

var vimWriteNew = regexp.MustCompile(`^:+\s*(?:w(?:rite)?|sav(?:eas)?)\s+([^!\s|>]\S*)\s*$`)

// helmGlobalValues are helm's global options that take a value: not the
// names of releases.
var helmGlobalValues = shell.Set("--kube-context", "--kubeconfig", "--namespace", "--registry-config", "--repository-config")

// s3ValueOpts are the aws s3 cp/sync/mv options that take a value: not a
// source or a destination.
var s3ValueOpts = shell.Set("--sse", "--sse-kms-key-id", "--sse-c", "--sse-c-key", "--acl", "--storage-class", "--content-type",
	"--cache-control", "--expires", "--metadata", "--metadata-directive", "--grants", "--website-redirect", "--content-encoding",
	"--content-language", "--content-disposition", "--exclude", "--include", "--expected-size", "--source-region", "--checksum-algorithm")

// encryptedPrivateCopy: aws s3 cp STATE s3://… --sse aws:kms (or a
// customer key) with no ACL that grants anyone: a state or database file
// kept encrypted in the account's own bucket, as a backup is.
func encryptedPrivateCopy(c shell.Command) bool {
	ops := shell.Lits(shell.ParseOpts(withoutOptions(c.Args[1:], s3ValueOpts), "").Operands)
	if len(ops) < 4 || classifyPath(fsPath(shell.Word{S: ops[2]})) != pcDatabase {
		return false // only a state or database file kept as a backup; a key copied out is still sent
	}
	sse := len(optionValuesAny(c.Args[1:], []string{"--sse", "--sse-kms-key-id", "--sse-c"})) > 0 || hasWord(c.Args, "--sse")
	acl := optionValues(c.Args[1:], "", "--acl")
	return sse && !slices.ContainsFunc(acl, func(a string) bool { return publicGrant.MatchString(a) || strings.HasPrefix(a, "public") }) &&
		len(optionValues(c.Args[1:], "", "--grants")) == 0
}

// showSecrets: the words a secret-store prefix may match after the
// operands for the options that print secrets in clear (pulumi stack
// export --show-secrets, terraform show -json of a state).
func showSecrets(c shell.Command) string {
	out := ""
	for _, w := range c.Args[1:] {
		if w.S == "--show-secrets" || w.S == "-json" {
			out += " " + w.S
		}
	}
	return out
}

// decryptedSecrets: a file named as the decrypted or plain-text copy of a
// vault or secrets file (vault-decrypted.yml, secrets.dec.yaml,
// secrets.plain.json).
var decryptedSecrets = regexp.MustCompile(`(?i)(?:vault|secrets?|credentials|creds)[-_.](?:decrypted|dec|plain(?:text)?)\.(?:ya?ml|json|env|ini|txt)$|(?:decrypted|plaintext)[-_.](?:vault|secrets?|credentials)\.(?:ya?ml|json|env|ini|txt)$`)

// iacComponent: a directory of an infrastructure repository or one of its
// environments, where state files and variable files with credentials lie.
var iacComponent = regexp.MustCompile(`(?i)infra|terraform|terragrunt|pulumi|^envs?$|^environments$|^live$`)

// iacEnvironmentDir: dir is (inside) an infrastructure repository and no
// part of its path names a disposable environment: served over HTTP, its
// state and tfvars go to whoever asks.
func iacEnvironmentDir(dir string) bool {
	comps := components(dir)
	return len(comps) > 0 && slices.ContainsFunc(comps, iacComponent.MatchString) && !slices.ContainsFunc(comps, nonProdTarget) && !scratchIn(comps[len(comps)-1:])
}
