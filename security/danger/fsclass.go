package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// The filesystem effect model: a path a command would delete or overwrite is
// classified by what it is, and one policy (treeProtected, fileProtected)
// decides which classes need confirmation. Command knowledge (which flags
// recurse, which APIs delete) stays with the commands' checks.

type pathClass int

const (
	pcUnknown    pathClass = iota // run-time, or software outside the project (/usr/local/go, /opt/x)
	pcScratch                     // build output, caches, temporary files
	pcFile                        // an ordinary file named by the project (package-lock.json, notes.txt)
	pcProject                     // source trees, the working directory, parents
	pcVCS                         // .git and friends
	pcHome                        // a home directory or anything in it
	pcCredential                  // keys, tokens, cloud and cluster credentials, .env files
	pcDatabase                    // database files
	pcSystem                      // the root and operating system directories
	pcData                        // mounts, served data, service state
)

// treeProtected: classes whose recursive deletion needs confirmation.
var treeProtected = map[pathClass]bool{pcProject: true, pcVCS: true, pcHome: true, pcCredential: true,
	pcDatabase: true, pcSystem: true, pcData: true}

// fileProtected: classes whose deletion or truncation, file by file, needs confirmation.
var fileProtected = map[pathClass]bool{pcCredential: true, pcDatabase: true}

