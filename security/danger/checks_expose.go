package danger

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Exposure: what a command would make readable to others rather than
// destroy. Secrets (keys, tokens, cloud and cluster credentials, .env files,
// shell history, password hashes, database files) sent to another host,
// made group- or world-readable, or served over HTTP together with the
// filesystem root or a home; services started or reconfigured without
// authentication. The upload tools and which of their options carry a
// file's contents are data below; what counts as a secret is the path
// classes of fsclass.go plus the few system secrets named here.

func registerExpose() {
	for name, f := range map[string]func(shell.Command, int) Verdict{
		"curl": checkCurlUpload, "wget": checkWgetUpload, "scp": checkCopyToRemote, "rsync": checkCopyToRemote,
		"gh": checkGistSecret, "aws": checkCloudUpload, "gsutil": checkCloudUpload, "rclone": checkCloudUpload,
		"gcloud": checkCloudUpload, "s3cmd": checkCloudUpload, "az": checkCloudUpload, "pastebinit": checkPasteSecret,
		"http": checkHttpieUpload, "https": checkHttpieUpload, "xh": checkHttpieUpload, "httpie": checkHttpieUpload,
		"git": checkGitAddSecret, "chmod": checkChmodSecret, "setfacl": checkSetfaclSecret, "socat": checkSocatSecret,
		"php": checkServeFS, "busybox": checkServeFS, "ruby": checkServeFS, "npx": checkServeFS, "http-server": checkServeFS,
		"serve": checkServeFS, "twistd": checkServeFS, "httpd": checkServeFS, "ngrok": checkServeFS, "cloudflared": checkServeFS,
		"redis-cli": checkRedisAuthOff, "mongod": checkAuthFlags, "mysqld": checkAuthFlags, "mariadbd": checkAuthFlags,
		"x11vnc": checkAuthFlags, "code-server": checkAuthFlags, "jupyter": checkAuthFlags, "jupyter-lab": checkAuthFlags,
		"jupyter-notebook": checkAuthFlags, "dockerd": checkAuthFlags, "elasticsearch": checkAuthFlags, "kubectl": checkKubectlExpose,
		"oc": checkKubectlExpose, "ansible": checkAnsibleService, "gitlab-runner": checkRunnerUnregister,
		"chattr": checkChattrImmutable,
	} {
		addHostCheck(name, f)
	}
	for _, n := range []string{"aws", "gsutil", "gcloud", "az"} {
		addHostCheck(n, checkBucketPublic)
	}
	for _, p := range []string{"python", "python3", "python2"} {
		addHostCheck(p, checkServeFS)
	}
}

// systemSecrets are secrets outside the credential classes: password hashes
// and the host's own SSH keys.
var (
	// libvirt's secrets (a Ceph or iSCSI key, a disk's passphrase), Proxmox's
	// private directory and API token files, govc's saved sessions.
	systemSecrets = regexp.MustCompile(`^/etc/(?:shadow|gshadow|shadow-|sudoers)$|^/etc/ssh/ssh_host_[a-z0-9]+_key$|` +
		`^/etc/libvirt/secrets/|^/etc/pve/priv/|^~/\.config/proxmox/|^~/\.govmomi/sessions/`)
	historyFile = regexp.MustCompile(`^\.[a-z]*_history$|^\.(?:bash|zsh)_sessions$|^\.psql_history$|^\.mysql_history$`)
	// sshPublic are the files of ~/.ssh that are not secret.
	sshPublic = regexp.MustCompile(`\.pub$|^(?:known_hosts(?:\.old)?|config|authorized_keys2?|environment)$`)
)

// sealed are encrypted files, made to be committed or shared.
var sealed = regexp.MustCompile(`\.(?:enc|gpg|age|asc|sops)$`)

