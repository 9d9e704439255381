package danger

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Checks for commands that tear down infrastructure or drop data held by a
// service: Terraform, Kubernetes, Docker, cloud CLIs, Redis, MongoDB and the
// database administration tools.

// checkTerraform: terraform/tofu/terragrunt/pulumi/cdk destroy, apply -destroy.
func checkTerraform(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if hasWord(c.Args, "--help") || hasWord(c.Args, "-help") || hasWord(c.Args, "--preview-only") || disposableEnvironment(c) {
		return Verdict{}
	}
	for i, op := range ops {
		if op == "destroy" && (i == 0 || ops[i-1] == "run-all" || ops[i-1] == "run") {
			return hitIf(!placeholderTargets(c), "terraform-destroy")
		}
	}
	if v := checkTerraformUnreviewed(c, ops); v.Dangerous {
		return v
	}
	if len(ops) > 0 && ops[0] == "apply" {
		for _, f := range c.Args[1:] {
			if f.S == "-destroy" || f.S == "--destroy" || f.S == "-destroy=true" {
				return hit("terraform-destroy")
			}
		}
		// -replace destroys the resource and creates an empty one in its place.
		for _, r := range append(optionValues(c.Args[1:], "-replace", "-replace"), optionValues(c.Args[1:], "--replace", "--replace")...) {
			if statefulResource.MatchString(r) {
				return hit("terraform-destroy")
			}
		}
	}
	return Verdict{}
}

// statefulResource: Terraform resource addresses whose replacement loses
// data (aws_db_instance.primary, google_sql_database_instance.main,
// aws_ebs_volume.data, azurerm_storage_account.x).
var statefulResource = regexp.MustCompile(`(?:^|\.)[a-z0-9]+_(?:db_instance|rds_cluster\w*|docdb_cluster\w*|sql_database\w*|\w*database\w*|ebs_volume|volume|disk|\w*managed_disk|` +
	`s3_bucket|storage_bucket|storage_account|dynamodb_table|bigtable\w*|bigquery_dataset|bigquery_table|elasticache\w*|redis\w*|efs_file_system|` +
	`file_system|kms_key|secretsmanager_secret|spanner\w*|firestore\w*|opensearch_domain|elasticsearch_domain|msk_cluster|` +
	// a public address: once released it cannot be had again, and DNS and allowlists point at it
	`eip|compute_address|compute_global_address|public_ip)\.`)

// disposableEnvironment: the run is pointed at a sandbox, preview or test
// environment by its variables file or workspace (-var-file=env/sandbox.tfvars).
func disposableEnvironment(c shell.Command) bool {
	if disposableStack(c) {
		return true
	}
	files := append(optionValues(c.Args[1:], "-var-file", "-var-file"), optionValues(c.Args[1:], "--var-file", "--var-file")...)
	for _, kv := range c.Env {
		if v, ok := strings.CutPrefix(kv, "TF_WORKSPACE="); ok {
			files = append(files, v)
		}
	}
	for _, f := range files {
		if !temporaryName(strings.TrimSuffix(path.Base(f), path.Ext(f))) {
			return false
		}
	}
	return len(files) > 0
}

var nsKinds = shell.Set("ns", "namespace", "namespaces", "project", "projects", "crd", "crds", "customresourcedefinition", "customresourcedefinitions")

// dataKinds hold the data or the identity of a stateful workload.
var dataKinds = shell.Set("pvc", "pv", "persistentvolumeclaim", "persistentvolumeclaims", "persistentvolume", "persistentvolumes",
	"sts", "statefulset", "statefulsets", "statefulset.apps", "statefulsets.apps", "secret", "secrets", "node", "nodes", "no")

func allTemporaryStr(names []string) bool {
	for _, n := range names {
		if !temporaryName(n) {
			return false
		}
	}
	return len(names) > 0
}