var (
	scratchNames = shell.Set("node_modules", "dist", "build", "builds", "target", "out", "__pycache__", ".cache", "cache", "caches",
		".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".nox", ".venv", "venv", ".next", ".nuxt", ".turbo", ".parcel-cache",
		".svelte-kit", "coverage", "htmlcov", ".coverage", ".nyc_output", "tmp", "temp", ".tmp", ".gradle", ".npm", "_cacache",
		"go-build", "DerivedData", "Pods", ".terraform", ".angular", ".eslintcache", "obj", ".sass-cache", "storybook-static",
		"packs", "packs-test", "bundle", ".stack-work", "elm-stuff", ".dart_tool", ".expo", "logs", "log", "artifacts", ".webpack",
		".pnpm-store", ".yarn-cache", "site-packages", "dist-newstyle", "_build", ".eggs", "wheels", "test-results", "test-output",
		".serverless", ".aws-sam", "cdk.out", ".vercel", ".netlify", ".docusaurus", "zig-cache", "zig-out", ".zig-cache", "CMakeFiles",
		"_site", ".jekyll-cache", ".ipynb_checkpoints", "lcov-report", ".idea", ".m2", ".ccache", ".sbt", ".gem", ".Trash", "Trash",
		".virtualenvs", "envs", "Caches", ".yarn", ".bun", ".nvm", ".pyenv", ".rbenv", ".vscode-server", ".rustup", "registry", "plugged", "swap", "undo",
		"env", "site", "output", "outputs", "generated", "__generated__", "hostedtoolcache", "crash", "coredump")
	// homeScratch are the directories in a home that only hold downloaded
	// packages, toolchains and caches.
	homeScratch = []string{"go/pkg", ".cargo/registry", ".cargo/git", ".local/pipx", ".local/share/Trash", ".ivy2/cache", ".composer/cache"}
	// stampedBackup: a backup copy named with a date or time after its suffix
	// (config.bak.2024-06-01, config.bak.$(date +%s)): a new file.
	stampedBackup = regexp.MustCompile(`(?i)\.(?:bak|backup|orig|old)[-_.]`)
	scratchWord   = regexp.MustCompile(`(?i)^(?:tmp|temp|cache|build|dist|out|bazel)[-_.]|[-_.](?:tmp|temp|cache|build|builds|dist|out|old|bak|backup)$|\.(?:log|tmp|bak|orig|rej|swp|o|pyc|class|egg-info|dist-info|partial|part|crdownload)$`)
	// homeCredFiles are credentials kept in directories that also hold
	// ordinary state.
	homeCredFiles = []string{".docker/config.json", ".config/gcloud", ".config/gh/hosts.yml", ".terraform.d/credentials.tfrc.json",
		".config/op", ".azure/accessTokens.json", ".cargo/credentials", ".cargo/credentials.toml", "rclone/rclone.conf", ".s3cfg", ".boto", ".dockercfg",
		".dbt/profiles.yml", ".config/sops/age/keys.txt", ".snowsql/config", ".databrickscfg", ".config/snowflake/connections.toml", ".airflow/airflow.cfg",
		".config/borg/keys", ".config/borg/security"}
	vcsNames   = shell.Set(".git", ".hg", ".svn", ".bzr", ".jj")
	vcsCore    = shell.Set("objects", "refs", "*", "store", "packed-refs", "HEAD", "logs", "config", "index", "hgrc", "wc.db")
	credDirs   = shell.Set(".ssh", ".aws", ".kube", ".gnupg", ".azure", ".password-store", ".vault-token", "keyrings")
	credFiles  = regexp.MustCompile(`^(?:\.env(?:\.[A-Za-z0-9_-]+)?|\.netrc|\.pgpass|\.my\.cnf|\.mylogin\.cnf|\.git-credentials|\.npmrc|\.pypirc|credentials(?:\.json|\.ya?ml)?(?:\.enc)?|kubeconfig|\.htpasswd|id_(?:rsa|dsa|ecdsa|ed25519)(?:_[A-Za-z0-9]+)?|.+\.(?:pem|key|p12|p8|pfx|kdbx|jks|keystore))$`)
	credSample = regexp.MustCompile(`(?i)(?:example|sample|template|dist|test|bak|backup|old|orig|save)$`)
	dbFiles    = regexp.MustCompile(`(?i)\.(?:db|sqlite|sqlite3|db3|mdb|accdb|ibd|frm|myd|wt|rdb|aof|duckdb|fdb|gdb|nsf|tfstate|tfstate\.backup)$|^ibdata\d*$|^ib_logfile\d*$`)
	// dataRoots: top-level directories holding mounts and served or
	// service data, protected at any depth.
	dataRoots = shell.Set("mnt", "media", "srv", "data", "backup", "backups", "Volumes", "nfs", "net", "exports", "storage", "var/lib", "var/opt", "var/www", "var/mail", "var/spool", "var/backups",
		"checkpoints", "models", "datasets", "warehouse", "lake", // the volumes an ML or data host mounts at the root
		"evidence", "forensics") // an incident's evidence (evidence.go)
	// dataNames are directories that hold a service's data or served files
	// wherever a package put them (/opt/gitlab/data, /usr/share/nginx/html).
	dataNames = shell.Set("data", "pgdata", "mysql-data", "db-data", "uploads", "backups", "volumes", "htdocs", "public_html", "wwwroot", "mnesia")
	// keptDataNames: directories of a project that hold what cannot be built
	// again — its users' uploads and the backups kept beside it — protected
	// wherever they are, as /srv/uploads is.
	keptDataNames = shell.Set("uploads", "user-uploads", "user_uploads", "backups", "backup", "attachments")
	// serviceHome: a service's own state directory (/opt/jenkins_home, /srv/minio-data).
	serviceHome = regexp.MustCompile(`(?i)^[a-z0-9]+[-_](?:home|data)$`)
	// dbDataDir: a database's storage directory by its name (pgdata, mysql-data, mongo_data).
	dbDataDir = regexp.MustCompile(`(?i)^(?:pg|postgres(?:ql)?|mysql|mariadb|mongo(?:db)?|redis|db|couchdb|influxdb|neo4j|etcd|es|elasticsearch|clickhouse|cassandra)[-_]?data$`)
	// dbServices keep database files under /var/lib/<name>: deleting any one
	// file there corrupts the database.
	dbServices = shell.Set("postgresql", "pgsql", "mysql", "mariadb", "mongodb", "redis", "etcd", "elasticsearch", "opensearch",
		"cassandra", "influxdb", "clickhouse", "couchdb", "rabbitmq", "kafka", "zookeeper", "neo4j", "cockroach", "mssql",
		"dpkg", "rpm") // the package managers' databases
)

var (
	// projectRoots are where containers and devcontainers keep the project.
	projectRoots = shell.Set("workspace", "workspaces", "app", "code", "src", "project", "repo")
	// userDataExt are the documents and media a person keeps.
	userDataExt = shell.Set(".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".txt", ".md", ".jpg",
		".jpeg", ".png", ".heic", ".gif", ".mp4", ".mov", ".mp3", ".flac", ".wav", ".csv", ".epub", ".raw", ".cr2", ".nef")
)

