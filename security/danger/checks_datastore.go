package danger

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// The command-line tools of the datastores and brokers, judged by what they
// do to the target they name (datastore_targets.go): a staging, QA, CI, test
// or scratch name, or a local instance on another port than the service's
// own, passes; production and unnamed targets do not.
//
//   - restores that drop what is there first (mongorestore --drop, influx
//     restore --full);
//   - deletes of everything (influx delete with no predicate, Kafka's
//     delete-records, NATS streams and key-value buckets removed or purged,
//     RabbitMQ messages fetched without requeue, a policy whose TTL drops
//     every message);
//   - retention shortened until the stored data expires (Kafka retention.ms
//     or retention.bytes, influx bucket retention);
//   - cluster membership (nodetool decommission/removenode/assassinate,
//     etcdctl member remove) and snapshots cleared (nodetool clearsnapshot
//     of all of them);
//   - access opened (etcdctl auth disable, Kafka ACLs for anonymous or all
//     users, RabbitMQ administrator tags, MinIO's admin policy attached, a
//     bucket made anonymous, redis-server and memcached listening on every
//     address without protection).

// storeToolCheck judges one tool's command line.
type storeToolCheck func(c shell.Command, ops []string) Verdict

var storeTools = map[string]storeToolCheck{
	"mongorestore": checkMongoRestore, "influx": checkInfluxCLI, "kafka-configs": checkKafkaConfigs, "kafka-configs.sh": checkKafkaConfigs,
	"kafka-delete-records": checkKafkaDeleteRecords, "kafka-delete-records.sh": checkKafkaDeleteRecords,
	"kafka-topics": checkKafkaConfigs, "kafka-topics.sh": checkKafkaConfigs, "kafka-acls": checkKafkaACLs, "kafka-acls.sh": checkKafkaACLs, "nodetool": checkNodetool, "etcdctl": checkEtcdctl,
	"rabbitmqadmin": checkRabbitAdmin, "rabbitmqctl": checkRabbitCtl, "nats": checkNATS, "redis-server": checkRedisServer,
	"valkey-server": checkRedisServer, "keydb-server": checkRedisServer, "memcached": checkMemcached, "elasticdump": checkElasticdump,
}

func init() {
	for name := range storeTools {
		addHostCheck(name, func(c shell.Command, _ int) Verdict {
			if hasWord(c.Args, "--help") || hasWord(c.Args, "-help") || hasWord(c.Args, "help") {
				return Verdict{}
			}
			return storeTools[c.Name](c, plainWords(c.Args[1:], brokerValueOpts))
		})
	}
}

// plainWords: the words that are neither options nor the values of the
// options in valueOpts.
func plainWords(args []shell.Word, valueOpts map[string]bool) []string {
	var out []string
	lits := shell.Lits(args)
	for i, a := range lits {
		if !strings.HasPrefix(a, "-") && (i == 0 || !valueOpts[lits[i-1]]) {
			out = append(out, a)
		}
	}
	return out
}

func checkMongoRestore(c shell.Command, _ []string) Verdict {
	if !hasWord(c.Args, "--drop") || hasWord(c.Args, "--dryRun") || hasWord(c.Args, "--dry-run") {
		return Verdict{}
	}
	target := mongoCommandTarget(c)
	if target == "" {
		target = "localhost:27017"
	}
	for _, ns := range append(optionValues(c.Args[1:], "-d", "--db"), optionValues(c.Args[1:], "", "--nsInclude")...) {
		if mongoDisposableDB(strings.SplitN(ns, ".", 2)[0]) {
			return Verdict{}
		}
	}
	return hitIf(!mongoURIDisposable(target), "db-restore-clean")
}

// durationPart: one number and unit of a duration (1h30m, 86400s, 7d).
var durationPart = regexp.MustCompile(`(\d+)(ns|us|ms|s|m|h|d|w)`)

