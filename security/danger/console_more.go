package danger

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// The JavaScript and Ruby consoles' other routes to the same effects,
// followed by structure rather than by name lists of their own: names bound
// to child_process functions (destructured renames, wrapper arrows),
// literals decoded from Base64, cloud SDK calls that delete a bucket, its
// objects or instances, credential files sent over HTTP, downloaded code
// evaluated, appends to start-up files (judged as the shell's >>), files
// opened for writing, and ActiveRecord filters that keep every row.

var (
	// const { exec: run } = require('child_process'): run is exec.
	jsRename = regexp.MustCompile(`\{([^{}]*)\}\s*=\s*(?:await\s+)?(?:require|import)\s*\(\s*` + pyL + `\s*\)`)
	// const sh = (c) => require('child_process').execSync(c…); function sh(c) { execSync(c) }.
	jsWrapper = regexp.MustCompile(`(?:(?:const|let|var)\s+(\w+)\s*=\s*(?:async\s*)?(?:\(\s*(\w+)[^)]*\)|(\w+))\s*=>|\bfunction\s+(\w+)\s*\(\s*(\w+)[^)]*\)\s*\{)` +
		`[^\n]*?\b(?:exec|execSync|spawn|spawnSync|execFile|execFileSync|system)\s*\(\s*(\w+)\b`)
	jsBase64 = regexp.MustCompile(`\bBuffer\s*\.\s*from\s*\(\s*(` + pyL + `)\s*,\s*(` + pyL + `)\s*\)\s*(?:\.\s*toString\s*\(\s*(?:` + pyL + `)?\s*\))?|\batob\s*\(\s*(` + pyL + `)\s*\)`)
	rbBase64 = regexp.MustCompile(`\bBase64\s*\.\s*(?:strict_|urlsafe_)?decode64\s*\(\s*(` + pyL + `)\s*\)`)

	// Cloud SDKs: AWS SDK v3 commands and v2/Ruby methods, Azure and GCS
	// clients, that delete a bucket or container, many objects, instances,
	// or make a bucket public.
	cloudDelete = regexp.MustCompile(`\bnew\s+(?:[\w$]+\s*\.\s*)?(?:Delete(?:Bucket|Objects|DBInstance|DBCluster|Table|Stack|Cluster|FileSystem|Repository|Volume)|TerminateInstances)Command\b|` +
		`\.\s*(?:deleteBucket|deleteObjects|terminateInstances|deleteContainer|deleteShare|deleteFiles|delete_bucket|delete_objects|terminate_instances|` +
		// Firestore's recursiveDelete, Firebase Auth's deleteUsers, a whole collection,
		// a repository (Octokit), a cluster namespace, S3's batch_delete! over a listing
		`recursiveDelete|deleteUsers|dropCollection|drop_collection|delete_repository|deleteRepo|deleteNamespace|delete_namespace|` +
		`deleteNamespacedPersistentVolumeClaim|deleteCollectionNamespaced\w+|batch_delete!)\s*(?:\(|$|[;\s])|` +
		`\brepos\s*\.\s*delete\s*\(|` +
		// aws-sdk-ruby's resource destroyers: Bucket#delete! (every object, then the bucket), Bucket#clear!,
		// a collection's batch_terminate! (not String#delete!, which is given the characters to remove)
		`\.\s*delete!\s*(?:\(\s*(?:\w+\s*:[^()]*)?\))?\s*(?:$|[;}\n])|\.\s*(?:clear!|batch_terminate!)|` + `\.\s*(?:each|map|auto_paging_each)\s*\(\s*&:\s*(?:terminate|delete|destroy)\s*\)|` +
		`\bbucket\s*\(\s*` + pyL + `\s*\)\s*\.\s*delete\s*\(`)
	// wholeEnv: the environment object itself passed on (JSON.stringify(process.env), ENV.to_h).
	// or Rails' decrypted credentials and secrets.
	wholeEnv    = regexp.MustCompile(`\bprocess\s*\.\s*env\s*[),]|\bENV\s*\.\s*to_h(?:ash)?\b|\bRails\s*\.\s*application\s*\.\s*(?:credentials|secrets)\b`)
	cloudPublic = regexp.MustCompile(`\.\s*makePublic\s*\(|\bPutBucketAcl(?:Command)?\b[^\n]*public-read|\bacl\s*:\s*['"]?public-read`)

	// Reading a credential file, and sending something over HTTP.
	secretRead = regexp.MustCompile(`\b(?:readFileSync|readFile|File\s*\.\s*read|IO\s*\.\s*read|File\s*\.\s*binread)\s*\(\s*(` + pyL + `)`)
	httpSend   = regexp.MustCompile(`\bfetch\s*\(|\baxios\s*\.\s*(?:post|put)\b|\bhttps?\s*\.\s*request\b|\bNet\s*::\s*HTTP\s*\.\s*(?:post|post_form|start)\b|\bHTTParty\s*\.\s*(?:post|put)\b|\bRestClient\s*\.\s*(?:post|put)\b|\bgot\s*\.\s*post\b`)
	// Code fetched over the network and evaluated.
	evalCall = regexp.MustCompile(`\b(?:eval|instance_eval|new\s+Function|vm\s*\.\s*runIn\w+)\s*\(`)
	httpGet  = regexp.MustCompile(`\brequire\s*\(\s*` + pyL + `\s*\)\s*\.\s*(?:get|request)\b|\bhttps?\s*\.\s*get\b|\bfetch\s*\(|\baxios\s*\.\s*get\b|\bNet\s*::\s*HTTP\s*\.\s*get\b|\bURI\s*\.\s*open\b|\bopen-uri\b|\bHTTParty\s*\.\s*get\b`)

	// fs.appendFileSync(path, text) / File.open(path, 'a') { |f| f.puts text } / File.write(path, text, mode: 'a').
	jsAppend = regexp.MustCompile(`\bappendFile(?:Sync)?\s*\(\s*(` + pyL + `)\s*,\s*(` + pyL + `)`)
	rbOpen   = regexp.MustCompile(`\bFile\s*\.\s*open\s*\(\s*(` + pyL + `)\s*,\s*(` + pyL + `)\s*\)(?:\s*(?:\{|do)\s*\|\s*\w+\s*\|\s*\w+\s*\.\s*(?:puts|write|print|<<)\s*\(?\s*(` + pyL + `))?`)

	// ActiveRecord: where() that keeps every row, and every model's rows.
	arWhere     = regexp.MustCompile(`\b[A-Z]\w*\s*\.\s*where\s*\(\s*(nil|\{\s*\}|` + pyL + `)\s*[,)][^\n]*?\.\s*(delete_all|destroy_all|update_all)\b`)
	arEveryRows = regexp.MustCompile(`\b(?:descendants|models)\s*\.\s*each\s*\(\s*&:\s*(?:delete_all|destroy_all)\s*\)|\.\s*(?:find_each|all\s*\.\s*each|each)\s*\(\s*&:\s*(?:purge|destroy|delete)\s*\)|` +
		`\bDatabaseTasks\s*\.\s*(?:drop_current|drop_all|purge_current|purge_all|drop)\b`)
	// eval of a literal (after decoding): the code it holds.
	evalLit = regexp.MustCompile(`\b(?:eval|instance_eval|new\s+Function|vm\s*\.\s*runIn\w+)\s*\(\s*(` + pyL + `)\s*\)`)
	// chmod with a mode: Node's (path, mode), Ruby's (mode, path).
	jsChmodMode = regexp.MustCompile(`\bchmod(?:Sync)?\s*\(\s*(` + pyL + `)\s*,\s*(0o?[0-7]{3,4})\b`)
	rbChmodMode = regexp.MustCompile(`\b(?:File|FileUtils)\s*\.\s*chmod\s*[( ]\s*(0o?[0-7]{3,4})\s*,\s*(` + pyL + `)`)
	// Knex's migrate.rollback(config, true) undoes every migration.
	knexRollbackAll = regexp.MustCompile(`\bmigrate\s*\.\s*rollback\s*\([^)]*\btrue\b`)
	// A socket read whose lines are run: a reverse shell.
	rbSocketOpen = regexp.MustCompile(`\bTCPSocket\s*\.\s*(?:new|open)\b`)
	// where(…).or(Model.all): the union with every row is every row.
	arOrAll = regexp.MustCompile(`\.\s*or\s*\(\s*[A-Z]\w*\s*\.\s*all\s*\)[^\n;]*?\.\s*(?:delete_all|destroy_all|update_all)\b`)
	// A socket made the standard streams of a shell: IO.for_fd(fd).reopen(s),
	// $stdin.reopen(s), exec('/bin/sh', in: s, out: s), spawn(sh, [:in, :out] => s).
	rbSocketStdio = regexp.MustCompile(`(?s)\b(?:TCPSocket|Socket\s*\.\s*tcp)\b.*(?:\.\s*reopen\s*\(\s*\w+\s*\).*\b(?:exec|system|spawn|IO\s*\.\s*popen)\b|` +
		`\b(?:exec|system|spawn)\b[^\n]*(?:\b(?:in|out|err)\s*:\s*\w+|\[\s*:in\b[^\]]*\]\s*=>))`)
	rbSocketRun = regexp.MustCompile(`(?s)\bTCPSocket\s*\.\s*(?:new|open)\b.*\b(?:IO\s*\.\s*popen|system|exec|spawn|Open3\s*\.\s*\w+)\s*\(\s*[\w.]+\s*[,)]`)
)