// finalizersCleared: a patch that empties an object's finalizers, or a write
// to a namespace's finalize subresource (kubectl replace --raw
// /api/v1/namespaces/X/finalize): the object goes at once, and what the
// finalizers were guarding (volumes, cloud resources, a namespace's
// contents) is left behind or lost.
var finalizersCleared = regexp.MustCompile(`"?finalizers"?\s*:\s*(?:null|\[\s*\])|"op"\s*:\s*"remove"\s*,\s*"path"\s*:\s*"/(?:metadata|spec)/finalizers"|"path"\s*:\s*"/(?:metadata|spec)/finalizers"\s*,\s*"op"\s*:\s*"remove"`)

func checkKubectl(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	for _, raw := range optionValues(c.Args[1:], "--raw", "--raw") {
		if hasWord(c.Args, "replace") && strings.HasSuffix(raw, "/finalize") && !temporaryName(raw) {
			return hit("cluster-teardown")
		}
	}
	if hasWord(c.Args, "patch") {
		for _, p := range optionValues(c.Args[1:], "-p", "--patch") {
			if finalizersCleared.MatchString(p) && !slices.ContainsFunc(args, temporaryName) {
				return hit("cluster-teardown")
			}
		}
	}
	del := -1
	for i, a := range args {
		if a == "delete" {
			del = i
			break
		}
	}
	if del < 0 || slices.ContainsFunc(optionValues(c.Args[1:], "", "--context"), localCluster) {
		return Verdict{}
	}
	kind, names, fromFile := "", []string{}, false
	for i, a := range args[del+1:] {
		switch {
		case a == "--all" || a == "--all=true":
			// every object of a kind, inside one namespace named as disposable
			if ns := optionValues(c.Args[1:], "-n", "--namespace"); len(ns) == 0 || !allTemporaryStr(ns) || hasWord(c.Args, "-A") || hasWord(c.Args, "--all-namespaces") {
				return hit("kubectl-delete-namespace")
			}
		case a == "-A" || a == "--all-namespaces":
			return hit("kubectl-delete-namespace")
		case a == "-f" || a == "--filename" || a == "-k" || a == "--kustomize" || a == "-l" || a == "--selector" ||
			strings.HasPrefix(a, "--filename=") || strings.HasPrefix(a, "--kustomize=") || strings.HasPrefix(a, "--selector="):
			fromFile = true
		case a == "-n" || a == "--namespace" || a == "--context":
			if i+1 < len(args[del+1:]) {
				args[del+1+i+1] = "-"
			}
		case strings.HasPrefix(a, "-"):
		case kind == "":
			kind = strings.ToLower(a)
			if k, n, ok := strings.Cut(kind, "/"); ok {
				kind, names = k, append(names, n)
			}
		default:
			names = append(names, a)
		}
	}
	for _, f := range optionValues(c.Args[1:], "-f", "--filename") {
		if (f == "-" || f == "." || strings.HasSuffix(f, "/")) && !temporaryName(f) {
			return hit("cluster-teardown") // every object of a manifest directory or a build
		}
	}
	// -k DIR (kubectl-delete(1): "--kustomize"): every object an overlay builds.
	for _, k := range optionValues(c.Args[1:], "-k", "--kustomize") {
		if !temporaryName(k) {
			return hit("cluster-teardown")
		}
	}
	if (kind == "" && c.MoreArgs || strings.Contains(kind, shell.DynMark)) && !fromFile {
		return hit("kubectl-delete-namespace") // xargs kubectl delete, kubectl delete $(kubectl get ns -o name): kinds and names computed
	}
	if allTemporaryStr(names) {
		return Verdict{}
	}
	for _, k := range strings.Split(kind, ",") {
		switch {
		case nsKinds[k]:
			return hit("kubectl-delete-namespace")
		case dataKinds[k] || operatorDataKind(k):
			return hit("kubectl-delete-data")
		}
	}
	return Verdict{}
}

