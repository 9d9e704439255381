package danger

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Message queues, task brokers and search stores: the jobs, messages and
// indices they hold are data nobody else has a copy of. Emptying a queue
// (celery purge, rabbitmqctl purge_queue, Sidekiq's clear, SQS purge-queue),
// deleting a topic, or sending DELETE to a store's HTTP API loses them.

func init() {
	rules = append(rules, rule{"queue-purge", catData,
		"This empties or deletes a message queue, task queue or topic (or a search index), losing the jobs and messages waiting in it.",
		sh("celery -A proj purge -f", "rabbitmqctl purge_queue orders", "rabbitmqctl delete_queue payments", "rabbitmqctl reset",
			"rabbitmqadmin delete queue name=orders", "kafka-topics.sh --bootstrap-server kafka:9092 --delete --topic orders",
			"kafka-consumer-groups --bootstrap-server k:9092 --group billing --reset-offsets --to-latest --execute --topic payments",
			"aws sqs purge-queue --queue-url https://sqs.eu-west-1.amazonaws.com/1/orders", `curl -X DELETE "http://es-prod.internal:9200/logs-*"`,
			"curl -XDELETE localhost:9200/_all", "influx bucket delete -n telemetry"),
		sh("celery -A proj inspect active", "rabbitmqctl list_queues", "kafka-topics --bootstrap-server k:9092 --list",
			"kafka-topics --bootstrap-server k:9092 --delete --topic test-orders", "kafka-consumer-groups --group billing --reset-offsets --to-latest --dry-run --topic p",
			"curl -X GET http://localhost:9200/_cat/indices", "curl -X DELETE http://localhost:9200/tmp-reindex-2024", "celery -A proj purge --help",
			"curl -X DELETE https://api.example.com/v1/sessions/42", "rabbitmqctl delete_queue test.orders")})
	addExamples([]moreExamples{{"queue-purge",
		join(py("from proj.celery import app; app.control.purge()", "channel.queue_purge('orders')", "admin.delete_topics(['orders'])",
			"sqs.purge_queue(QueueUrl=url)"),
			irb("Sidekiq::Queue.all.each(&:clear)", "Sidekiq::RetrySet.new.clear", "Sidekiq::Queue.new('mailers').clear"),
			node("await channel.purgeQueue('orders')", "await admin.deleteTopics({ topics: ['orders'] })")),
		join(py("app.control.inspect().active()", "channel.queue_declare('orders')"), irb("Sidekiq::Queue.new.size", "Sidekiq::Queue.new('test').clear"),
			node("await channel.assertQueue('orders')"))}})
	for name := range queueTools {
		addHostCheck(name, checkQueueTool)
	}
	for _, name := range []string{"curl", "http", "https", "xh"} {
		addHostCheck(name, checkStoreAPIDelete)
	}
}

// queueTools: a broker's command-line tool and the subcommands (or, for
// kafka's, the options) that empty or delete what it holds.
var queueTools = map[string][]dbTask{
	"celery":        {{words: []string{"purge"}}, {words: []string{"amqp", "queue.purge"}}, {words: []string{"amqp", "queue.delete"}}},
	"rabbitmqctl":   {{words: []string{"purge_queue"}}, {words: []string{"delete_queue"}}, {words: []string{"reset"}}, {words: []string{"force_reset"}}, {words: []string{"delete_vhost"}}},
	"rabbitmqadmin": {{words: []string{"delete", "queue"}}, {words: []string{"purge", "queue"}}, {words: []string{"delete", "vhost"}}},
	"kafka-topics":  {{flags: []string{"--delete"}}}, "kafka-topics.sh": {{flags: []string{"--delete"}}},
	"kafka-consumer-groups": {{flags: []string{"--delete", "--delete-offsets"}}, {flags: []string{"--execute"}}}, "kafka-consumer-groups.sh": {{flags: []string{"--delete", "--delete-offsets"}}, {flags: []string{"--execute"}}},
	"influx": {{words: []string{"bucket", "delete"}}},
}