// consoleRewrite applies the bindings and decoders above to code.
func consoleRewrite(code string, strs []string, ruby bool) (string, []string) {
	lit := func(s string) string {
		strs = append(strs, s)
		return "\x01" + itoa(len(strs)-1) + "\x02"
	}
	code = jsBase64.ReplaceAllStringFunc(code, func(m string) string {
		sm := jsBase64.FindStringSubmatch(m)
		enc, val := "base64", ""
		if sm[3] != "" {
			val = litValue(sm[3], strs)
		} else {
			enc, val = litValue(sm[2], strs), litValue(sm[1], strs)
		}
		if enc != "base64" && enc != "base64url" {
			return m
		}
		if b, ok := decodeB64(val); ok {
			return lit(b)
		}
		return m
	})
	code = rbBase64.ReplaceAllStringFunc(code, func(m string) string {
		if b, ok := decodeB64(litValue(rbBase64.FindStringSubmatch(m)[1], strs)); ok {
			return lit(b)
		}
		return m
	})
	code = consoleDispatch(consoleBindings(code), strs, ruby)
	if !ruby {
		for _, m := range jsRename.FindAllStringSubmatch(code, -1) {
			for _, pair := range strings.Split(m[1], ",") {
				if from, to, ok := strings.Cut(pair, ":"); ok {
					from, to = strings.TrimSpace(from), strings.TrimSpace(to)
					if plainIdent.MatchString(from) && plainIdent.MatchString(to) {
						code = regexp.MustCompile(`(^|[^\w.])`+regexp.QuoteMeta(to)+`\s*\(`).ReplaceAllString(code, "${1}"+from+"(")
					}
				}
			}
		}
		for _, m := range jsWrapper.FindAllStringSubmatchIndex(code, -1) {
			name, param := sub(code, m, 1)+sub(code, m, 4), sub(code, m, 2)+sub(code, m, 3)+sub(code, m, 5)
			if param == "" || sub(code, m, 6) != param {
				continue
			}
			after := regexp.MustCompile(`(^|[^\w.])`+regexp.QuoteMeta(name)+`\s*\(`).ReplaceAllString(code[m[1]:], "${1}execSync(")
			code = code[:m[1]] + after
		}
	}
	return code, strs
}