// checkDocker: system prune -a/--volumes, volume prune, volume rm of a
// computed list, compose down -v.
func checkDocker(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "fpH")
	ops := shell.Lits(o.Operands)
	if c.Name == "docker-compose" {
		ops = append([]string{"compose"}, ops...)
	}
	for i := 0; i+1 < len(ops); i++ {
		switch a, b := ops[i], ops[i+1]; {
		case a == "system" && b == "prune" && o.Has("a", "all", "volumes"):
			return hit("docker-prune-all")
		case a == "volume" && b == "prune":
			return hitIf(!prunedByRunFilter(c.Args[1:]), "docker-prune-all")
		case a == "volume" && (b == "rm" || b == "remove") && (i+2 < len(ops) && strings.Contains(strings.Join(ops[i+2:], " "), shell.DynMark) || dynArg(c.Args)):
			return hitIf(!chosenVolumes(c.Args[1:]), "docker-prune-all")
		case a == "compose" && o.Has("v", "volumes") && contains(ops[i+1:], "down"):
			return hitIf(!disposableProject(c.Args[1:]), "docker-prune-all")
		}
	}
	return Verdict{}
}

// chosenVolumes: every computed word of a docker volume rm is a listing
// narrowed to chosen volumes (filteredVolumes); xargs' input, when the
// pipeline knows it, is the last word (checkXargsFed).
func chosenVolumes(args []shell.Word) bool {
	dyn := false
	for _, w := range args {
		if w.Dyn() {
			if !filteredVolumes(w) {
				return false
			}
			dyn = true
		}
	}
	return dyn
}

