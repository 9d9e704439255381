package danger

import (
	"net"
	"net/url"
	"slices"
	"strings"
)

// Where a command's target runs: this machine, one's own network, or anywhere.

// loopbackHost: the agent's own machine (localhost, a *.localhost name, any
// loopback address, bracketed or not).
func loopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// internalHost: a host of one's own network (a private address, a name
// without dots or under an internal zone), or this machine.
func internalHost(host string) bool {
	host = strings.ToLower(strings.Trim(host, "[]"))
	if loopbackHost(host) || !strings.Contains(host, ".") && host != "" {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsPrivate()
	}
	return privateName(host)
}

// privateName: a name under a zone no public DNS answers for.
func privateName(name string) bool {
	return slices.ContainsFunc(privateSuffixes, func(z string) bool { return strings.HasSuffix(name, z) })
}

// privateSuffixes are the names no public DNS answers for (RFC 6761, 6762,
// 8375, and the conventional internal zones).
var privateSuffixes = []string{".local", ".internal", ".lan", ".test", ".localhost", ".localdomain", ".corp", ".home.arpa",
	".intranet", ".example", ".invalid", ".svc", ".cluster.local", ".docker", ".home", ".private", ".intra"}

// splitEndpoint: host and port of "host:port", "[::1]:port", a URL or a bare host.
func splitEndpoint(s string) (host, port string) {
	s = strings.Trim(s, `"'`)
	if strings.Contains(s, "://") {
		if u, err := url.Parse(s); err == nil {
			h := u.Host
			if i := strings.LastIndex(h, "@"); i >= 0 {
				h = h[i+1:]
			}
			s = strings.Split(h, ",")[0]
		}
	}
	if h, p, err := net.SplitHostPort(s); err == nil {
		return h, p
	}
	return s, ""
}
