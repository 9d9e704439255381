package danger

import (
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Ports opened to everyone: a firewall rule that accepts a data store's or
// a control plane's port from any address puts a service meant for the
// hosts beside it on the internet, where it is scanned within minutes.
// Web ports, ssh and rules narrowed to a source address pass.

// storePorts are the listening ports of databases, caches, queues and
// control planes (PostgreSQL and PgBouncer, MySQL, Redis and Sentinel,
// MongoDB, Elasticsearch, memcached, CouchDB, InfluxDB, Cassandra, Docker,
// etcd, the kubelet, RabbitMQ, Kafka, ZooKeeper, SQL Server, Oracle,
// CockroachDB, Consul, Neo4j, ClickHouse's HTTP port, VNC, RDP, SMB).
var storePorts = []int{5432, 6432, 3306, 33060, 6379, 6380, 16379, 26379, 27017, 27018, 27019, 9200, 9300, 11211, 5984,
	8086, 9042, 2375, 2376, 2379, 2380, 10250, 5672, 15672, 25672, 4369, 9092, 2181, 1433, 1521, 26257, 8500, 7474, 7687, 8123, 5900, 3389, 445}

// storeServices are the same services by the names firewalld and ufw
// application profiles give them.
var storeServices = shell.Set("postgresql", "postgres", "mysql", "mariadb", "redis", "redis-sentinel", "mongodb", "elasticsearch",
	"memcache", "memcached", "couchdb", "influxdb", "cassandra", "docker", "docker-swarm", "etcd-client", "etcd-server", "kubelet",
	"rabbitmq", "amqp", "kafka", "zookeeper", "mssql", "oracle", "cockroachdb", "consul", "neo4j", "vnc-server", "rdp", "samba")

// coversStorePort: spec is a port (5432), a range (6000:6500, 6000-6500)
// or a list (3306,5432), with an optional /proto, that includes a store's port.
func coversStorePort(spec string) bool {
	spec, _, _ = strings.Cut(spec, "/")
	for _, part := range strings.Split(spec, ",") {
		lo, hi, ranged := strings.Cut(strings.ReplaceAll(part, "-", ":"), ":")
		if !ranged {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil {
			continue
		}
		for _, p := range storePorts {
			if a <= p && p <= b {
				return true
			}
		}
	}
	return false
}

// ufwOpensStore: ufw [insert N] allow [in] … PORT|APP, or allow … to any
// port PORT, with no source but "any".
func ufwOpensStore(ops []string) bool {
	i := 0
	if len(ops) > 2 && ops[0] == "insert" {
		i = 2
	}
	if len(ops) <= i || ops[i] != "allow" {
		return false
	}
	opens := false
	for j := i + 1; j < len(ops); j++ {
		switch a := ops[j]; {
		case a == "from" && j+1 < len(ops) && ops[j+1] != "any":
			return false // narrowed to a source
		case a == "port" && j+1 < len(ops):
			opens = opens || coversStorePort(ops[j+1])
			j++
		case coversStorePort(a) || storeServices[strings.ToLower(a)]:
			opens = true
		}
	}
	return opens
}

// firewalldOpensStore: firewall-cmd --add-port=PORT or --add-service=NAME
// in a zone open to the internet (the default one, public, external, dmz),
// unless the same command narrows the zone to sources.
func firewalldOpensStore(args []string) bool {
	opens := false
	for i, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok && i+1 < len(args) {
			val = args[i+1]
		}
		switch name {
		case "--add-port":
			opens = opens || coversStorePort(val)
		case "--add-service":
			opens = opens || storeServices[val]
		case "--add-source", "--add-interface":
			return false
		case "--zone":
			if val != "public" && val != "external" && val != "dmz" {
				return false
			}
		}
	}
	return opens
}

// iptablesOpensStore: -A/-I of a rule accepting a store's --dport (or
// multiport --dports) with no source address and no interface.
func iptablesOpensStore(args []string) bool {
	adds, accept, opens := false, false, false
	for i, a := range args {
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch a {
		case "-A", "-I", "--append", "--insert":
			adds = true
		case "-s", "--source":
			if !everyNetwork(next) {
				return false
			}
		case "--src-range", "-i", "--in-interface":
			return false
		case "-j", "--jump":
			accept = next == "ACCEPT"
		case "--dport", "--dports", "--destination-port", "--destination-ports":
			opens = opens || coversStorePort(next)
		}
	}
	return adds && accept && opens
}

// nftOpensStore: add|insert rule … tcp dport PORT accept with no saddr
// and no iif; a set of ports ({ 80, 5432 }) counts by its members.
func nftOpensStore(ops []string) bool {
	if len(ops) < 2 || ops[0] != "add" && ops[0] != "insert" || ops[1] != "rule" || !contains(ops, "accept") {
		return false
	}
	opens := false
	for i, a := range ops {
		switch {
		case a == "saddr" && i+1 < len(ops) && everyNetwork(ops[i+1]):
			// saddr 0.0.0.0/0 narrows nothing
		case a == "saddr" || a == "iif" || a == "iifname":
			return false
		case a == "dport":
			for _, p := range ops[i+1:] {
				p = strings.Trim(p, "{},")
				if p != "" && coversStorePort(p) {
					opens = true
				}
				if p == "accept" || p == "counter" {
					break
				}
			}
		}
	}
	return opens
}
