package danger

import (
	"regexp"
	"strconv"
	"strings"
)

// The datastore clients in Python and node code, judged by the target the
// code names as the command-line tools are:
//
//   - a Redis flush on a client the same input builds for a disposable
//     server (redis.Redis(host="localhost", port=6390), a staging or test
//     host, redis://localhost:6380) is that server's;
//   - a broker's admin deletes (topics, consumer groups) whose every literal
//     names a test, CI or scratch thing or a local broker on another port;
//   - consumer groups deleted (their committed offsets go with them);
//   - Elasticsearch snapshots deleted by a name that is not a test's;
//   - a MongoDB collection reached as client["db"]["coll"] and dropped;
//   - a value read from a Redis key naming secrets sent in an HTTP request;
//   - CONFIG SET through redis-py's config_set, judged as at redis-cli;
//   - a memcached flush_all on servers that are not this machine's.

var (
	redisClientHost = regexp.MustCompile(`\b(?:Redis|StrictRedis|createClient|Redis\.from_url|from_url)\s*\(\s*(?:host\s*[=:]\s*)?(?:\{\s*host\s*:\s*)?\x01(\d+)\x02`)
	redisClientPort = regexp.MustCompile(`\bport\s*[=:]\s*(\d+)`)
	esSnapshotDel   = regexp.MustCompile(`\bsnapshot\s*\.\s*delete\s*\(([^()\n]*)\)`)
	snapshotArg     = regexp.MustCompile(`\bsnapshot["']?\s*[=:]\s*\x01(\d+)\x02`)
	subscriptDrop   = regexp.MustCompile(`\]\s*\[\s*\x01(\d+)\x02\s*\]\s*\.\s*drop\s*\(\s*\)`)
	redisConfigSet  = regexp.MustCompile(`\.\s*config_set\s*\(\s*\x01(\d+)\x02\s*,\s*\x01(\d+)\x02`)
	memcachedFlush  = regexp.MustCompile(`\.\s*flush_all\s*\(`)
	secretKeyRead   = regexp.MustCompile(`\.\s*(?:hgetall|hget|get|mget|hvals)\s*\(\s*\x01(\d+)\x02`)
)

// codeRedisDisposable: every Redis client the code builds is for a
// disposable server (one it does not build is unknown, so not).
func codeRedisDisposable(code string, strs []string) bool {
	ms := redisClientHost.FindAllStringSubmatchIndex(code, -1)
	for _, m := range ms {
		target := litAt(strs, code[m[2]:m[3]])
		call, _, _ := strings.Cut(code[m[1]:], ")")
		if p := redisClientPort.FindStringSubmatch(call); p != nil {
			if _, port := splitEndpoint(target); port == "" {
				target += ":" + p[1]
			}
		}
		host, port := splitEndpoint(target)
		if port == "" {
			port = "6379"
		}
		if !disposableStore(host) && !(loopbackHost(host) && port != "6379") {
			return false
		}
	}
	return len(ms) > 0
}

// storeScratchLiterals: the code's literals name only a disposable broker or
// server (a staging or test host, a local one on a port other than its
// default), or, naming none, only test, CI, staging or scratch things.
func storeScratchLiterals(code string, strs []string) bool {
	names, endpoints, nameOK, endpointOK := 0, 0, true, true
	for _, m := range pyLit.FindAllStringSubmatch(code, -1) {
		s := pyLiteral(m[1], strs)
		if host, port := splitEndpoint(s); port != "" && host != "" {
			endpoints++
			endpointOK = endpointOK && (disposableStore(host) || loopbackHost(host) && !defaultPorts[port])
			continue
		}
		names++
		nameOK = nameOK && disposableStore(s)
	}
	if endpoints > 0 {
		return endpointOK
	}
	return names > 0 && nameOK
}

// defaultPorts: the datastores' and brokers' own ports.
var defaultPorts = map[string]bool{"6379": true, "9092": true, "27017": true, "9200": true, "5672": true, "4222": true, "11211": true, "9042": true, "9000": true, "2379": true}

// codeStoreEffects judges Python or JavaScript code whose literals were read.
func codeStoreEffects(code string, strs []string) Verdict {
	for _, m := range esSnapshotDel.FindAllStringSubmatch(code, -1) {
		if s := snapshotArg.FindStringSubmatch(m[1]); s == nil || !allDisposable(litAt(strs, s[1])) {
			return hit("backup-delete")
		}
	}
	for _, m := range redisConfigSet.FindAllStringSubmatch(code, -1) {
		if id := redisConfigRule(litAt(strs, m[1]), litAt(strs, m[2])); id != "" && !codeRedisDisposable(code, strs) {
			return hit(id)
		}
	}
	// pymemcache's and python-memcached's flush_all, unless every server the
	// code names is this machine or a disposable one
	if memcachedFlush.MatchString(code) && !storeScratchLiterals(code, strs) && !localLiterals(code, strs) {
		return hit("memcached-flush")
	}
	for _, m := range subscriptDrop.FindAllStringSubmatch(code, -1) {
		if name := litAt(strs, m[1]); !scratchTable(name) && !disposableStore(name) {
			return hit("mongo-drop")
		}
	}
	if pyPost.MatchString(code) {
		for _, m := range secretKeyRead.FindAllStringSubmatch(code, -1) {
			if secretKeyName.MatchString(litAt(strs, m[1])) {
				return hit("py-send-secrets")
			}
		}
	}
	for _, m := range mongoTTL.FindAllStringSubmatch(code, -1) {
		coll := m[1]
		if n := m[2] + m[3]; n != "" {
			coll = litAt(strs, n)
		}
		if secs, err := strconv.Atoi(m[4]); err == nil && secs <= 86400 && !expiringByDesign(coll) {
			return hit("data-expiry")
		}
	}
	return Verdict{}
}

// localLiterals: the code names servers, all of them on this machine.
func localLiterals(code string, strs []string) bool {
	found := false
	for _, m := range pyLit.FindAllStringSubmatch(code, -1) {
		host, _ := splitEndpoint(pyLiteral(m[1], strs))
		if !loopbackHost(host) {
			return false
		}
		found = true
	}
	return found
}
