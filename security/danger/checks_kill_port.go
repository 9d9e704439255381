package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Killing whatever listens on a port is killing a daemon when the port is a
// database's, a broker's or sshd's (kill -9 $(lsof -t -i :5432),
// fuser -k 3306/tcp); a development server's port (3000, 8080) is not.

var daemonPorts = shell.Set("22", "25", "53", "1433", "1521", "2181", "2379", "3306", "5432", "5672", "6379", "6443", "8086",
	"9042", "9092", "9200", "9300", "11211", "26257", "27017", "15672", "5984", "7474", "7687", "8123")

// portOf: the port of an lsof -i / ss / fuser address (:5432, tcp:5432, 5432/tcp, -iTCP:5432).
var portOf = regexp.MustCompile(`(?:^|:)(\d{2,5})(?:/(?:tcp|udp))?$`)

func init() {
	addHostCheck("fuser", checkFuserPort)
}

// checkFuserPort: fuser -k 5432/tcp kills every process using the port.
func checkFuserPort(c shell.Command, _ int) Verdict {
	kills := false
	for _, w := range c.Args[1:] {
		kills = kills || w.S == "--kill" || strings.HasPrefix(w.S, "-") && !strings.HasPrefix(w.S, "--") && strings.Contains(w.S, "k")
	}
	return hitIf(kills && namesDaemonPort(c.Args[1:]), "kill-daemon")
}

func namesDaemonPort(args []shell.Word) bool {
	for i, w := range args {
		s := strings.TrimPrefix(strings.TrimPrefix(w.S, "-i"), "TCP")
		if w.S == "-n" && i+2 < len(args) { // fuser -n tcp 5432
			s = args[i+2].S
		}
		if m := portOf.FindStringSubmatch(s); m != nil && daemonPorts[m[1]] && (strings.Contains(w.S, ":") || strings.Contains(w.S, "/") || w.S == "-n") {
			return true
		}
	}
	return false
}
