package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Redis commands, typed at redis-cli (the Redis context), given to
// redis-cli on its command line or piped into it, judged by what they do to
// the server they reach: emptying it (FLUSHALL, FLUSHDB, a script that
// flushes, a stream trimmed to nothing), stopping it (SHUTDOWN, DEBUG
// SEGFAULT), letting anyone in (no password, protected mode off, a user
// without one), making another server's data replace its own (REPLICAOF
// host port), and the well-known write primitive of CONFIG SET dir /
// dbfilename, which makes the next save write the dataset as another file
// (authorized_keys, a crontab).

// redisScriptFlush: a Lua script that flushes (EVAL "redis.call('FLUSHALL')").
var redisScriptFlush = regexp.MustCompile(`(?i)redis\s*\.\s*p?call\s*\(\s*["'](?:flushall|flushdb)["']`)

// redisCommandRule: the rule a Redis command's words (command first) break,
// or "".
func redisCommandRule(words []string) string {
	if len(words) == 0 {
		return ""
	}
	cmd := strings.ToUpper(words[0])
	arg := func(i int) string {
		if i < len(words) {
			return strings.Trim(words[i], `"'`)
		}
		return ""
	}
	switch cmd {
	case "FLUSHALL", "FLUSHDB":
		return "redis-flush"
	case "EVAL", "EVALSHA", "EVAL_RO", "FCALL":
		if redisScriptFlush.MatchString(strings.Join(words[1:], " ")) {
			return "redis-flush"
		}
	case "SHUTDOWN":
		return "stop-service"
	case "DEBUG":
		switch strings.ToUpper(arg(1)) {
		case "SEGFAULT", "CRASH-AND-RECOVER", "RESTART":
			return "stop-service"
		}
	case "SLAVEOF", "REPLICAOF":
		// REPLICAOF NO ONE promotes; REPLICAOF host port discards this
		// server's data for the other's.
		if !strings.EqualFold(arg(1), "no") && arg(1) != "" {
			return "store-replication"
		}
	case "CLUSTER":
		switch strings.ToUpper(arg(1)) {
		case "RESET", "FORGET":
			return "store-replication"
		}
	case "XTRIM":
		// XTRIM key MAXLEN [=|~] 0: every entry of the stream
		for i := 2; i < len(words); i++ {
			if a := arg(i); a != "=" && a != "~" && !strings.EqualFold(a, "MAXLEN") {
				if a == "0" && strings.EqualFold(arg(2), "MAXLEN") {
					return "redis-flush"
				}
				break
			}
		}
	case "ACL":
		if strings.EqualFold(arg(1), "SETUSER") && len(words) > 3 {
			for _, w := range words[3:] {
				if strings.EqualFold(strings.Trim(w, `"'`), "nopass") {
					return "auth-disabled"
				}
			}
		}
	case "CONFIG":
		if strings.EqualFold(arg(1), "SET") {
			for i := 2; i+1 < len(words); i += 2 {
				if id := redisConfigRule(strings.ToLower(arg(i)), arg(i+1)); id != "" {
					return id
				}
			}
		}
	}
	return ""
}

// redisConfigRule: one CONFIG SET parameter and its value.
func redisConfigRule(param, value string) string {
	switch param {
	case "requirepass", "masterauth":
		if value == "" && param == "requirepass" {
			return "auth-disabled"
		}
	case "protected-mode":
		if strings.EqualFold(value, "no") {
			return "auth-disabled"
		}
	case "bind":
		if strings.Contains(value, "0.0.0.0") || strings.Contains(value, "*") || strings.Contains(value, "::") && !strings.Contains(value, "::1") {
			return "auth-disabled"
		}
	case "dbfilename":
		// the dataset is saved under this name: anything but a dump file
		if ext := path.Ext(value); ext != ".rdb" && ext != ".aof" {
			return "write-authorized-keys"
		}
	case "dir":
		// the directory the dump is written to: a home, .ssh, cron, the
		// system; Redis's own data directories (and scratch) are fine
		if c := classifyPath(value); c != pcScratch && !strings.Contains(value, "redis") && !strings.HasPrefix(value, "/data") {
			return "write-authorized-keys"
		}
	}
	return ""
}

// redisFields splits a redis-cli line into words, keeping quoted strings whole.
func redisFields(line string) []string {
	var out []string
	var cur strings.Builder
	quote := byte(0)
	inWord := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
				continue
			}
			if ch == '\\' && quote == '"' && i+1 < len(line) {
				i++
				ch = line[i]
			}
			cur.WriteByte(ch)
		case ch == '"' || ch == '\'':
			quote, inWord = ch, true
		case ch == ' ' || ch == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// classifyRedis judges lines typed at redis-cli. The server it is connected
// to is not in view, so a flush there counts as one on a server that matters.
func classifyRedis(input string, _ int) Verdict {
	for line := range strings.Lines(input) {
		words := redisFields(strings.TrimSpace(line))
		// redis-cli's own repeat prefix: "5 INCR x"
		if len(words) > 1 && strings.Trim(words[0], "0123456789") == "" {
			words = words[1:]
		}
		if id := redisCommandRule(words); id != "" {
			return hit(id)
		}
	}
	return Verdict{}
}

// redisValueOpts: redis-cli's options that take a value.
var redisValueOpts = shell.Set("-h", "-p", "-s", "-a", "-u", "-n", "-r", "-i", "--user", "--pass", "--askpass", "--rdb", "--pattern",
	"--count", "--eval", "--tls", "--cacert", "--cert", "--key", "--sni", "-d", "--functions-rdb", "--memkeys-samples", "--quoted-pattern")

// redisTarget: the server a redis-cli command line reaches (-h, -p, -u URL),
// and whether it is a disposable one (a staging or test host, or a local
// instance on another port than 6379).
func redisDisposable(args []shell.Word) bool {
	host, port := "", ""
	if u := optionValues(args, "-u", ""); len(u) > 0 {
		host, port = splitEndpoint(u[0])
	}
	if h := optionValues(args, "-h", ""); len(h) > 0 {
		host = h[0]
	}
	if p := optionValues(args, "-p", ""); len(p) > 0 {
		port = p[0]
	}
	if host == "" {
		host = "localhost"
	}
	if port == "" {
		port = "6379"
	}
	return disposableStore(host) || loopbackHost(host) && port != "6379"
}

// checkRedisCLI: the command a redis-cli line runs (after its options), by
// the server it reaches.
func checkRedisCLI(c shell.Command, _ int) Verdict {
	args := c.Args[1:]
	if redisDisposable(args) {
		return Verdict{}
	}
	// redis-cli --cluster del-node HOST:PORT ID: a node leaves its cluster
	if i := slices.IndexFunc(args, func(w shell.Word) bool { return w.S == "--cluster" }); i >= 0 && i+1 < len(args) && args[i+1].S == "del-node" {
		return hit("store-replication")
	}
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i].S
		if redisValueOpts[a] {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		words = shell.Lits(args[i:])
		break
	}
	if id := redisCommandRule(words); id != "" {
		return hit(id)
	}
	return Verdict{}
}
