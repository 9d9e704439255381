package danger

import (
	"regexp"
	"strings"
)

// What a datastore command is aimed at decides whether flushing, dropping,
// purging or deleting there is ordinary: a target named for tests, a CI run,
// staging, QA, a scratch or temporary use (cache-staging.acme.internal,
// ci_run_4812, test.ci-4812, tmp-reindex), or a throwaway instance on the
// agent's own machine (localhost on a port other than the service's own,
// where a test's container is published) may go; production and anything
// whose name says nothing stay dangerous.

// stagingName: the names of non-production environments and CI runs.
var stagingName = regexp.MustCompile(`(?i)(?:^|[-_./:@])(?:staging|stage|stg|qa|ci|dev)(?:$|[-_./:@]|\d)`).MatchString

// disposableStore: a database, key space, topic, queue, index, bucket, host
// or context named for tests, CI, staging or scratch use.
func disposableStore(name string) bool {
	name = strings.Trim(name, `"'`)
	if name == "" {
		return false
	}
	// "local" alone is a local alias or context (mc's local, nats --context
	// local); as a domain (cache.corp.local) it says nothing
	return temporaryName(name) || stagingName(name) || testDatabase(name) || strings.EqualFold(name, "test") || strings.EqualFold(name, "local")
}

// disposableEndpoint: an endpoint (host, host:port or URL) named for a
// non-production use, or on this machine at a port other than the
// service's default (a test container: redis on 6390, kafka on 29092,
// mongod on 27018).
func disposableEndpoint(s, defaultPort string) bool {
	host, port := splitEndpoint(s)
	if loopbackHost(host) {
		return port != "" && port != defaultPort
	}
	return disposableStore(host)
}

// ciRunName: a database or keyspace made for one CI run (ci_4812,
// ci_run_4812, ci-run-7): a test suite's, as app_test is. A staging
// database dropped whole stays a drop (tune15's DROP DATABASE orders_staging).
var ciRunName = regexp.MustCompile(`(?i)^ci[-_]?(?:run[-_]?)?\d+$|[-_]ci[-_]?(?:run[-_]?)?\d+$`).MatchString