// secretPath: p holds secrets (a key, a credential file or directory, shell
// history, a database file, password hashes).
func secretPath(p string) bool {
	p = strings.Trim(p, `"'`)
	if p == "" || strings.HasPrefix(p, "-") || strings.Contains(p, "://") {
		return false
	}
	p = strings.Replace(p, "$HOME", "~", 1)
	p = strings.Replace(p, "${HOME}", "~", 1)
	if strings.HasPrefix(p, "/home/") || strings.HasPrefix(p, "/Users/") {
		if _, rest, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(p, "/home/"), "/Users/"), "/"); ok {
			p = "~/" + rest
		}
	} else if strings.HasPrefix(p, "/root/") {
		p = "~/" + strings.TrimPrefix(p, "/root/")
	}
	clean := path.Clean(p)
	base := path.Base(clean)
	switch {
	case systemSecrets.MatchString(clean), historyFile.MatchString(base), etcPasswordFile(components(clean)):
		return true
	case sshPublic.MatchString(base) && strings.Contains(clean, ".ssh"):
		return false
	case strings.HasSuffix(base, ".pub") || strings.HasSuffix(base, ".example") || strings.HasSuffix(base, ".sample"):
		return false
	case decryptedSecrets.MatchString(base):
		return true // platform_target.go
	case sealed.MatchString(base):
		return false // encrypted to be shared (Rails credentials.yml.enc, sops, age, gpg)
	case strings.HasSuffix(base, ".pem") && strings.Contains(base, "*") && strings.HasPrefix(clean, "~"):
		return true // every .pem in a home: the keys among them (an EC2 key pair is one) as well as certificates
	case strings.HasSuffix(base, ".pem") && !strings.Contains(strings.ToLower(base), "key") && !strings.Contains(strings.ToLower(base), "priv"):
		return false // a certificate (fullchain.pem, ca.pem), public by design
	}
	if comps := strings.Split(strings.TrimPrefix(clean, "/"), "/"); len(comps) > 2 && comps[0] == "var" && comps[1] == "lib" && dbServices[comps[2]] {
		return true // a database server's storage
	}
	switch classifyPath(p) {
	case pcCredential:
		return true
	case pcDatabase:
		return true
	}
	return false
}

// secretInText: some path-like token of text (an argument as typed, with
// its command substitutions) is a secret.
func secretInText(text string) bool {
	for _, t := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\n\"'()@=<>;|&`,:", r) }) {
		if secretPath(t) {
			return true
		}
	}
	return false
}

// envDump: a substitution of the whole environment ("$(env)", "$(printenv)").
var envDump = regexp.MustCompile(`\$\((?:env|printenv|set|export -p)\)`)

func wordSource(w shell.Word) string {
	if w.Node == nil {
		return w.S
	}
	var b bytes.Buffer
	if err := syntax.NewPrinter().Print(&b, w.Node); err != nil {
		return w.S
	}
	return b.String()
}

// optValues are the values of the options of args named in opts (short
// letters bundled as -sF, long ones as --opt=v or --opt v).
func optValues(args []shell.Word, short string, long ...string) []shell.Word {
	var out []shell.Word
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "--":
			return out
		case strings.HasPrefix(a, "--"):
			name, val, eq := strings.Cut(a[2:], "=")
			if !contains(long, name) {
				continue
			}
			if eq {
				out = append(out, shell.Word{S: val, Node: args[i].Node})
			} else if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(short, a[j]) < 0 {
					continue
				}
				if j+1 < len(a) {
					out = append(out, shell.Word{S: a[j+1:], Node: args[i].Node})
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
					i++
				}
				break
			}
		}
	}
	return out
}

func anySecretWord(ws []shell.Word) bool {
	for _, w := range ws {
		if secretInText(w.S) || secretInText(wordSource(w)) || envDump.MatchString(wordSource(w)) {
			return true
		}
	}
	return false
}

// checkCurlUpload: curl -d @~/.ssh/id_rsa, -F f=@.env, -T ~/.aws/credentials,
// -d "$(cat ~/.netrc)".
func checkCurlUpload(c shell.Command, _ int) Verdict {
	vals := optValues(c.Args[1:], "dFT", "data", "data-binary", "data-raw", "data-ascii", "data-urlencode", "form", "form-string",
		"upload-file", "json", "post-file")
	return hitIf(anySecretWord(vals), "expose-secret")
}