// classifyPath says what the resolved path p (see fsPath) is.
func classifyPath(p string) pathClass {
	if p == "" {
		return pcUnknown
	}
	if strings.HasPrefix(p, shell.DynMark) {
		rest := strings.TrimLeft(p, shell.DynMark)
		if isImportant(p) {
			return pcSystem
		}
		// Below a directory known only at run time, only what a name says
		// for itself counts ("$D/.git", "$D/.ssh/id_rsa").
		return leafClass(rest)
	}
	if strings.HasPrefix(p, "/") && absClass(components(path.Clean(p))) == pcScratch {
		return pcScratch // a copy in /tmp is as disposable as /tmp
	}
	if c := leafClass(p); c != pcUnknown {
		return c
	}
	switch {
	case strings.HasPrefix(p, "~"):
		_, rest, _ := strings.Cut(p, "/")
		return homeClass(components(rest))
	case strings.HasPrefix(p, "/"):
		return absClass(components(path.Clean(p)))
	}
	comps := components(path.Clean(p))
	up := false
	for len(comps) > 0 && comps[0] == ".." {
		comps, up = comps[1:], true
	}
	switch {
	case len(comps) == 0, len(comps) == 1 && broadGlob(comps[0]):
		return pcProject // the working directory (or a parent), or all its entries
	case scratchIn(comps):
		return pcScratch
	case sourceGlob(comps[len(comps)-1]):
		return pcProject // every source file of a kind (*.go, src/**/*.ts): the project's code
	case xcodeProject.MatchString(comps[len(comps)-1]):
		return pcProject // an Xcode project: its targets, build settings and file list (CocoaPods' .xcworkspace is made again by pod install)
	case looksLikeFile(comps[len(comps)-1]):
		return pcFile
	case slices.ContainsFunc(comps, dbDataDir.MatchString):
		return pcDatabase // a compose file's bind-mounted database (./pgdata, ./mysql-data)
	case slices.ContainsFunc(comps, func(c string) bool { return keptDataNames[c] }):
		return pcData // what the application's users uploaded, or the backups kept beside it (./uploads, storage/backups)
	case up && len(comps) == 1 && worktreeName.MatchString(comps[0]):
		return pcUnknown // a linked worktree (its commits live in the main repository) or a copy
	case sourceDirs[comps[0]] && len(comps) <= 2, up && len(comps) == 1:
		return pcProject // or a sibling of the working directory: another checkout (../shop)
	case len(comps) == 1 && projectDirName.MatchString(comps[0]):
		return pcProject // a checkout named as one (./my-repo, api-project)
	case up && checkoutSource(comps):
		return pcProject // the source tree of another checkout (../../shop/apps/web)
	}
	return pcUnknown // a name whose role cannot be told (a clone, a worktree, fixtures)
}

var servedFile = regexp.MustCompile(`(?i)\.(?:html?|css|js|map|txt|json|xml|conf|ini|ya?ml|php|md|log|pid|sock)$`)

var worktreeName = regexp.MustCompile(`(?i)^(?:wt|worktree)[-_.]|[-_.](?:wt|worktree|copy)$`)

var localSystem = shell.Set("lib", "lib64", "bin", "sbin", "include", "share", "etc")

var xcodeProject = regexp.MustCompile(`\.xcodeproj$|^project\.pbxproj$`)

// sourceDirs are the names projects give their source trees; a relative
// path starting with one is project source, not an artifact.
var sourceDirs = shell.Set("src", "source", "sources", "app", "apps", "tests", "test", "spec", "specs", "docs", "doc", "cmd",
	"internal", "include", "components", "pages", "packages", "services", "server", "client", "api", "scripts", "config",
	"configs", "migrations", "db", "database", "models", "core", "frontend", "backend", "infra", "deploy", "charts",
	"terraform", ".github", "proto", "web", "ui", "templates", "views", "controllers", "handlers", "modules", "notebooks",
	"website", "project", "projects", "repo", "repos", "workspace", "k8s", "helm", "ansible", "lib/src", "lib")

