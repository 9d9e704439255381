package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// appConfig: a file of an application's own under /etc/<app>/ (not one of
// the system's: see criticalEtc), which deploying the application writes.
func appConfig(p string) bool {
	return isSystemFile(p) && !isCriticalFile(p) && strings.HasPrefix(path.Clean(p), "/etc/")
}

// dropInDirs hold one file per installed service or site, named for it;
// adding the project's own does not replace the system's.
var dropInDirs = shell.Set("/etc/systemd/system", "/etc/nginx/conf.d", "/etc/nginx/sites-available", "/etc/apache2/sites-available",
	"/etc/logrotate.d", "/etc/supervisor/conf.d", "/etc/httpd/conf.d")

// installsOwnFiles: cp or install of the project's own files (relative
// sources) into a directory under /etc, each landing as a new file named
// for itself (sudo cp deploy/app.service /etc/systemd/system/, sudo cp
// app.env /etc/app/), not over one of the system's files.
func installsOwnFiles(name string, ops []shell.Word, target string) bool {
	if name != "cp" && name != "install" || len(ops) < 2 || !strings.HasPrefix(target, "/etc/") {
		return false
	}
	for _, src := range ops[:len(ops)-1] {
		s := src.S
		if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || src.Dyn() || strings.ContainsAny(s, "*?[") {
			return false
		}
		eff := target
		switch {
		case strings.HasSuffix(target, "/"):
			eff = target + path.Base(s)
		case path.Base(target) != path.Base(s):
			return false // renamed on the way: it may replace a system file
		}
		if isCriticalFile(eff) && !dropInDirs[path.Dir(path.Clean(eff))] || etcSystemNames[path.Base(eff)] {
			return false
		}
	}
	return true
}

// etcSystemNames are files the system itself keeps under those directories.
var etcSystemNames = shell.Set("ssh.service", "sshd.service", "default", "default.conf", "sshd_config", "sudoers", "passwd", "shadow", "hosts", "fstab")