func checkWgetUpload(c shell.Command, _ int) Verdict {
	return hitIf(anySecretWord(optValues(c.Args[1:], "", "post-file", "body-file", "post-data", "body-data")), "expose-secret")
}

// remoteSpec: an scp/rsync operand on another host (host:path, user@host:,
// rsync://, host::module).
func remoteSpec(s string) bool {
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "~") {
		return false
	}
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.Contains(s[:i], "/")
}

// copyValueOpts are rsync's long options whose value is the next word
// (--exclude .env leaves .env behind rather than sending it).
var copyValueOpts = shell.Set("--exclude", "--include", "--filter", "--exclude-from", "--include-from", "--files-from", "--rsh",
	"--rsync-path", "--password-file", "--chown", "--chmod", "--log-file", "--backup-dir", "--link-dest", "--compare-dest", "--port")

// checkCopyToRemote: scp/rsync of a key, credential directory or .env to a
// remote host.
func checkCopyToRemote(c shell.Command, _ int) Verdict {
	var args []shell.Word
	for i := 1; i < len(c.Args); i++ {
		name, _, eq := strings.Cut(c.Args[i].S, "=")
		if copyValueOpts[name] {
			if !eq {
				i++
			}
			continue
		}
		args = append(args, c.Args[i])
	}
	ops := shell.Lits(shell.ParseOpts(args, "iPeoFcSlJf").Operands)
	if len(ops) < 2 || !remoteSpec(ops[len(ops)-1]) {
		return Verdict{}
	}
	for _, o := range ops[:len(ops)-1] {
		if !remoteSpec(o) && secretPath(o) && !ownBackupCopy(o, ops[len(ops)-1]) {
			return hit("expose-secret")
		}
	}
	return Verdict{}
}

// checkGistSecret: gh gist create .env publishes the file.
func checkGistSecret(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "df").Operands)
	if len(ops) < 3 || ops[0] != "gist" || ops[1] != "create" && ops[1] != "new" {
		return Verdict{}
	}
	for _, o := range ops[2:] {
		if secretPath(o) {
			return hit("expose-secret")
		}
	}
	return Verdict{}
}

// cloudURL: a bucket or remote of an object store.
var cloudURL = regexp.MustCompile(`^(?:s3|gs|az|r2|b2|wasbs?|abfss?)://|^[A-Za-z0-9_-]+:`)

// checkCloudUpload: aws s3 cp ~/.aws/credentials s3://…, gsutil cp .env gs://…,
// rclone copy ~/.ssh remote:, az storage blob upload -f <secret>.
func checkCloudUpload(c shell.Command, _ int) Verdict {
	if c.Name == "az" {
		return hitIf(anySecretWord(optValues(c.Args[1:], "f", "file", "source")), "expose-secret")
	}
	if c.Name == "aws" && encryptedPrivateCopy(c) {
		return Verdict{}
	}
	ops := shell.Lits(shell.ParseOpts(withoutOptions(c.Args[1:], s3ValueOpts), "").Operands)
	if len(ops) < 3 {
		return Verdict{}
	}
	dst := ops[len(ops)-1]
	if !cloudURL.MatchString(dst) || strings.HasPrefix(dst, "/") {
		return Verdict{}
	}
	for _, o := range ops[:len(ops)-1] {
		if !cloudURL.MatchString(o) && secretPath(o) {
			return hit("expose-secret")
		}
	}
	return Verdict{}
}

func checkPasteSecret(c shell.Command, _ int) Verdict {
	for _, o := range shell.Lits(shell.ParseOpts(c.Args[1:], "abfiprtu").Operands) {
		if secretPath(o) {
			return hit("expose-secret")
		}
	}
	return Verdict{}
}

// checkHttpieUpload: http POST url @~/.ssh/id_rsa, field@~/.aws/credentials.
func checkHttpieUpload(c shell.Command, _ int) Verdict {
	for _, a := range shell.Lits(c.Args[1:]) {
		if i := strings.IndexByte(a, '@'); i >= 0 && !strings.Contains(a, "://") && secretPath(a[i+1:]) {
			return hit("expose-secret")
		}
	}
	return Verdict{}
}