func sub(s string, m []int, n int) string {
	if m[2*n] < 0 {
		return ""
	}
	return s[m[2*n]:m[2*n+1]]
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

func decodeB64(s string) (string, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(strings.TrimSpace(s)); err == nil {
			return string(b), true
		}
	}
	return "", false
}

// consoleMore judges code (rewritten by consoleRewrite) for the effects above.
func consoleMore(code string, strs []string, ruby bool, depth int) Verdict {
	if v := shelljsCalls(code, strs, depth); v.Dangerous {
		return v
	}
	for _, m := range evalLit.FindAllStringSubmatch(code, -1) {
		v := classifyNode(litValue(m[1], strs), depth+1)
		if ruby {
			v = classifyRuby(litValue(m[1], strs), depth+1)
		}
		if v.Dangerous {
			return via(v, "eval")
		}
	}
	for _, m := range jsChmodMode.FindAllStringSubmatch(code, -1) {
		if v := effectVerdict(changeMode, litValue(m[1], strs), chmodDigits(m[2]), depth, "chmod"); v.Dangerous {
			return v
		}
	}
	for _, m := range rbChmodMode.FindAllStringSubmatch(code, -1) {
		if v := effectVerdict(changeMode, litValue(m[2], strs), chmodDigits(m[1]), depth, "chmod"); v.Dangerous {
			return v
		}
	}
	if knexRollbackAll.MatchString(code) {
		return hit("sql-drop")
	}
	if m := cloudDelete.FindString(code); m != "" && !scratchLiterals(code, strs) {
		return hit("cloud-teardown")
	}
	if codeWipesQueue(code, strs) {
		return hit("queue-purge")
	}
	if cloudPublic.MatchString(code) {
		return hit("storage-made-public")
	}
	if httpSend.MatchString(code) {
		if wholeEnv.MatchString(code) {
			return hit("py-send-secrets") // the whole environment, with every token in it
		}
		for _, m := range secretRead.FindAllStringSubmatch(code, -1) {
			if p := litValue(m[1], strs); isSecretFile(p) || strings.HasSuffix(p, "master.key") {
				return hit("py-send-secrets")
			}
		}
	}
	if evalCall.MatchString(code) && httpGet.MatchString(code) || runsDownload(code) {
		return hit("pipe-to-shell")
	}
	for _, m := range jsAppend.FindAllStringSubmatch(code, -1) {
		if v := appendVerdict(litValue(m[1], strs), litValue(m[2], strs), depth); v.Dangerous {
			return v
		}
	}
	for _, m := range rbOpen.FindAllStringSubmatch(code, -1) {
		p, mode := litValue(m[1], strs), litValue(m[2], strs)
		switch {
		case strings.HasPrefix(mode, "a"):
			text := ""
			if m[3] != "" {
				text = litValue(m[3], strs)
			}
			if v := appendVerdict(p, text, depth); v.Dangerous {
				return v
			}
		case strings.ContainsAny(mode, "w"):
			if v := effectVerdict(writeFile, p, "", depth, "Ruby"); v.Dangerous {
				return v
			}
		}
	}
	if ruby {
		for _, m := range arWhere.FindAllStringSubmatch(code, -1) {
			cond := m[1]
			if strings.HasPrefix(cond, "\x01") {
				cond = strings.ReplaceAll(litValue(cond, strs), "?", "1")
			} else {
				cond = "TRUE"
			}
			if sqlStatementRule(sqlTokens(sanitizeSQL("DELETE FROM t WHERE "+cond, false))) != "" {
				return hit("orm-delete-all")
			}
		}
		if arEveryRows.MatchString(code) {
			return hit("orm-delete-all")
		}
		if rbSocketRun.MatchString(code) || rbSocketStdio.MatchString(code) {
			return hit("repl-reverse-shell")
		}
		if arOrAll.MatchString(code) {
			return hit("orm-delete-all")
		}
	}
	return Verdict{}
}