// leafClass: credentials, databases and VCS state wherever they are.
func leafClass(p string) pathClass {
	comps := components(p)
	if len(comps) == 0 {
		return pcUnknown
	}
	base := comps[len(comps)-1]
	for _, c := range comps {
		switch {
		case vcsNames[c]:
			if i := slices.Index(comps, c); i == len(comps)-1 || vcsCore[comps[i+1]] {
				return pcVCS
			}
			return pcUnknown // hooks, a stale lock, an aborted rebase
		case credDirs[c]:
			if i := slices.Index(comps, c); strings.HasPrefix(base, "known_hosts") || scratchIn(comps[i+1:]) || strings.HasSuffix(base, ".pub") || strings.HasSuffix(base, ".new") || scratchWord.MatchString(base) || stampedBackup.MatchString(base) {
				return pcUnknown
			}
			return pcCredential
		}
	}
	if homeCredential(strings.Join(comps, "/")) || etcPasswordFile(comps) {
		return pcCredential
	}
	if c := caFileClass(comps); c != pcUnknown {
		return c
	}
	switch {
	case credFiles.MatchString(base) && !credSample.MatchString(base) && !publicCert(comps):
		return pcCredential
	case dbFiles.MatchString(base) && !scratchState(comps):
		return pcDatabase
	}
	return pcUnknown
}

// homeDataDirs are the hidden directories of a home that hold a person's
// settings, mail, browser profiles and keys rather than one tool's state.
var homeDataDirs = shell.Set(".config", ".local", ".mozilla", ".thunderbird", ".icedove", ".var", ".mail", ".Mail", ".purple",
	".gnupg", ".ssh", ".aws", ".kube", ".azure", ".password-store", ".electrum", ".bitcoin", ".ethereum", ".sqlite_history")

func homeClass(comps []string) pathClass {
	rest := strings.Join(comps, "/") + "/"
	for _, d := range homeScratch {
		if strings.HasPrefix(rest, d+"/") {
			return pcScratch
		}
	}
	switch {
	case scratchIn(comps) && !homeProject(comps):
		return pcScratch
	case len(comps) > 0 && (strings.HasPrefix(comps[0], ".") || comps[0] == "Library") &&
		slices.ContainsFunc(comps, func(c string) bool { return dbServices[c] || dbDataDir.MatchString(c) }):
		return pcDatabase // a database kept in a home (~/.local/share/mongodb, ~/pgdata)
	case len(comps) >= 3 && (strings.HasPrefix(comps[0], ".") || comps[0] == "Library") && !broadGlob(comps[2]):
		return pcUnknown // deep in an application's own state (~/.local/share/nvim/lazy)
	case len(comps) == 2 && strings.HasPrefix(comps[0], ".") && !homeDataDirs[comps[0]] && !broadGlob(comps[1]):
		return pcUnknown // a tool's own packages or state (~/.npm-global/lib, ~/.docker/buildx)
	case len(comps) > 0 && looksLikeFile(comps[len(comps)-1]):
		last := comps[len(comps)-1]
		if ext := path.Ext(last); broadGlob(strings.TrimSuffix(last, ext)) && userDataExt[strings.ToLower(ext)] {
			return pcHome // every photo or document of a folder (~/Pictures/*.jpg)
		}
		return pcFile // one file, or files of one kind (~/Downloads/*.dmg)
	}
	return pcHome
}