// checkGitAddSecret: staging a key or .env (git add -f .env) puts it in
// every clone once pushed.
func checkGitAddSecret(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	if len(ops) < 2 || ops[0] != "add" || o.Long["dry-run"] || strings.Contains(o.Short, "n") {
		return Verdict{}
	}
	force := strings.Contains(o.Short, "f") || o.Long["force"]
	for _, p := range ops[1:] {
		if secretPath(strings.TrimRight(p, "*")) {
			return hit("expose-secret")
		}
		// git add -f certs/: the ignore rule that kept a directory named
		// for keys out of the repository overridden.
		if force && keyDirNames[strings.ToLower(path.Base(strings.TrimRight(strings.TrimRight(p, "*"), "/")))] {
			return hit("expose-secret")
		}
	}
	return Verdict{}
}

// keyDirNames: directories named for what they hold, keys and certificates
// with their private halves (fastlane/certs, android/keystores, secrets/).
var keyDirNames = shell.Set("certs", "certificates", "keys", "private", "secrets", "credentials", "keystores", "signing", "ssl", "tls", ".ssh", ".gnupg")

var (
	numericMode   = regexp.MustCompile(`^[0-7]{1,4}$`)
	privateMode   = regexp.MustCompile(`^0?[4567]00$`)
	tighterClause = regexp.MustCompile(`^(?:[go]+-[rwxXst]+|u[-+=][rwxX]*)$`)
	userHome      = regexp.MustCompile(`^/(?:home|Users)/[^/]+/?$`)
)

// grantsOthersRead: a chmod mode that lets group or others read or write.
func grantsOthersRead(mode string, group bool) bool {
	if m := strings.TrimLeft(mode, "0"); numericMode.MatchString(mode) {
		if len(m) < 2 {
			return false
		}
		g, o := m[len(m)-2], m[len(m)-1]
		return group && (g-'0')&6 != 0 || (o-'0')&6 != 0
	}
	for _, cl := range strings.Split(mode, ",") {
		i := strings.IndexAny(cl, "+=")
		if i < 0 {
			continue
		}
		who := cl[:i]
		if (who == "" || strings.ContainsAny(who, "oa") || group && strings.Contains(who, "g")) && strings.ContainsAny(cl[i+1:], "rw") {
			return true
		}
	}
	return false
}

// checkChmodSecret: chmod 644 ~/.ssh/id_rsa, chmod -R o+r ~/.ssh, chmod o+r
// /etc/shadow.
func checkChmodSecret(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	// a symbolic mode such as -w or o-r parses as options; only grants matter
	if len(ops) < 2 || !grantsOthersRead(ops[0], true) {
		return Verdict{}
	}
	rec := strings.ContainsAny(o.Short, "R") || o.Long["recursive"]
	for _, p := range ops[1:] {
		if !secretPath(p) && !serviceSecretConfig(p) {
			continue
		}
		if credDirs[path.Base(path.Clean(p))] && !rec {
			continue // the directory listing, not the keys in it
		}
		if systemSecrets.MatchString(path.Clean(p)) {
			// the shadow group may read the hashes; others may not
			return hitIf(grantsOthersRead(ops[0], false), "chmod-chown-system")
		}
		if serviceSecret(p) && !grantsOthersRead(ops[0], false) {
			continue // a service's key shared with its group (ssl-cert, postgres)
		}
		return hit("secret-world-readable")
	}
	return Verdict{}
}

func checkSetfaclSecret(c shell.Command, _ int) Verdict {
	specs := optValues(c.Args[1:], "m", "modify")
	grant := false
	for _, s := range specs {
		if strings.Contains(s.S, "r") && (strings.HasPrefix(s.S, "o") || strings.HasPrefix(s.S, "u:") || strings.HasPrefix(s.S, "g:") || strings.HasPrefix(s.S, "other")) {
			grant = true
		}
	}
	if !grant {
		return Verdict{}
	}
	for _, w := range c.Args[1:] {
		if secretPath(w.S) {
			return hit("secret-world-readable")
		}
	}
	return Verdict{}
}