// appendVerdict judges text appended to p as the shell's printf … >> p: a
// start-up file that will run a download, authorized_keys, sudoers.
func appendVerdict(p, text string, depth int) Verdict {
	cmd := "printf '%s\\n' " + shellQuote(text) + " >> " + shellQuote(p)
	if text == "" {
		cmd = "cat >> " + shellQuote(p)
	}
	if v := checkWriteTarget(p); v.Dangerous {
		return v
	}
	return via(classify(Shell, cmd, depth+1), "an append")
}

// scratchLiterals: every string literal of the code names something
// temporary (tmp-…, scratch, test fixtures), as the cloud names do.
func scratchLiterals(code string, strs []string) bool {
	found := false
	for _, m := range pyLit.FindAllStringSubmatch(code, -1) {
		s := pyLiteral(m[1], strs)
		if !temporaryName(s) {
			return false
		}
		found = true
	}
	return found
}

// literalsDecoded: every Base64 decode in input is of a literal that
// consoleRewrite decodes, so the rules judge what it decodes to instead.
func literalsDecoded(input string, ruby bool) bool {
	comment, interp := "//", "${"
	if ruby {
		comment, interp = "#", "#{"
	}
	code, strs := scanLiterals(input, comment, interp)
	code, _ = consoleRewrite(code, strs, ruby)
	return !strings.Contains(code, "Buffer") && !strings.Contains(code, "atob") && !strings.Contains(code, "decode64") &&
		!regexp.MustCompile(`inflate|gunzip|Decompress|unpack`).MatchString(code)
}

