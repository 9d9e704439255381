package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Package managers: installs whose signatures are not checked (or a
// repository whose checks are turned off for good), and removals that take
// a service's data with them (a purged database server, flatpak's
// --delete-data).

func init() {
	rules = append(rules, rule{"package-unverified", catSecurity,
		"This installs packages without checking their signatures (or from a plain-HTTP index it trusts anyway), so whoever is on the path decides what runs as root.",
		sh("sudo yum install -y --nogpgcheck http://rpms.example.net/agent.rpm", "dnf config-manager --save --setopt=gpgcheck=0", "dnf install --setopt=*.gpgcheck=0 agent",
			"apt-get install -y --allow-unauthenticated agent", "pip install --index-url http://pypi.example.net/simple --trusted-host pypi.example.net tools",
			"sudo zypper --no-gpg-checks install agent"),
		sh("sudo yum install -y tmux", "dnf config-manager --save --setopt=gpgcheck=1", "dnf install --setopt=install_weak_deps=False agent",
			"apt-get install -y agent", "pip install --index-url https://pypi.example.net/simple tools", "pip install --user -r requirements-dev.txt", "zypper install agent")})
	for name, f := range map[string]func(shell.Command, int) Verdict{
		"yum": checkPackageTrust, "dnf": checkPackageTrust, "apt-get": checkPackageTrust, "apt": checkPackageTrust, "zypper": checkPackageTrust,
		"pip": checkPackageTrust, "pip3": checkPackageTrust, "flatpak": checkFlatpakData,
	} {
		addHostCheck(name, f)
	}
}

func checkPackageTrust(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		a := w.S
		switch {
		case a == "--nogpgcheck" || a == "--no-gpg-checks" || a == "--allow-unauthenticated" || a == "--allow-insecure-repositories" || a == "--no-gpgcheck":
			return hit("package-unverified")
		case strings.Contains(a, "gpgcheck=0") || strings.Contains(a, "gpgcheck=False") || strings.Contains(a, "AllowUnauthenticated=true") || strings.Contains(a, "AllowUnauthenticated=1"):
			return hit("package-unverified")
		}
	}
	if c.Name == "pip" || c.Name == "pip3" {
		plain := false
		for _, k := range []string{"--index-url", "--extra-index-url", "-i"} {
			for _, v := range optionValues(c.Args[1:], k, k) {
				host, _, _ := strings.Cut(strings.TrimPrefix(v, "http://"), "/")
				host, _, _ = strings.Cut(host, ":")
				plain = plain || strings.HasPrefix(v, "http://") && !loopbackHost(host)
			}
		}
		return hitIf(plain && len(optionValues(c.Args[1:], "--trusted-host", "--trusted-host")) > 0, "package-unverified")
	}
	return Verdict{}
}

// checkFlatpakData: flatpak uninstall --delete-data removes the apps' data
// under ~/.var/app with them.
func checkFlatpakData(c shell.Command, _ int) Verdict {
	ops := guestOperands(c.Args[1:], nil)
	return hitIf(len(ops) > 0 && (ops[0] == "uninstall" || ops[0] == "remove") && hasWord(c.Args, "--delete-data"), "delete-protected-tree")
}

// dataPackages are servers whose purge removes their data directories
// (postgresql-common's purge drops every cluster, mysql-server's asks to
// remove /var/lib/mysql and noninteractive says yes).
func dataPackage(p string) bool {
	for _, d := range []string{"postgresql", "mysql-server", "mariadb-server", "mongodb", "redis-server", "slapd", "elasticsearch", "opensearch", "influxdb", "clickhouse-server", "rabbitmq-server", "nextcloud", "gitlab-ce", "gitlab-ee"} {
		// the server itself or one version of it (postgresql-16), not its
		// client, docs or contrib
		if rest, ok := strings.CutPrefix(p, d); ok && (rest == "" || rest[0] == '*' || len(rest) > 1 && rest[0] == '-' && (rest[1] >= '0' && rest[1] <= '9' || rest[1] == '*')) {
			return true
		}
	}
	return false
}
