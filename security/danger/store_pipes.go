package danger

import (
	"net"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Literal text piped into a datastore's client or a raw socket to one
// (echo 'DROP DATABASE x' | clickhouse-client, printf 'flush_all\r\n' | nc
// host 11211): the text is judged as that store's commands, unless the host
// named is a disposable one (a staging, test or CI name, or this machine on
// another port than the service's own; memcached on this machine is the
// machine's own cache).

var storePipeReceivers = shell.Set("clickhouse-client", "clickhouse", "cqlsh", "nc", "ncat", "netcat", "telnet")

// sqlDialectDisposable: the server a cqlsh, clickhouse-client or influx
// (1.x) command line reaches is a disposable one.
func sqlDialectDisposable(c shell.Command) bool {
	host, def := "", map[string]string{"cqlsh": "9042", "influx": "8086"}[c.Name]
	if def == "" {
		def = "9000"
	}
	if h := append(optionValues(c.Args[1:], "-h", "--host"), optionValues(c.Args[1:], "", "-host")...); len(h) > 0 {
		host = h[0]
	}
	if c.Name == "cqlsh" {
		if ops := plainWords(c.Args[1:], shell.Set("-u", "-p", "-k", "-e", "-f", "--username", "--password", "--keyspace", "--execute", "--file")); len(ops) > 0 {
			host = ops[0]
		}
	}
	port := slices0(append(optionValues(c.Args[1:], "", "--port"), optionValues(c.Args[1:], "", "-port")...))
	if host == "" {
		host = "localhost"
	}
	if port == "" {
		port = def
	}
	for _, db := range append(optionValues(c.Args[1:], "-d", "--database"), optionValues(c.Args[1:], "", "-database")...) {
		if disposableStore(db) {
			return true
		}
	}
	return disposableEndpoint(net.JoinHostPort(host, port), def)
}

// checkSQLDialectQuery: the statements given on a dialect client's command
// line (clickhouse-client -q, cqlsh -e, influx -execute), judged as SQL.
func checkSQLDialectQuery(c shell.Command, depth int) Verdict {
	qs := append(optionValues(c.Args[1:], "-q", "--query"), optionValues(c.Args[1:], "-e", "--execute")...)
	if c.Name == "influx" {
		qs = optionValues(c.Args[1:], "", "-execute")
	}
	if len(qs) == 0 || sqlDialectDisposable(c) {
		return Verdict{}
	}
	for _, q := range qs {
		if v := classifySQL(shell.ForParser(q, SQL), depth+1); v.Dangerous {
			return via(v, c.Name)
		}
	}
	return Verdict{}
}

func init() {
	for _, name := range []string{"clickhouse-client", "clickhouse", "cqlsh", "influx"} {
		addHostCheck(name, checkSQLDialectQuery)
	}
}

func checkStorePipe(c shell.Command, text string, depth int) Verdict {
	switch c.Name {
	case "clickhouse-client", "clickhouse", "cqlsh":
		if sqlDialectDisposable(c) {
			return Verdict{}
		}
		return classifySQL(shell.ForParser(text, SQL), depth+1)
	}
	// nc/ncat/netcat/telnet HOST PORT
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "qwpsiIOTX").Operands)
	if len(ops) < 2 {
		return Verdict{}
	}
	host, port := ops[0], ops[1]
	lower := strings.ToLower(text)
	switch {
	case port == "11211" || strings.Contains(lower, "flush_all"):
		if strings.Contains(lower, "flush_all") && !loopbackHost(host) && !disposableStore(host) {
			return hit("memcached-flush")
		}
	case port == "6379":
		if !disposableEndpoint(net.JoinHostPort(host, port), "6379") {
			return classifyRedis(strings.NewReplacer(`\r`, "", `\n`, "\n").Replace(text), depth)
		}
	}
	return Verdict{}
}