// allLiterals: every argument is a string literal.
func allLiterals(args []string) bool {
	for _, a := range args {
		if !regexp.MustCompile(`^\s*` + pyL + `\s*$`).MatchString(a) {
			return false
		}
	}
	return true
}

// chmodDigits: 0o644 and 0644 as chmod's 644.
func chmodDigits(m string) string {
	m = strings.TrimPrefix(m, "0o")
	if len(m) == 4 && m[0] == '0' {
		m = m[1:]
	}
	return m
}

var (
	// The home directory interpolated into a template or Ruby string.
	homeInterp = regexp.MustCompile(`\$\{\s*(?:(?:require\s*\(\s*['"](?:node:)?os['"]\s*\)|os)\s*\.\s*homedir\s*\(\s*\)|process\s*\.\s*env\s*\.\s*HOME)\s*\}|` +
		`#\{\s*(?:Dir\s*\.\s*home|ENV\s*\[\s*['"]HOME['"]\s*\])\s*\}`)
	// name = literal (const/let/var in JavaScript), bound once.
	// (or, in Ruby, to a symbol: m = :rm_rf; FileUtils.send(m, …)).
	consoleAssign = regexp.MustCompile(`(?m)(?:^|[;{])\s*(?:(?:const|let|var)\s+)?([A-Za-z_]\w*)\s*=\s*(` + pyL + `|:[A-Za-z_]\w*[!?]?)\s*(?:;|$)`)
	// shelljs: shell.rm('-rf', dir), shell.exec(cmd).
	shelljs    = regexp.MustCompile(`\bshell\s*\.\s*(rm|exec)\s*\(`)
	pyEndsWith = regexp.MustCompile(`\.\s*endswith\s*\(\s*(` + pyL + `)\s*\)`)
)

// homeInterpolation writes the home directory interpolated into a string
// (${os.homedir()}, #{Dir.home}) as ~, so the literal names the path.
// #{Rails.root} interpolated into a command string is the project
// (rewritePaths reads Rails.root where it is passed as an argument).
func homeInterpolation(input string) string {
	input = appRootInterp.ReplaceAllString(input, ".")
	return homeInterp.ReplaceAllString(input, "~")
}

var appRootInterp = regexp.MustCompile(`#\{\s*Rails\s*\.\s*root\s*\}`)

// consoleBindings replaces names bound once to a literal with it, where
// they are passed to a call or name a member: dir = '…'; rmSync(dir, …);
// m = 'rmSync'; fs[m](…).
func consoleBindings(code string) string {
	count := map[string]int{}
	lit := map[string]string{}
	for _, m := range consoleAssign.FindAllStringSubmatch(code, -1) {
		count[m[1]]++
		lit[m[1]] = m[2]
	}
	for name, n := range count {
		if n != 1 {
			continue
		}
		re := regexp.MustCompile(`([(,]\s*|\[\s*)` + regexp.QuoteMeta(name) + `(\s*[,)\]])`)
		code = re.ReplaceAllString(code, "${1}"+lit[name]+"${2}")
	}
	return code
}

// shelljsCalls judges shelljs's rm and exec as the shell commands they are.
func shelljsCalls(code string, strs []string, depth int) Verdict {
	for _, m := range shelljs.FindAllStringSubmatchIndex(code, -1) {
		args := pyCallArgs(code[m[1]:])
		if len(args) == 0 || !allLiterals(args) {
			continue
		}
		cmd := pyWords(args, strs)
		if code[m[2]:m[3]] == "rm" {
			cmd = "rm " + cmd
		} else {
			cmd = litValue(strings.TrimSpace(args[0]), strs)
		}
		if v := judgeCommand(cmd, depth, "shelljs"); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

// generatedSuffix: a loop or comprehension filtered to files of a generated
// type (if f.endswith('.pyc')).
func generatedSuffix(line string, strs []string) bool {
	m := pyEndsWith.FindStringSubmatch(line)
	return m != nil && generatedFiles("*"+litValue(m[1], strs))
}