// checkSocatSecret: socat TCP-LISTEN:80,fork FILE:/etc/shadow serves a secret.
func checkSocatSecret(c shell.Command, _ int) Verdict {
	for _, a := range shell.Lits(c.Args[1:]) {
		for _, pre := range []string{"FILE:", "OPEN:", "GOPEN:", "file:", "open:"} {
			if strings.HasPrefix(a, pre) && secretPath(strings.SplitN(a[len(pre):], ",", 2)[0]) {
				return hit("expose-secret")
			}
		}
	}
	return Verdict{}
}

// exposedRoot: serving dir over HTTP shows everything a secret could be in:
// the root, a home, /etc, or a credential directory.
func exposedRoot(dir string) bool {
	dir = strings.Trim(dir, `"'`)
	dir = strings.Replace(dir, "$HOME", "~", 1)
	switch path.Clean(dir) {
	case "/", "~", "/home", "/root", "/etc", "/Users", "/var":
		return true
	}
	if userHome.MatchString(dir) {
		return true
	}
	return secretPath(dir)
}

// checkServeFS: an HTTP file server whose document root is / or a home.
func checkServeFS(c shell.Command, _ int) Verdict {
	return hitIf(servesExposedDir(c, ""), "serve-filesystem")
}

// servesExposedDir reports whether c is a static file server of an exposed
// directory; cwd is the directory it runs in when known ("" otherwise).
func servesExposedDir(c shell.Command, cwd string) bool {
	args := shell.Lits(c.Args[1:])
	dir, server := cwd, false
	switch {
	case shell.PythonProgram.MatchString(c.Name):
		for i, a := range args {
			if a == "-m" && i+1 < len(args) && (args[i+1] == "http.server" || args[i+1] == "SimpleHTTPServer" || args[i+1] == "uploadserver") {
				server = true
			}
		}
		if v := optValues(c.Args[1:], "d", "directory"); len(v) > 0 {
			dir = v[0].S
		}
		if b := optValues(c.Args[1:], "b", "bind"); len(b) > 0 && loopbackHost(b[0].S) {
			return false
		}
	case c.Name == "php":
		server = contains(args, "-S") || len(args) > 0 && strings.HasPrefix(args[0], "-S")
		if v := optValues(c.Args[1:], "t", "docroot"); len(v) > 0 {
			dir = v[0].S
		}
	case c.Name == "busybox" || c.Name == "httpd" && contains(c.Programs, "busybox"):
		server = c.Name == "httpd" || len(args) > 0 && args[0] == "httpd"
		if v := optValues(c.Args[1:], "h", ""); len(v) > 0 {
			dir = v[0].S
		}
	case c.Name == "ruby":
		server = strings.Contains(strings.Join(args, " "), "-run -e httpd") || strings.Contains(strings.Join(args, " "), "-run -ehttpd")
		for i, a := range args {
			if a == "httpd" && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				dir = args[i+1]
			}
		}
	case c.Name == "twistd":
		server = contains(args, "web")
		if v := optValues(c.Args[1:], "", "path"); len(v) > 0 {
			dir = v[0].S
		}
	case c.Name == "ngrok" || c.Name == "cloudflared":
		// ngrok http file:///home/dev: a tunnel that serves a directory to the internet
		for _, a := range args {
			if d, ok := strings.CutPrefix(a, "file://"); ok {
				server, dir = true, d
			}
		}
	case c.Name == "npx" || c.Name == "http-server" || c.Name == "serve":
		ops := shell.Lits(shell.ParseOpts(c.Args[1:], "pal").Operands)
		if c.Name == "npx" {
			if len(ops) == 0 || ops[0] != "http-server" && ops[0] != "serve" {
				return false
			}
			ops = ops[1:]
		}
		server = true
		if len(ops) > 0 {
			dir = ops[0]
		}
	}
	return server && dir != "" && (exposedRoot(dir) || iacEnvironmentDir(dir))
}