func absClass(comps []string) pathClass {
	switch {
	case len(comps) == 0:
		return pcSystem
	case comps[0] == "tmp" || comps[0] == "private" && len(comps) > 1 && comps[1] == "tmp" ||
		len(comps) > 1 && (comps[0] == "var" && comps[1] == "tmp" || comps[0] == "dev" && comps[1] == "shm"):
		if len(comps) == 1 || len(comps) == 2 && comps[0] != "tmp" {
			return pcSystem
		}
		return pcScratch
	case comps[0] == "home" || comps[0] == "Users":
		if len(comps) == 1 {
			return pcSystem
		}
		return homeClass(comps[2:])
	case comps[0] == "root":
		return homeClass(comps[1:])
	case len(comps) > 1 && comps[0] == "var" && comps[1] == "log":
		return systemLogClass(comps[2:])
	case comps[0] == "usr" && len(comps) == 4 && comps[1] == "local" && broadGlob(comps[3]) && localSystem[comps[2]]:
		return pcSystem // every library or program installed locally (/usr/local/lib/*)
	case dataRootSite(comps):
		return pcData
	case scratchIn(comps) || len(comps) > 1 && comps[0] == "var" && comps[1] == "cache" ||
		strings.HasPrefix(strings.Join(comps, "/")+"/", "var/lib/apt/lists/"):
		return pcScratch
	case slices.Contains(comps[:len(comps)-1], "releases") && !broadGlob(comps[len(comps)-1]):
		return pcUnknown // one deployed release; the live one is a symlink to the newest (/var/www/app/releases/2024...)
	case dataRoots[comps[0]] || len(comps) > 1 && dataRoots[comps[0]+"/"+comps[1]]:
		if servedFile.MatchString(comps[len(comps)-1]) {
			return pcFile // one page or config file, not the tree (/var/www/html/index.html)
		}
		return pcData
	case len(comps) > 1 && slices.ContainsFunc(comps[1:], func(c string) bool { return dataNames[c] || serviceHome.MatchString(c) }),
		len(comps) > 3 && strings.Join(comps[:3], "/") == "usr/share/nginx":
		return pcData
	case liveRelease(comps), installedApp(comps):
		return pcData
	case projectRoots[comps[0]] && len(comps) <= 2,
		comps[0] == "opt" && len(comps) >= 2 && len(comps) <= 3 && projectRoots[comps[1]]:
		return pcProject // a container's or devcontainer's checkout (/workspace, /app, /opt/app)
	case isImportant("/" + strings.Join(comps, "/")):
		return pcSystem
	}
	return pcUnknown
}

// compiledAssets: the directories web frameworks compile their assets into
// (Rails' public/assets, Laravel's public/build, Django's collectstatic
// output), rebuilt by the next deploy.
func compiledAssets(comps []string) bool {
	for i, c := range comps {
		if c == "staticfiles" || i+1 < len(comps) && (c == "public" && (comps[i+1] == "assets" || comps[i+1] == "build") || c == "static" && comps[i+1] == "CACHE") {
			return true
		}
	}
	return false
}

func scratchIn(comps []string) bool {
	if compiledAssets(comps) {
		return true
	}
	for _, c := range comps {
		if scratchNames[c] || scratchWord.MatchString(c) || strings.HasPrefix(c, "cmake-build-") {
			return true
		}
	}
	return false
}

var bracketExpr = regexp.MustCompile(`\[[^\]]*\]`)

// broadGlob: a pattern that matches every entry, or every hidden one
// (*, .*, .[!.]*, .??*, ?*, [a-z]*).
func broadGlob(c string) bool {
	if !strings.ContainsAny(c, "*?[") {
		return false
	}
	rest := strings.NewReplacer("*", "", "?", "").Replace(bracketExpr.ReplaceAllString(c, ""))
	return rest == "" || rest == "."
}

// sourceExt are the extensions of the files a project's code is written in.
var sourceExt = shell.Set(".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".rb", ".java", ".kt", ".kts", ".rs", ".c",
	".cc", ".cpp", ".cxx", ".h", ".hpp", ".cs", ".php", ".swift", ".scala", ".sh", ".vue", ".svelte", ".ex", ".exs",
	".erl", ".hs", ".ml", ".clj", ".lua", ".dart", ".m", ".mm", ".r", ".R", ".pl", ".pm", ".tf", ".proto", ".ipynb", ".fs", ".zig", ".nim")

// sourceGlob: a pattern for every file of a source language (*.py, *.go).
func sourceGlob(name string) bool {
	ext := path.Ext(name)
	return sourceExt[ext] && broadGlob(strings.TrimSuffix(name, ext))
}

// looksLikeFile: a name with an extension (package-lock.json, notes.txt),
// which rm -rf deletes as the one file it is.
func looksLikeFile(name string) bool {
	i := strings.LastIndexByte(name, '.')
	return i > 0 && i < len(name)-1 && !strings.ContainsAny(name[i:], "*?[/")
}