func checkQueueTool(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if slices.ContainsFunc(args, func(s string) bool { return dryRunFlags[s] }) || rabbitDisposable(c) && !rabbitNodeWide(c) || kafkaDisposable(c) {
		return Verdict{}
	}
	var plain []string
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && (i == 0 || !brokerValueOpts[args[i-1]]) {
			plain = append(plain, a)
		}
	}
	for _, t := range queueTools[c.Name] {
		if len(t.words) > 0 && !hasSequence(plain, t.words) ||
			len(t.flags) > 0 && !slices.ContainsFunc(args, func(s string) bool { return slices.Contains(t.flags, s) }) {
			continue
		}
		// Only what is named for a test or a scratch run may go (--topic test-orders, test.orders).
		named := false
		var operands []string // after the subcommand; kafka's tools take only options, whose values are not names
		if len(t.words) > 0 {
			operands = plain[sequenceEnd(plain, t.words):]
		}
		for _, a := range operands {
			a = strings.TrimPrefix(a, "name=")
			if !disposableStore(a) {
				return hit("queue-purge")
			}
			named = true
		}
		for _, o := range []string{"--topic", "--group", "-n", "--name"} {
			for _, v := range optionValues(c.Args[1:], o, "") {
				if !disposableStore(v) {
					return hit("queue-purge")
				}
				named = true
			}
		}
		if !named {
			return hit("queue-purge")
		}
	}
	return Verdict{}
}

// storeAPIPorts are the HTTP ports of stores whose DELETE removes a whole
// index, database or queue (Elasticsearch/OpenSearch, CouchDB, InfluxDB, the
// RabbitMQ management API, Solr, Meilisearch, Typesense, Qdrant).
var storeAPIPorts = shell.Set("9200", "9243", "5984", "8086", "15672", "8983", "7700", "8108", "6333")

var storeHost = regexp.MustCompile(`(?i)(?:^|[.-])(?:es|elastic(?:search)?|opensearch|couchdb|solr|search)(?:$|[.-]|\d)`)

// checkStoreAPIDelete: curl -X DELETE to a search or document store's
// index (http://es:9200/logs-*): the index and every document in it.
func checkStoreAPIDelete(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	del := false
	for i, a := range args {
		switch {
		case strings.EqualFold(a, "-XDELETE"), strings.EqualFold(a, "--request=DELETE"), strings.EqualFold(a, "DELETE") && i == 0:
			del = true
		case (a == "-X" || a == "--request") && i+1 < len(args) && strings.EqualFold(args[i+1], "DELETE"):
			del = true
		}
	}
	if !del {
		return Verdict{}
	}
	for _, a := range args {
		raw := a
		if !strings.Contains(raw, "://") {
			raw = "http://" + raw
		}
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" || strings.HasPrefix(a, "-") {
			continue
		}
		if !storeAPIPorts[u.Port()] && !storeHost.MatchString(u.Hostname()) {
			continue
		}
		index := strings.Trim(u.Path, "/")
		if index == "" || strings.Contains(index, "/_doc/") || strings.HasPrefix(index, "_search") || strings.HasPrefix(index, "_snapshot/") {
			continue // the server root is not an index; one document is one record; snapshots are store_http.go's
		}
		if !allDisposable(strings.SplitN(index, "/", 2)[0]) {
			return hit("queue-purge")
		}
	}
	return Verdict{}
}

// queueWipe: the same in code (Celery's control.purge, pika's queue_purge and
// queue_delete, amqplib's purgeQueue, Kafka admins' delete_topics, SQS's
// purge_queue, Sidekiq's queues and sets cleared).
var queueWipe = regexp.MustCompile(`\.\s*control\s*\.\s*purge\s*\(|\.\s*(?:queue_purge|queue_delete|purgeQueue|deleteQueue|delete_topics|deleteTopics|purge_queue|delete_consumer_groups|deleteGroups)\s*\(|` +
	`\bSidekiq\s*::\s*(?:Queue|RetrySet|ScheduledSet|DeadSet)\b[^\n;]*?(?:\.\s*clear\b|&:\s*clear\b)`)

// codeWipesQueue: code that empties a queue, unless every literal in it
// names a test or scratch queue.
func codeWipesQueue(code string, strs []string) bool {
	return queueWipe.MatchString(code) && !storeScratchLiterals(code, strs)
}

// sequenceEnd: the index just after want's first appearance in words (as
// hasSequence finds it), or len(words).
func sequenceEnd(words, want []string) int {
	for i := 0; i+len(want) <= len(words); i++ {
		if hasSequence(words[i:i+len(want)], want) {
			return i + len(want)
		}
	}
	return len(words)
}