// checkRedisAuthOff: CONFIG SET requirepass "" or protected-mode no.
func checkRedisAuthOff(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	for i := 0; i+2 < len(args); i++ {
		if strings.EqualFold(args[i], "config") && strings.EqualFold(args[i+1], "set") {
			k := strings.ToLower(args[i+2])
			v := ""
			if i+3 < len(args) {
				v = strings.ToLower(args[i+3])
			}
			if k == "requirepass" && v == "" || k == "protected-mode" && v == "no" {
				return hit("auth-disabled")
			}
			// the dump written where a file is read as keys, jobs or pages (the
			// classic route: dir /root/.ssh, dbfilename authorized_keys)
			switch {
			case k == "dir" && strings.Contains(v, ".ssh"), k == "dbfilename" && v == "authorized_keys":
				return hit("write-authorized-keys")
			case k == "dir" && redisDumpTarget(args[i+3:]), k == "dbfilename" && (v == "crontab" || strings.HasSuffix(v, ".php")):
				return hit("write-system-file")
			}
		}
	}
	return Verdict{}
}

// checkAuthFlags: a server started with authentication switched off.
func checkAuthFlags(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	joined := " " + strings.Join(args, " ") + " "
	switch c.Name {
	case "mongod":
		return hitIf(contains(args, "--noauth"), "auth-disabled")
	case "mysqld", "mariadbd":
		return hitIf(contains(args, "--skip-grant-tables"), "auth-disabled")
	case "x11vnc":
		return hitIf(contains(args, "-nopw"), "auth-disabled")
	case "code-server":
		return hitIf(strings.Contains(joined, "--auth none") || strings.Contains(joined, "--auth=none"), "auth-disabled")
	case "elasticsearch":
		return hitIf(strings.Contains(joined, "xpack.security.enabled=false"), "auth-disabled")
	case "dockerd":
		for _, h := range optValues(c.Args[1:], "H", "host") {
			if strings.HasPrefix(h.S, "tcp://") && !loopbackHost(strings.Split(strings.TrimPrefix(h.S, "tcp://"), ":")[0]) &&
				!strings.Contains(joined, "--tlsverify") {
				return hit("auth-disabled")
			}
		}
	default: // jupyter
		ip := optValues(c.Args[1:], "", "ip", "ServerApp.ip", "NotebookApp.ip")
		public := len(ip) > 0 && !loopbackHost(ip[0].S)
		for _, a := range args {
			if public && (strings.HasSuffix(a, ".token=") || strings.HasSuffix(a, ".password=")) {
				return hit("auth-disabled")
			}
		}
	}
	return Verdict{}
}

// checkKubectlExpose: kubectl proxy on every interface, cluster-admin for
// anonymous users, drain deleting emptyDir data, a PV switched to Delete.
func checkKubectlExpose(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "pn")
	ops := shell.Lits(o.Operands)
	if len(ops) == 0 {
		return Verdict{}
	}
	joined := strings.Join(shell.Lits(c.Args[1:]), " ")
	switch ops[0] {
	case "proxy", "port-forward":
		// the API server, or a cluster-internal service, on every interface
		for _, a := range optValues(c.Args[1:], "", "address") {
			for _, h := range strings.Split(a.S, ",") {
				if !loopbackHost(h) {
					return hit("auth-disabled")
				}
			}
		}
	case "create":
		return hitIf(len(ops) > 1 && (ops[1] == "clusterrolebinding" || ops[1] == "rolebinding") &&
			(strings.Contains(joined, "system:anonymous") || strings.Contains(joined, "system:unauthenticated")), "auth-disabled")
	case "drain":
		return hitIf(o.Long["delete-emptydir-data"] || o.Long["delete-local-data"], "kubectl-delete-data")
	case "patch":
		return hitIf(len(ops) > 1 && pvKind.MatchString(ops[1]) && reclaimDelete.MatchString(joined), "kubectl-delete-data")
	}
	return Verdict{}
}

var (
	pvKind        = regexp.MustCompile(`^(?:pv|persistentvolumes?)(?:/|$)`)
	reclaimDelete = regexp.MustCompile(`persistentVolumeReclaimPolicy\W+Delete`)
)