// shortDuration: a retention of at most a day (1h, 30m, 86400s, 1d).
func shortDuration(s string) bool {
	s = strings.Trim(strings.ToLower(s), `"'`)
	if s == "" || s == "0" || s == "inf" || s == "infinite" {
		return false // 0 is "keep forever" for influx
	}
	units := map[string]float64{"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
	total := 0.0
	for _, m := range durationPart.FindAllStringSubmatch(s, -1) {
		n, _ := strconv.ParseFloat(m[1], 64)
		total += n * units[m[2]]
	}
	return total > 0 && total <= 86400
}

func checkInfluxCLI(c shell.Command, ops []string) Verdict {
	if len(ops) == 0 {
		return Verdict{}
	}
	buckets := append(optionValues(c.Args[1:], "-b", "--bucket"), optionValues(c.Args[1:], "-n", "--name")...)
	if len(buckets) > 0 && disposableStore(buckets[0]) {
		return Verdict{}
	}
	switch {
	case ops[0] == "delete":
		// no predicate: every measurement in the time range
		return hitIf(len(optionValues(c.Args[1:], "-p", "--predicate")) == 0, "sql-delete-no-where")
	case ops[0] == "restore" && hasWord(c.Args, "--full"):
		return hit("db-restore-clean")
	case len(ops) > 1 && ops[0] == "bucket" && ops[1] == "update":
		for _, r := range optionValues(c.Args[1:], "-r", "--retention") {
			if shortDuration(r) {
				return hit("data-expiry")
			}
		}
	}
	return Verdict{}
}

// kafkaBroker: the bootstrap server named, and whether it is disposable.
func kafkaDisposable(c shell.Command) bool {
	for _, b := range append(optionValues(c.Args[1:], "", "--bootstrap-server"), optionValues(c.Args[1:], "", "--zookeeper")...) {
		if disposableEndpoint(strings.Split(b, ",")[0], "9092") {
			return true
		}
	}
	return false
}

func checkKafkaConfigs(c shell.Command, _ []string) Verdict {
	if kafkaDisposable(c) || !hasWord(c.Args, "--alter") {
		return Verdict{}
	}
	for _, n := range append(optionValues(c.Args[1:], "", "--entity-name"), optionValues(c.Args[1:], "", "--topic")...) {
		if disposableStore(n) {
			return Verdict{}
		}
	}
	// kafka-configs --add-config, and kafka-topics --alter --config in older releases
	for _, cfg := range append(optionValues(c.Args[1:], "", "--add-config"), optionValues(c.Args[1:], "", "--config")...) {
		for _, kv := range strings.Split(strings.Trim(cfg, `'"[]`), ",") {
			k, v, _ := strings.Cut(kv, "=")
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			switch {
			case err != nil:
			case k == "retention.ms" && n >= 0 && n <= 86400000, k == "retention.bytes" && n >= 0 && n < 1<<20:
				return hit("data-expiry")
			}
		}
	}
	return Verdict{}
}

func checkKafkaDeleteRecords(c shell.Command, _ []string) Verdict {
	return hitIf(!kafkaDisposable(c) && len(optionValues(c.Args[1:], "", "--offset-json-file")) > 0, "queue-purge")
}

// checkKafkaACLs: an allow rule for every user or the anonymous one.
func checkKafkaACLs(c shell.Command, _ []string) Verdict {
	if !hasWord(c.Args, "--add") || kafkaDisposable(c) {
		return Verdict{}
	}
	for _, p := range optionValues(c.Args[1:], "", "--allow-principal") {
		if p == "User:*" || strings.EqualFold(p, "User:ANONYMOUS") {
			return hit("sql-grant-public")
		}
	}
	return Verdict{}
}

func checkNodetool(c shell.Command, ops []string) Verdict {
	if len(ops) == 0 {
		return Verdict{}
	}
	switch ops[0] {
	case "decommission", "removenode", "assassinate":
		return hitIf(len(ops) < 2 || ops[1] != "status", "store-replication")
	case "clearsnapshot":
		tags := optionValues(c.Args[1:], "-t", "--tag")
		if hasWord(c.Args, "--all") || len(tags) == 0 {
			return hit("backup-delete") // every snapshot of the node
		}
		for _, t := range tags {
			if !disposableStore(t) {
				return hit("backup-delete")
			}
		}
	}
	return Verdict{}
}

// etcdValueOpts: etcdctl's global options that take a value.
var etcdValueOpts = shell.Set("--cacert", "--cert", "--key", "--endpoints", "--user", "--password", "--dial-timeout", "--command-timeout",
	"-w", "--write-out", "--discovery-srv", "--keepalive-time", "--keepalive-timeout")

func checkEtcdctl(c shell.Command, _ []string) Verdict {
	var ops []string
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i].S
		if etcdValueOpts[a] {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	switch {
	case len(ops) >= 2 && ops[0] == "auth" && ops[1] == "disable":
		return hit("auth-disabled")
	case len(ops) >= 2 && ops[0] == "member" && ops[1] == "remove":
		return hit("store-replication")
	case len(ops) >= 1 && ops[0] == "del":
		prefix := hasWord(c.Args, "--prefix") || hasWord(c.Args, "--prefix=true")
		fromKey := hasWord(c.Args, "--from-key") || hasWord(c.Args, "--from-key=true")
		if !prefix && !fromKey {
			return Verdict{}
		}
		key := ""
		if len(ops) > 1 {
			key = ops[1]
		}
		// the root, every key from one on, or Kubernetes' own state
		return hitIf(key == "" || key == "/" || fromKey || strings.HasPrefix(key, "/registry") && !disposableStore(key), "kv-wipe")
	}
	return Verdict{}
}

// rabbitVhost: the virtual host a rabbitmqctl (-p) or rabbitmqadmin (-V)
// command names, disposable or not.
func rabbitDisposable(c shell.Command) bool {
	for _, v := range append(optionValues(c.Args[1:], "-p", "--vhost"), optionValues(c.Args[1:], "-V", "")...) {
		return disposableStore(strings.Trim(v, "/"))
	}
	return false
}

func checkRabbitAdmin(c shell.Command, ops []string) Verdict {
	if rabbitDisposable(c) || len(ops) == 0 || ops[0] != "get" {
		return Verdict{}
	}
	queue := ""
	for _, o := range ops {
		if q, ok := strings.CutPrefix(o, "queue="); ok {
			queue = q
		}
	}
	// messages fetched and acknowledged without requeue are gone
	return hitIf(slices.Contains(ops, "ackmode=ack_requeue_false") && !disposableStore(queue), "queue-purge")
}

// rabbitDropPolicy: a policy definition that drops every message (a TTL of
// nothing, a length of nothing).
var rabbitDropPolicy = regexp.MustCompile(`"(?:message-ttl|max-length|max-length-bytes)"\s*:\s*0\b`)

// rabbitNodeWide: a rabbitmqctl command that acts on the node or its users,
// whatever virtual host -p names.
func rabbitNodeWide(c shell.Command) bool {
	for _, w := range []string{"reset", "force_reset", "delete_vhost", "set_user_tags", "forget_cluster_node", "stop_app"} {
		if hasWord(c.Args, w) {
			return true
		}
	}
	return false
}

func checkRabbitCtl(c shell.Command, ops []string) Verdict {
	if rabbitDisposable(c) && !rabbitNodeWide(c) || len(ops) == 0 {
		return Verdict{}
	}
	switch ops[0] {
	case "set_user_tags":
		return hitIf(slices.Contains(ops[1:], "administrator"), "account-change")
	case "set_policy":
		return hitIf(slices.ContainsFunc(ops, rabbitDropPolicy.MatchString), "queue-purge")
	case "forget_cluster_node":
		return hit("store-replication")
	}
	return Verdict{}
}

// checkNATS: a JetStream stream, key-value bucket or object store removed or
// purged outside a local or test context.
func checkNATS(c shell.Command, _ []string) Verdict {
	if ctx := optionValues(c.Args[1:], "", "--context"); len(ctx) > 0 && disposableStore(ctx[0]) {
		return Verdict{}
	}
	if s := optionValues(c.Args[1:], "-s", "--server"); len(s) > 0 && disposableEndpoint(s[0], "4222") {
		return Verdict{}
	}
	var ops []string
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i].S
		if a == "--context" || a == "-s" || a == "--server" || a == "--creds" || a == "--user" || a == "--password" || a == "--subject" {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	if len(ops) < 3 {
		return Verdict{}
	}
	noun, verb, name := ops[0], ops[1], ops[2]
	if disposableStore(name) {
		return Verdict{}
	}
	switch {
	case (noun == "stream" || noun == "str") && (verb == "rm" || verb == "delete" || verb == "del" || verb == "purge"):
		return hit("queue-purge")
	case (noun == "kv" || noun == "object" || noun == "obj") && (verb == "rm" || verb == "del" || verb == "delete") && len(ops) == 3:
		return hit("queue-purge") // the bucket; with a key after it, one entry
	case (noun == "kv" || noun == "object" || noun == "obj") && verb == "purge" && len(ops) == 3:
		return hit("queue-purge")
	}
	return Verdict{}
}

// everyAddress: a listen address that is every interface.
func everyAddress(a string) bool {
	for _, p := range strings.FieldsFunc(a, func(r rune) bool { return r == ',' || r == ' ' }) {
		if p == "0.0.0.0" || p == "*" || p == "::" || p == "[::]" || p == "-::*" {
			return true
		}
	}
	return false
}

// checkRedisServer: a server started listening on every address with its
// protected mode off (or an empty password).
func checkRedisServer(c shell.Command, _ []string) Verdict {
	open := slices.ContainsFunc(optionValues(c.Args[1:], "", "--bind"), everyAddress)
	unprotected := slices.Contains(optionValues(c.Args[1:], "", "--protected-mode"), "no")
	return hitIf(open && unprotected && len(optionValues(c.Args[1:], "", "--requirepass")) == 0, "auth-disabled")
}

// checkMemcached: memcached has no authentication unless started with SASL
// (-S); listening on every address opens the cache to anyone who reaches it.
func checkMemcached(c shell.Command, _ []string) Verdict {
	if hasWord(c.Args, "-S") || hasWord(c.Args, "--enable-sasl") {
		return Verdict{}
	}
	return hitIf(slices.ContainsFunc(optionValues(c.Args[1:], "-l", "--listen"), everyAddress), "firewall-open")
}

// checkElasticdump: an index's documents written to a server outside one's
// own network.
func checkElasticdump(c shell.Command, _ []string) Verdict {
	kind := optionValues(c.Args[1:], "", "--type")
	if len(kind) > 0 && kind[0] != "data" {
		return Verdict{} // a mapping, settings or an alias: no documents
	}
	for _, out := range optionValues(c.Args[1:], "", "--output") {
		if strings.Contains(out, "://") {
			host, _ := splitEndpoint(out)
			if !internalHost(host) && !disposableStore(host) {
				return hit("expose-secret")
			}
		}
	}
	return Verdict{}
}

// brokerValueOpts: the brokers' tools' options whose value is where, not
// what (rabbitmqctl -p VHOST, rabbitmqadmin -V VHOST, -H HOST).
var brokerValueOpts = shell.Set("-p", "--vhost", "-V", "-H", "-h", "--host", "-n", "--node", "-u", "-P", "--port", "--username", "--password")
