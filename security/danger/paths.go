package danger

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// (A loop device is a file seen as a disk, usually an image being built.)
var blockDeviceRe = regexp.MustCompile(`^/dev/(?:[shv]d[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|disk/|md\d|md/|dm-\d|mapper/|sr\d|fd\d|k?mem$|port$)`)

// isBlockDevice reports whether p names a disk or partition device.
func isBlockDevice(p string) bool {
	return strings.HasPrefix(p, "/dev/") && blockDeviceRe.MatchString(path.Clean(p))
}

// systemFileDirs hold files the OS needs to boot, log in and run programs.
var systemFileDirs = []string{"/etc", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
	"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64", "/System", "/private/etc"}

// isSystemFile reports whether p is, or is under, one of systemFileDirs.
func isSystemFile(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	c := path.Clean(p)
	for _, d := range systemFileDirs {
		if c == d || strings.HasPrefix(c, d+"/") {
			return true
		}
	}
	return false
}

var (
	// systemRoots are top-level directories whose direct children matter too
	// (/var/lib, /home/alice, /usr/bin); /opt/x, /srv/x, /mnt/x are fair game.
	systemRoots = shell.Set("etc", "usr", "bin", "sbin", "lib", "lib32", "lib64", "boot", "var", "home", "root",
		"dev", "proc", "sys", "Users", "System", "Library", "Applications", "private", "nix", "snap")
	// homeDirs are the directories in a home that hold keys and credentials.
	homeDirs = shell.Set(".ssh", ".gnupg", ".aws", ".kube", ".config")
)

// isImportant reports whether deleting p recursively would destroy the root,
// a system or home directory, a parent directory, or everything in the
// working directory. A run-time part (DynMark) at the start counts as
// possibly empty: "$X/" and "$X/*" may become "/" and "/*".
func isImportant(p string) bool {
	switch {
	case p == "":
		return false
	case strings.HasPrefix(p, shell.DynMark):
		rest := strings.TrimLeft(p, shell.DynMark)
		comps := components(rest)
		return strings.HasPrefix(rest, "/") && (len(comps) == 0 || (len(comps) == 1 && globAll(comps[0])))
	case strings.HasPrefix(p, "~"):
		_, rest, _ := strings.Cut(p, "/")
		comps := components(rest)
		return len(comps) == 0 || (len(comps) == 1 && (homeDirs[comps[0]] || globAll(comps[0])))
	case !strings.HasPrefix(p, "/"):
		return relativeImportant(components(p))
	}
	comps := components(path.Clean(p))
	wild := false
	for i, c := range comps {
		if strings.ContainsAny(c, "*?[") {
			comps, wild = comps[:i], true
			break
		}
	}
	switch {
	case len(comps) == 0:
		return true
	case comps[0] == "etc" || comps[0] == "boot":
		return true
	case len(comps) == 1:
		return !(wild && comps[0] == "tmp")
	case len(comps) == 2:
		return systemRoots[comps[0]] && !(comps[0] == "var" && (comps[1] == "tmp" || comps[1] == "crash"))
	case len(comps) == 3:
		// /var/lib/postgresql, /usr/lib/python3, /home/alice/.ssh: package
		// state, system libraries and credentials (but not /usr/local/go).
		return comps[0] == "var" && comps[1] == "lib" || comps[0] == "usr" && comps[1] != "local" && comps[1] != "src" ||
			(comps[0] == "home" || comps[0] == "Users") && homeDirs[comps[2]]
	}
	return false
}

// relativeImportant: "..", "../..", "../*", "*", ".*" and "./*".
func relativeImportant(comps []string) bool {
	if len(comps) == 0 {
		return false
	}
	last := len(comps) - 1
	for _, c := range comps[:last] {
		if c != ".." {
			return false
		}
	}
	return comps[last] == ".." || globAll(comps[last])
}

// globAll reports whether a path component matches every (or every hidden) entry.
func globAll(c string) bool {
	rest := strings.ReplaceAll(c, "*", "")
	return strings.Contains(c, "*") && (rest == "" || rest == "." || rest == ".?")
}

// components splits p on "/" and drops empty and "." parts.
func components(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// isTempDir: /tmp and /var/tmp, which find -delete may clean.
func isTempDir(p string) bool {
	c := path.Clean(p)
	return c == "/tmp" || c == "/var/tmp" || c == "/private/tmp"
}

// criticalEtc are the /etc subdirectories login, sudo, boot and networking
// read; other subdirectories hold the configuration of single applications.
var criticalEtc = shell.Set("ssh", "pam.d", "sudoers.d", "security", "systemd", "default", "network", "netplan", "init.d",
	"ld.so.conf.d", "apt", "yum.repos.d", "selinux", "modprobe.d", "sysctl.d", "cron.d", "udev")

// isCriticalFile reports whether deleting p can stop the system from booting,
// logging in or running programs: anything in /boot, /bin, /lib, /usr/bin...,
// a file directly in /etc (passwd, fstab, hosts) or in one of criticalEtc.
// Deleting /etc/nginx/sites-enabled/default is an application's business.
func isCriticalFile(p string) bool {
	if !isSystemFile(p) {
		return false
	}
	comps := components(path.Clean(p))
	if len(comps) == 0 || (comps[0] != "etc" && !(comps[0] == "private" && len(comps) > 1 && comps[1] == "etc")) {
		return true
	}
	if comps[0] == "private" {
		comps = comps[1:]
	}
	return len(comps) <= 2 || criticalEtc[comps[1]]
}