// checkAnsibleService: ansible … -m service -a 'name=sshd state=stopped'
// stops a system service on every host of the pattern.
func checkAnsibleService(c shell.Command, _ int) Verdict {
	mod := optValues(c.Args[1:], "m", "module-name")
	args := optValues(c.Args[1:], "a", "args")
	if len(mod) == 0 || len(args) == 0 {
		return Verdict{}
	}
	switch strings.TrimPrefix(strings.TrimPrefix(mod[0].S, "ansible.builtin."), "ansible.legacy.") {
	case "service", "systemd", "systemd_service", "sysvinit":
	default:
		return Verdict{}
	}
	kv := map[string]string{}
	for _, f := range strings.Fields(args[0].S) {
		k, v, _ := strings.Cut(f, "=")
		kv[k] = v
	}
	if kv["state"] != "stopped" && kv["enabled"] != "no" && kv["enabled"] != "false" {
		return Verdict{}
	}
	if essentialServices[kv["name"]] || essentialPackages[kv["name"]] {
		return hit("stop-system-service")
	}
	if kv["state"] == "stopped" { // any other daemon, judged as systemctl stop on the host
		return via(classifyShell("systemctl stop "+shellQuote(kv["name"]), shell.MaxDepth), "ansible")
	}
	return Verdict{}
}

var essentialServices = shell.Set("ssh", "sshd", "systemd-networkd", "NetworkManager", "networking", "systemd-resolved", "dbus", "firewalld", "ufw", "docker", "containerd", "kubelet", "cron", "crond", "rsyslog", "auditd")

// checkRunnerUnregister: every CI runner of this host removed at once.
func checkRunnerUnregister(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "")
	ops := shell.Lits(o.Operands)
	return hitIf(len(ops) > 0 && ops[0] == "unregister" && o.Long["all-runners"], "stop-service")
}

// accountFiles: the account and sudo databases (and /etc, which holds them).
var accountFiles = regexp.MustCompile(`^/etc(?:/(?:passwd|shadow|group|gshadow|sudoers|sudoers\.d|login\.defs|pam\.d)(?:/.*)?)?$`)

// checkChattrImmutable: chattr +i on the account databases stops passwd,
// useradd and package updates from writing them.
func checkChattrImmutable(c shell.Command, _ int) Verdict {
	adds := false
	for _, a := range shell.Lits(c.Args[1:]) {
		if strings.HasPrefix(a, "+") && strings.ContainsAny(a, "ia") {
			adds = true
		}
	}
	if !adds {
		return Verdict{}
	}
	for _, a := range shell.Lits(c.Args[1:]) {
		if accountFiles.MatchString(path.Clean(a)) {
			return hit("account-change")
		}
	}
	return Verdict{}
}

// dataExport: a file or folder named as data taken out of a system (a dump,
// an export, a backup, people's records) rather than a site's assets.
var dataExport = regexp.MustCompile(`(?i)export|dump|backup|customer|users|accounts|orders|payments|invoices|patients|employees|pii|` +
	`\.(?:sql|db|sqlite3?|bak|csv|tsv|xlsx?|parquet|jsonl)(?:\.gz|\.zst|\.bz2)?$`)

// publicGrant: an ACL or IAM member that means everyone.
var publicGrant = regexp.MustCompile(`(?i)^public-read(?:-write)?$|^allUsers\b|^allAuthenticatedUsers\b|^AllUsers:|^(?:member=)?allUsers|^(?:container|blob)$`)