// fsPath is the path a word names, with the variables and substitutions
// whose meaning is known put back: $PWD and $(pwd) are ".", $TMPDIR is
// /tmp, ${X:?} (bash refuses to run with it empty) is a directory of its own,
// $PGDATA is the database's directory.
func fsPath(w shell.Word) string {
	if w.Node == nil || shell.ResolveWord(w.Node).S != w.S {
		return w.S
	}
	var b strings.Builder
	if shell.QuotedTilde(w.Node.Parts) {
		b.WriteString("./")
	}
	fsParts(&b, w.Node.Parts)
	return b.String()
}

// homeCredential: p is, or is inside, one of homeCredFiles.
func homeCredential(p string) bool {
	return slices.ContainsFunc(homeCredFiles, func(h string) bool { return strings.HasSuffix(p, h) || strings.Contains(p, h+"/") })
}

// The checkout directory of CI runners is the project.
var knownDirs = map[string]string{"GITHUB_WORKSPACE": ".", "CI_PROJECT_DIR": ".", "WORKSPACE": ".", "CIRCLE_WORKING_DIRECTORY": ".",
	"BUILD_SOURCESDIRECTORY": ".", "BITBUCKET_CLONE_DIR": ".", "TRAVIS_BUILD_DIR": ".", "CI_WORKSPACE": ".", "RUNNER_TEMP": tmpVarDir,
	"PWD": ".", "OLDPWD": "..", "HOME": "~", "TMPDIR": tmpVarDir, "TMP": tmpVarDir, "TEMP": tmpVarDir,
	"PGDATA": "/var/lib/postgresql/data", "XDG_CACHE_HOME": "~/.cache", "XDG_CONFIG_HOME": "~/.config", "XDG_DATA_HOME": "~/.local/share",
	"AIRFLOW_HOME": "~/airflow", "DAGSTER_HOME": "~/.dagster"} // a scheduler's DAGs, connections and metadata

func fsParts(b *strings.Builder, parts []syntax.WordPart) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.DblQuoted:
			fsParts(b, p.Parts)
			continue
		case *syntax.ParamExp:
			if p.Param != nil {
				if d, ok := knownDirs[p.Param.Value]; ok && (shell.SimpleParam(p) || p.Exp != nil) {
					b.WriteString(d)
					continue
				}
				if shell.SimpleParam(p) && projectVar.MatchString(p.Param.Value) {
					b.WriteString(".") // $REPO_ROOT, ${PROJECT_DIR}: the checkout, by its name
					continue
				}
				if p.Exp != nil && (p.Exp.Op == syntax.ErrorUnsetOrNull || p.Exp.Op == syntax.ErrorUnset) {
					b.WriteString(shell.DynMark + "set")
					continue
				}
				if p.Exp != nil && (p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.DefaultUnset) && p.Exp.Word != nil {
					if d := fsPath(shell.ResolveWord(p.Exp.Word)); d != "" && !strings.Contains(d, shell.DynMark) {
						b.WriteString(d) // ${ROOT:-.}: the default, what the line deletes when ROOT is unset
						continue
					}
				}
			}
		case *syntax.CmdSubst:
			if d, ok := substDir(p); ok {
				b.WriteString(d)
				continue
			}
		}
		b.WriteString(shell.ResolveWord(&syntax.Word{Parts: []syntax.WordPart{p}}).S)
	}
}

// substDir: $(pwd), $(git rev-parse --show-toplevel), $(mktemp -d).
func substDir(p *syntax.CmdSubst) (string, bool) {
	if len(p.Stmts) == 2 { // $(cd DIR; pwd)
		return substDirOf(&syntax.Stmt{Cmd: &syntax.BinaryCmd{Op: syntax.AndStmt, X: p.Stmts[0], Y: p.Stmts[1]}})
	}
	if len(p.Stmts) != 1 {
		return "", false
	}
	if d, ok := substDirOf(p.Stmts[0]); ok {
		return d, true
	}
	if d, ok := substHome(p.Stmts[0]); ok {
		return d, true
	}
	call, ok := p.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return "", false
	}
	c, ok := shell.BuildCommand(call)
	if !ok {
		return "", false
	}
	words := strings.Join(shell.Lits(c.Args), " ")
	if d, ok := toolDirs[words]; ok {
		return d, true
	}
	switch {
	case c.Name == "pwd", words == "git rev-parse --show-toplevel":
		return ".", true
	case c.Name == "mktemp":
		return "/tmp/" + shell.DynMark, true
	}
	return "", false
}