// disposableProject: a compose project whose file or name says it is for
// tests (docker compose -f docker-compose.test.yml down -v, -p e2e-42):
// its volumes hold fixtures.
func disposableProject(args []shell.Word) bool {
	names := append(optionValues(args, "-f", "--file"), optionValues(args, "-p", "--project-name")...)
	for _, n := range names {
		if !temporaryName(strings.TrimSuffix(strings.TrimSuffix(path.Base(n), ".yml"), ".yaml")) {
			return false
		}
	}
	return len(names) > 0
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func checkRedis(c shell.Command, _ int) Verdict {
	for _, w := range c.Args {
		if strings.EqualFold(w.S, "flushall") || strings.EqualFold(w.S, "flushdb") {
			return hit("redis-flush")
		}
	}
	return Verdict{}
}

func checkDropdb(c shell.Command, _ int) Verdict {
	if c.Name == "mysqladmin" {
		for _, w := range c.Args[1:] {
			if strings.EqualFold(w.S, "drop") {
				return hit("dropdb")
			}
		}
		return Verdict{}
	}
	if hasWord(c.Args, "--help") || hasWord(c.Args, "--version") {
		return Verdict{}
	}
	ops := shell.ParseOpts(c.Args[1:], "hpUd").Operands
	return hitIf(len(ops) > 0 && !temporaryName(ops[len(ops)-1].S), "dropdb")
}

// awsTeardown are the nouns after "delete-" in aws CLI verbs that destroy a
// whole resource with its data; deleting one message, object or tag is routine.
var awsTeardown = shell.Set("bucket", "db-instance", "db-cluster", "table", "stack", "cluster", "volume", "snapshot", "vpc",
	"repository", "file-system", "function", "hosted-zone", "secret", "user", "role", "log-group", "nodegroup",
	"db-snapshot", "replication-group", "cache-cluster", "domain", "global-table", "backup-vault", "key-pair", "stream",
	"graphql-api", "rest-api", "environment", "application", "instances", "queue", "topic", "keyspace", "namespace", "objects",
	"elasticsearch-domain", "db-cluster-snapshot", "service", "load-balancer", "nat-gateway", "subnet", "user-pool", "identity-pool",
	"api", "pipeline", "workgroup", "database", "package-versions", "package", "cluster-snapshot", "index", "certificate", "recovery-point", "backup-plan", "key",
	// credentials: what signs in with them stops working, and a deleted secret cannot be shown again
	// (as gcloud iam service-accounts keys delete)
	"access-key", "login-profile", "ssh-public-key", "service-specific-credential", "signing-certificate", "server-certificate",
	// restore points, as snapshot and recovery-point above
	"backup")

// checkCloud: aws s3 rb --force, aws s3 rm --recursive, aws * terminate-*/delete-<resource>,
// gcloud … delete, az … delete, gsutil rm -r / rb, doctl … delete.
func checkCloud(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(withoutOptions(c.Args[1:], cloudGlobalValues), "")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || o.Long["help"] || contains(ops, "help") {
		return Verdict{}
	}
	if opensToWorld(c) {
		return hit("firewall-off")
	}
	switch c.Name {
	case "aws":
		if disposableAccount(c) {
			return Verdict{}
		}
		return checkAWS(o, ops)
	case "gsutil":
		// rsync -d deletes what the source lacks from the destination, its last operand
		del := ops[0] == "rb" || (ops[0] == "rm" && o.Has("rR", "recursive")) ||
			ops[0] == "rsync" && o.Has("d", "delete-unmatched-destination-objects") && !o.Has("n", "dry-run")
		targets := ops[1:]
		if ops[0] == "rsync" {
			targets = ops[len(ops)-1:]
		}
		return hitIf(del && !allTemporaryStr(targets), "cloud-teardown")
	}
	if c.Name == "gcloud" && len(ops) >= 3 && ops[0] == "storage" && ops[1] == "rm" && o.Has("rR", "recursive") {
		return hitIf(!allTemporaryStr(ops[2:]), "cloud-teardown") // a scratch bucket or prefix may go
	}
	if c.Name == "gcloud" && ops[0] == "kms" && (contains(ops, "destroy") || contains(ops, "delete")) {
		return hit("cloud-teardown") // key material: what it encrypted is lost with it
	}
	for i, op := range ops {
		if op == "delete" || op == "destroy" || op == "apps:destroy" || op == "delete-batch" || op == "sites:delete" {
			if allTemporaryStr(ops[i+1:]) {
				return Verdict{} // every name after the verb is disposable
			}
			if i > 0 && cloudRecordNouns[ops[i-1]] || scopedBatch(c) {
				return Verdict{}
			}
			return hit("cloud-teardown")
		}
	}
	return Verdict{}
}

// cloudGlobalValues are the global options of the cloud CLIs that take a
// value (aws(1) "GLOBAL OPTIONS", gcloud(1) "GLOBAL FLAGS", az's global
// arguments): written before the service (aws --profile prod s3 rm ...),
// their values are not the service's words. So are the places a resource
// is named in (--zone, --location): not the names of what is deleted.
var cloudGlobalValues = shell.Set("--zone", "--location", "--profile", "--region", "--output", "--endpoint-url", "--query", "--color", "--ca-bundle",
	"--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format", "--project", "--account", "--configuration",
	"--impersonate-service-account", "--verbosity", "--format", "--subscription", "--billing-project", "--context")

// withoutOptions drops the options in names, with their separate values.
func withoutOptions(args []shell.Word, names map[string]bool) []shell.Word {
	out := make([]shell.Word, 0, len(args))
	for i := 0; i < len(args); i++ {
		if names[args[i].S] {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// cloudRecordNouns are gcloud/az/doctl resource groups that hold no data of
// their own: records of past work (operations, runs, builds), settings and
// bindings that can be written again. Deleting one is routine; deleting the
// cluster, database or bucket they refer to is not.
var cloudRecordNouns = shell.Set("operations", "settings", "tags", "versions", "jobs", "runs", "executions", "builds",
	"revisions", "ssl-certificates", "domain-mappings", "api-configs", "peerings", "trusts", "cloud-bindings", "bindings",
	"authorized-orgs", "dry-run", "archives", "products", "model-monitoring-jobs", "tensorboard-runs", "tensorboard-time-series",
	"sinks", "triggers", "notes", "occurrences", "aliases", "labels", "invocations", "attestations", "deployment", "lock")

func checkAWS(o shell.Opts, ops []string) Verdict {
	if o.Long["dryrun"] || o.Long["dry-run"] || len(ops) > 2 && temporaryName(awsTarget(ops)) {
		return Verdict{}
	}
	if ops[0] == "s3" {
		sync := ops[1] == "sync" && o.Has("", "delete") && len(ops) > 2 && strings.HasPrefix(ops[len(ops)-1], "s3://") && !nonProdTarget(ops[len(ops)-1])
		if ops[1] == "sync" && o.Has("", "delete") && len(ops) > 3 && !strings.Contains(ops[len(ops)-1], "://") {
			return mirrorVerdict("restore-over-live", []string{strings.Replace(ops[2], "s3://", "s3:", 1)}, ops[len(ops)-1]) // backup_modes.go
		}
		return hitIf(sync || (ops[1] == "rb" && o.Has("", "force")) || (ops[1] == "rm" && o.Has("", "recursive")), "cloud-teardown")
	}
	verb := ops[1]
	switch {
	case strings.HasPrefix(verb, "terminate-") || verb == "schedule-key-deletion":
		return hit("cloud-teardown")
	case verb == "purge-queue":
		return hit("queue-purge")
	case strings.HasPrefix(verb, "batch-delete-") && o.DynFlag:
		return hit("cloud-teardown") // ids computed by a listing (aws ecr list-images): all of them
	}
	noun, ok := strings.CutPrefix(verb, "delete-")
	return hitIf(ok && awsTeardown[noun], "cloud-teardown")
}

// mongoDrop matches the shell-side calls that drop a database or collection or
// delete every document: db.dropDatabase(), db.users.drop(),
// db.users.deleteMany({}), db.getCollection("x").remove({}).
var mongoDrop = regexp.MustCompile(`(?:\bdropDatabase\s*\(|\.\s*drop\s*\(\s*\)|\.\s*(?:deleteMany|remove)\s*\(\s*\{\s*\}\s*\))`)

func checkMongo(c shell.Command, _ int) Verdict {
	if testDatabases(c) || mongoURIDisposable(mongoCommandTarget(c)) {
		return Verdict{} // mongosh mongodb://localhost/test_app --eval …
	}
	for _, code := range optionValues(c.Args[1:], "--eval", "--eval") {
		if mongoDrops(code) {
			return hit("mongo-drop")
		}
		if v := mongoEffects(scanLiterals(code, "//", "${")); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// awsTarget is the resource a command names: its s3:// operand, else its
// last operand (the value of --stack-name, --bucket...).
func awsTarget(ops []string) string {
	for i := len(ops) - 1; i >= 0; i-- {
		if strings.HasPrefix(ops[i], "s3://") {
			return ops[i]
		}
	}
	// a trailing number or switch is an option's value (--recovery-window-in-days 7)
	last := len(ops) - 1
	for last > 2 && optionScalar(ops[last]) {
		last--
	}
	return ops[last]
}

// optionScalar: a number or a boolean, which names no resource.
func optionScalar(s string) bool {
	if s == "true" || s == "false" {
		return true
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// dynArg: some argument is computed at run time (a $(…) list), wherever the
// option parser put it (docker volume rm -f $(…) reads it as -f's value).
func dynArg(ws []shell.Word) bool {
	for _, w := range ws {
		if w.Dyn() {
			return true
		}
	}
	return false
}

// worldRule: the cloud CLIs' verbs that let traffic in, with the options
// naming whom from and to which ports (aws ec2 authorize-security-group-ingress,
// gcloud compute firewall-rules create, az network nsg rule create).
var worldRule = map[string]struct {
	verbs         []string
	source, ports []string
}{
	"aws":    {[]string{"authorize-security-group-ingress"}, []string{"--cidr", "--cidr-ipv6", "--ip-permissions"}, []string{"--port", "--ip-permissions", "--protocol"}},
	"gcloud": {[]string{"create", "update"}, []string{"--source-ranges"}, []string{"--allow", "--rules"}},
	"az":     {[]string{"create", "update"}, []string{"--source-address-prefixes", "--source-address-prefix"}, []string{"--destination-port-ranges", "--destination-port-range"}},
	// The smaller clouds' firewalls, the same rule in their own words.
	"hcloud": {[]string{"add-rule", "create"}, []string{"--source-ips"}, []string{"--port"}},
	"doctl":  {[]string{"add-rules", "create", "update"}, []string{"--inbound-rules"}, []string{"--inbound-rules"}},
}

// adminPort: the ports of remote shells, desktops and databases, which the
// whole internet then reaches (and scans within minutes).
var adminPort = regexp.MustCompile(`(?:^|[^0-9])(?:22|23|3389|5900|3306|5432|6379|27017|9200|2375|2376|11211|5984|1433|1521|445|9042|8086)(?:$|[^0-9])|^(?:-1|all|\*|0-65535)$|"?(?:IpProtocol|FromPort)"?[=:]\s*"?-1`)

// opensToWorld: a firewall rule that admits 0.0.0.0/0 (::/0, *, Internet)
// to a remote-shell or database port, or to every port.
func opensToWorld(c shell.Command) bool {
	w, ok := worldRule[c.Name]
	if !ok || !slices.ContainsFunc(shell.Lits(c.Args[1:]), func(a string) bool { return slices.Contains(w.verbs, a) }) ||
		c.Name != "aws" && !hasWord(c.Args, "firewall-rules") && !hasWord(c.Args, "nsg") && !hasWord(c.Args, "firewall") {
		return false
	}
	world := false
	for _, o := range w.source {
		for _, v := range optionValues(c.Args[1:], o, o) {
			for _, src := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
				src = strings.Trim(src, `'"[]{}`)
				src = strings.TrimPrefix(src, "address:")
				world = world || strings.Contains(src, "0.0.0.0/0") || strings.Contains(src, "::/0") || src == "*" || src == "Internet" || src == "Any"
			}
		}
	}
	if !world {
		return false
	}
	for _, o := range w.ports {
		for _, v := range optionValues(c.Args[1:], o, o) {
			if adminPort.MatchString(v) || slices.ContainsFunc(strings.Split(v, ","), func(p string) bool {
				p = strings.TrimPrefix(p, "ports:")
				return c.Name == "gcloud" && p == "tcp" || adminPort.MatchString(strings.TrimPrefix(p, "tcp:")) || c.Name == "doctl" && (p == "all" || p == "0")
			}) {
				return true
			}
		}
	}
	return false
}

// checkTerraformUnreviewed: apply -auto-approve of the whole configuration
// (no saved plan, no -target or -replace that scopes it), and state rm of a
// resource not named as disposable.
func checkTerraformUnreviewed(c shell.Command, ops []string) Verdict {
	switch {
	case len(ops) == 1 && ops[0] == "apply" && (hasWord(c.Args, "-auto-approve") || hasWord(c.Args, "--auto-approve")):
		for _, w := range c.Args[1:] {
			if strings.HasPrefix(w.S, "-target") || strings.HasPrefix(w.S, "--target") || strings.HasPrefix(w.S, "-replace") || strings.HasPrefix(w.S, "--replace") {
				return Verdict{}
			}
		}
		return hit("terraform-unreviewed")
	case c.Name == "pulumi" && len(ops) > 0 && ops[0] == "up" && (hasWord(c.Args, "--yes") || hasWord(c.Args, "-y")):
		// pulumi up --yes is apply -auto-approve; a stack named as disposable, or --target, scopes it
		for i, w := range c.Args[1:] {
			v, _ := strings.CutPrefix(w.S, "--stack=")
			if (w.S == "--stack" || w.S == "-s") && i+2 < len(c.Args) {
				v = c.Args[i+2].S
			}
			if strings.HasPrefix(w.S, "--target") || v != w.S && temporaryName(v) {
				return Verdict{}
			}
		}
		return hit("terraform-unreviewed")
	case len(ops) > 2 && ops[0] == "state" && ops[1] == "rm":
		for _, a := range ops[2:] {
			if !temporaryName(a) {
				return hit("terraform-unreviewed")
			}
		}
	}
	return Verdict{}
}