// checkBucketPublic: a bucket (not one object being published) opened to
// everyone: aws s3api put-bucket-acl --acl public-read, delete-public-access-block,
// gsutil iam ch allUsers:objectViewer gs://b, gcloud storage buckets
// add-iam-policy-binding --member=allUsers, az storage container set-permission
// --public-access container.
func checkBucketPublic(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	args := shell.Lits(c.Args[1:])
	anyPublic := func(ws []shell.Word) bool {
		for _, w := range ws {
			if publicGrant.MatchString(w.S) {
				return true
			}
		}
		return false
	}
	switch c.Name {
	case "aws":
		if len(ops) > 2 && ops[0] == "s3" && (ops[1] == "cp" || ops[1] == "sync" || ops[1] == "mv") {
			// an export of data uploaded readable by everyone (a site's files are meant to be)
			// from stdin (pg_dump … | aws s3 cp - s3://b/prod.dump): the object's name says what it holds
			export := dataExport.MatchString(ops[2]) || ops[2] == "-" && len(ops) > 3 && dataExport.MatchString(ops[3])
			return hitIf(anyPublic(optValues(c.Args[1:], "", "acl")) && export, "storage-made-public")
		}
		if len(ops) > 1 && (ops[1] == "put-resource-policy" || ops[1] == "set-repository-policy") {
			// a secret's, a registry's or a key's resource policy that lets anyone in
			pol := optValues(c.Args[1:], "", "resource-policy", "policy-text", "policy")
			return hitIf(slices.ContainsFunc(pol, func(w shell.Word) bool { return publicPolicy(w.S) }), "storage-made-public")
		}
		if len(ops) < 2 || ops[0] != "s3api" {
			return Verdict{}
		}
		if ops[1] == "put-object" && anyPublic(optValues(c.Args[1:], "", "acl")) {
			body := optValues(c.Args[1:], "", "body", "key")
			return hitIf(slices.ContainsFunc(body, func(w shell.Word) bool { return dataExport.MatchString(w.S) }), "storage-made-public")
		}
		switch ops[1] {
		case "put-bucket-acl":
			return hitIf(anyPublic(optValues(c.Args[1:], "", "acl")) || strings.Contains(strings.Join(args, " "), "AllUsers"), "storage-made-public")
		case "delete-public-access-block", "delete-account-public-access-block":
			return hit("storage-made-public")
		case "put-bucket-policy":
			return hitIf(slices.ContainsFunc(optValues(c.Args[1:], "", "policy"), func(w shell.Word) bool { return publicPolicy(w.S) }), "storage-made-public")
		}
	case "gsutil":
		// gsutil cp -a public-read (a canned ACL) of a data export
		if len(ops) > 2 && (ops[0] == "cp" || ops[0] == "mv" || ops[0] == "rsync") && anyPublic(optValues(c.Args[1:], "a", "")) {
			return hitIf(slices.ContainsFunc(ops[1:len(ops)-1], dataExport.MatchString), "storage-made-public")
		}
		if len(ops) > 1 && (ops[0] == "iam" || ops[0] == "acl") && ops[1] == "ch" {
			for _, a := range args {
				if publicGrant.MatchString(a) {
					return hit("storage-made-public")
				}
			}
		}
	case "gcloud":
		if len(ops) > 2 && ops[0] == "storage" && ops[1] == "buckets" && ops[2] == "add-iam-policy-binding" {
			return hitIf(anyPublic(optValues(c.Args[1:], "", "member")), "storage-made-public")
		}
	case "az":
		if len(ops) > 2 && ops[0] == "storage" && ops[1] == "container" && (ops[2] == "set-permission" || ops[2] == "create") {
			return hitIf(anyPublic(optValues(c.Args[1:], "", "public-access")), "storage-made-public")
		}
		if len(ops) > 2 && ops[0] == "storage" && ops[1] == "account" && ops[2] == "update" {
			v := optValues(c.Args[1:], "", "allow-blob-public-access")
			return hitIf(len(v) > 0 && strings.EqualFold(v[0].S, "true"), "storage-made-public")
		}
	}
	return Verdict{}
}

// tightensSecrets: chmod -R go-rwx ~/.ssh only takes access away from others
// on credentials, which is what one should do with them.
func tightensSecrets(mode string, paths []shell.Word) bool {
	if !privateMode.MatchString(mode) {
		for _, cl := range strings.Split(mode, ",") {
			if !tighterClause.MatchString(cl) {
				return false
			}
		}
	}
	for _, p := range paths {
		if !secretPath(p.S) {
			return false
		}
	}
	return len(paths) > 0
}

// redisDumpTarget: a directory whose files another program runs or serves:
// the cron directories, a web root.
func redisDumpTarget(v []string) bool {
	if len(v) == 0 {
		return false
	}
	d := path.Clean(v[0])
	return strings.HasPrefix(d, "/etc/cron") || strings.HasPrefix(d, "/var/spool/cron") || webRoot.MatchString(d)
}