// toolDirs are the directories tools report where they keep things.
var toolDirs = map[string]string{"go env GOPATH": "~/go", "go env GOMODCACHE": "~/go/pkg/mod", "go env GOCACHE": "~/.cache/go-build",
	"npm config get cache": "~/.npm", "pip cache dir": "~/.cache/pip", "yarn cache dir": "~/.cache/yarn", "brew --cache": "~/Library/Caches/Homebrew",
	"brew --prefix": "/usr/local", "npm root -g": "/usr/local/lib/node_modules", "rustc --print sysroot": "~/.rustup/toolchains/x",
	"git rev-parse --git-dir": ".git", "git rev-parse --absolute-git-dir": ".git", "git rev-parse --git-common-dir": ".git"}

// treeVerdict judges the recursive deletion of p.
func treeVerdict(p string) Verdict {
	c := classifyPath(p)
	if treeProtected[c] {
		if c == pcCredential || c == pcDatabase {
			return hit("delete-credentials")
		}
		return hit("delete-protected-tree")
	}
	return Verdict{}
}

// fileVerdict judges the deletion of p as a single file.
// A project's own key or database file (server.key, dev.sqlite3) is often
// regenerated; deleting one counts only in a home's credential directories,
// in service data, or when it is named for production.
func fileVerdict(p string) Verdict {
	c := classifyPath(p)
	switch {
	case c == pcData && dbServiceFile(p):
		return hit("delete-credentials") // one file of a database's storage
	case c == pcData && strings.HasPrefix(path.Clean(p), "/var/log/"):
		return hit("log-tamper") // the system's logs, or all of a directory's
	case c == pcVCS && !transientFile.MatchString(path.Base(p)) && !scratchWord.MatchString(path.Base(p)):
		return hit("delete-protected-tree") // .git/config, .git/HEAD: the repository no longer opens (a stale .lock is not it)
	case c == pcHome && isDotfile(p) && coreDotfiles[path.Base(p)]:
		return hit("overwrite-protected") // ~/.bashrc, ~/.gitconfig deleted: as lost as emptied
	case c == pcData && backupArchivesGlob(p):
		return hit("backup-delete") // every archive of a backup location (backup_modes.go)
	}
	if !fileProtected[c] {
		return Verdict{}
	}
	if projectKeyOrDB.MatchString(path.Base(p)) && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "/") && !prodName.MatchString(p) &&
		!slices.ContainsFunc(components(path.Dir(p)), func(c string) bool { return appStateDirs[c] }) {
		return Verdict{}
	}
	return hit("delete-credentials")
}

// appStateDirs hold what a running application wrote, not what a build or
// a fixture made: Flask's instance/, Laravel's storage/, a var/ tree.
var appStateDirs = shell.Set("instance", "storage", "var")

var (
	projectKeyOrDB = regexp.MustCompile(`(?i)\.(?:pem|key|p12|p8|pfx|crt|jks|keystore|db|sqlite|sqlite3|db3)$`)
	prodName       = regexp.MustCompile(`(?i)prod|live|master|main\.`)
)

// dbServiceFile: a file of a database's storage under /var/lib/<db>
// (not its socket, pid or lock file).
func dbServiceFile(p string) bool {
	comps := components(path.Clean(p))
	return strings.HasPrefix(p, "/") && len(comps) > 3 && comps[0] == "var" && (comps[1] == "lib" || comps[1] == "opt") &&
		dbServices[comps[2]] && !transientFile.MatchString(comps[len(comps)-1])
}

var transientFile = regexp.MustCompile(`(?i)\.(?:sock|pid|lock|lck|log|tmp)$|^\.s\.|^lock(?:-|$)`)

// liveRelease: the release a deployed application runs from, or the state
// every release shares, in the Capistrano-style layout (/opt/app/current,
// /opt/app/shared/*), unlike one old release under releases/.
func liveRelease(comps []string) bool {
	n := len(comps)
	if n >= 2 && broadGlob(comps[n-1]) {
		n--
	}
	return n >= 3 && (comps[n-1] == "current" || comps[n-1] == "shared") && !strings.HasPrefix(comps[n-2], ".")
}
