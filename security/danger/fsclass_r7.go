package danger

import (
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// projectVar: a variable whose name says it holds a checkout or its source
// tree ($REPO_ROOT, ${PROJECT_DIR}, $SRC_DIR, $APP_HOME, $workspace).
var projectVar = regexp.MustCompile(`(?i)^(?:project|proj|repo|repository|git_root|src|source|app|workspace|code)(?:_?(?:dir|root|path|home|folder))?$`)

// projectDirName: a directory named for a checkout (my-repo, api-project, monorepo).
var projectDirName = regexp.MustCompile(`(?i)^(?:[\w.-]+[-_.])?(?:repo|repository|project|proj|monorepo|checkout)$`)

// checkoutSource: below a directory reached through "..", a path whose
// second component is a source tree (../../shop/apps/web,
// ../other-repo/src/main): another checkout's work, not its output.
func checkoutSource(comps []string) bool {
	return len(comps) >= 2 && (sourceDirs[comps[1]] || comps[1] == "lib") && !worktreeName.MatchString(comps[0])
}

// systemLogClass: what a path under /var/log is. The logs are the system's
// record of what happened (logins, sudo, the journal, audit): a tree of
// them, all of a directory's logs or a system log is protected data; one
// program's own or rotated log (myapp/debug.log.1, *.gz) is not.
func systemLogClass(rest []string) pathClass {
	if len(rest) == 0 {
		return pcData
	}
	base := rest[len(rest)-1]
	switch {
	case rotatedLog.MatchString(base):
		return pcFile
	case systemLog.MatchString(base), rest[0] == "audit" || rest[0] == "journal",
		broadGlob(strings.TrimSuffix(base, path.Ext(base))), strings.HasSuffix(base, "*") && systemLog.MatchString(strings.TrimSuffix(base, "*")):
		return pcData
	case len(rest) == 1 && !strings.ContainsAny(base, ".*?[") && strings.ToLower(base) == base:
		return pcData // a service's log directory (/var/log/nginx)
	}
	return pcFile
}

// rotatedLog: a log already rotated away (syslog.2.gz, auth.log.1, *.gz).
var rotatedLog = regexp.MustCompile(`\.(?:\d+|gz|xz|bz2|zst|old)$`)

// onlyScratch: git clean's pathspecs (build/, -- dist/ out/) all name
// scratch space, so only build output goes; no pathspec is the whole tree.
func onlyScratch(ops []shell.Word) bool {
	n := 0
	for _, w := range ops {
		if w.S == "--" {
			continue
		}
		if classifyPath(fsPath(w)) != pcScratch {
			return false
		}
		n++
	}
	return n > 0
}

// siteNames are scratch names that are also what people call a project
// (site, output, env): one directly in a home or a folder of it
// (~/work/site) is that project, not its build output, and so is what is
// in it (~/work/site/content), unless named as scratch in turn (~/work/site/node_modules).
var siteNames = shell.Set("site", "output", "outputs", "env", "bundle", "generated", "packs", "registry", "swap", "undo", "crash", "logs", "log", "artifacts")

func homeProject(comps []string) bool {
	for i, c := range comps {
		if i > 1 || strings.HasPrefix(c, ".") {
			return false
		}
		if scratchNames[c] || scratchWord.MatchString(c) {
			// inside the project (~/code/site/content), only a scratch name of its own makes a path scratch
			return siteNames[c] && (i == len(comps)-1 || broadGlob(comps[i+1]) || !scratchIn(comps[i+1:]))
		}
	}
	return false
}

// dataRootSite: below a data root, a site name directly in it or in one of
// its folders (/srv/www/site, /var/www/output, /mnt/backup/site) is the tree
// served or kept there, as ~/work/site is a project, not build output.
func dataRootSite(comps []string) bool {
	switch {
	case len(comps) > 2 && dataRoots[comps[0]+"/"+comps[1]]:
		return homeProject(comps[2:])
	case len(comps) > 1 && dataRoots[comps[0]]:
		return homeProject(comps[1:])
	}
	return false
}

// rotatedLogsOnly: find below /var/log selecting rotated logs by name
// (-name '*.gz', -name '*.log.1'), which is how old logs are cleared away.
func rotatedLogsOnly(start string, expr []shell.Word) bool {
	if !strings.HasPrefix(path.Clean(start)+"/", "/var/log/") {
		return false
	}
	named := false
	for i, w := range expr {
		switch w.S {
		case "!", "-not", "-o", "-or":
			return false
		case "-name", "-iname":
			if i+1 >= len(expr) || !rotatedLog.MatchString(expr[i+1].S) {
				return false
			}
			named = true
		}
	}
	return named
}

// optToolchains are the trees installed under /opt that hold only software
// downloaded again on the next install: compilers, SDKs, package managers
// and the toolchain caches of CI runner images (/opt/hostedtoolcache).
var optToolchains = shell.Set("az", "ghc", "hostedtoolcache", "actionarchivecache", "homebrew", "conda", "miniconda", "miniconda3",
	"anaconda", "anaconda3", "miniforge3", "mambaforge", "go", "golang", "node", "nodejs", "java", "jdk", "jre", "openjdk", "maven",
	"gradle", "cmake", "llvm", "clang", "gcc", "julia", "zig", "rust", "cargo", "dotnet", "android", "android-sdk", "flutter", "dart",
	"swift", "cuda", "rocm", "intel", "google", "microsoft", "chrome", "firefox", "nvim", "neovim", "pipx", "poetry", "pyenv",
	"python", "ruby", "nvm", "sbt", "scala", "kotlin", "bazel", "vcpkg", "pipx_bin", "local")

// versionedName: a tree named for one version of a download (go1.22,
// cmake-3.28.1, jdk-17, node-v20.11.0-linux-x64).
var versionedName = regexp.MustCompile(`\d\.\d|[-_]v?\d+(?:$|[-_.])`)

// optStateDirs are the directories of an application installed under /opt
// that hold its configuration and state rather than its programs.
var optStateDirs = shell.Set("etc", "conf", "config", "var", "state", "queue", "spool", "db", "work", "repository")

// installedApp: an application installed under /opt (/opt/order-router,
// /opt/nexus/etc): the Filesystem Hierarchy Standard's place for add-on
// packages, whose trees keep the service's configuration, queues and state
// beside its programs, so removing one is removing the service. A
// toolchain or one version of a download there is not a service.
func installedApp(comps []string) bool {
	if len(comps) < 2 || comps[0] != "opt" || optToolchains[comps[1]] || versionedName.MatchString(comps[1]) ||
		strings.ContainsAny(comps[1], "*?[") || strings.HasPrefix(comps[1], ".") {
		return false
	}
	n := len(comps)
	if n > 2 && broadGlob(comps[n-1]) {
		n-- // /opt/order-router/*: all of it
	}
	return n == 2 || n == 3 && optStateDirs[comps[2]]
}
