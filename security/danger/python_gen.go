package danger

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Python by effect, beyond the standard library's names: command-runner
// libraries (sh, plumbum, pty.spawn), commands kept in list variables, code
// decoded at run time and executed, signals to every process through psutil,
// SDK and driver calls that delete whole stores, and sockets whose peer
// drives a shell.

var (
	pyChr     = regexp.MustCompile(`\bchr\s*\(\s*(\d{1,7})\s*\)`)
	pyStrJoin = regexp.MustCompile(`(` + pyL + `)\s*\.\s*join\s*\(\s*[\[(]\s*((?:` + pyL + `\s*,\s*)*` + pyL + `)\s*,?\s*[\])]\s*\)`)
)

// rewriteMore: chr(114) and ”.join(['r', 'm']) become the literal they make.
func (n *pyNorm) rewriteMore(code string) string {
	code = pyChr.ReplaceAllStringFunc(code, func(m string) string {
		i, err := strconv.Atoi(pyChr.FindStringSubmatch(m)[1])
		if err != nil || i > 0x10FFFF {
			return m
		}
		return n.lit(string(rune(i)))
	})
	return pyStrJoin.ReplaceAllStringFunc(code, func(m string) string {
		sm := pyStrJoin.FindStringSubmatch(m)
		var parts []string
		for _, l := range pyLit.FindAllStringSubmatch(sm[2], -1) {
			parts = append(parts, pyLiteral(l[1], n.strs))
		}
		return n.lit(strings.Join(parts, n.val(sm[1])))
	})
}

var (
	// Command-runner libraries: sh.rm('-rf', p), from sh import rm;
	// rm('-rf', p), plumbum's local['rm'](...) and rm['-rf', p](), and
	// pty.spawn(argv).
	pyShModule   = regexp.MustCompile(`\bsh\s*\.\s*([A-Za-z_]\w*)\s*\(`)
	pyFromRunner = regexp.MustCompile(`\bfrom\s+(?:sh|plumbum\.cmd)\s+import\s+([\w\s,]+)`)
	pyPlumbumLoc = regexp.MustCompile(`\blocal\s*\[\s*(` + pyL + `)\s*\]\s*(?:\(|\[)`)
	pyPtySpawn   = regexp.MustCompile(`\bpty\s*\.\s*spawn\s*\(`)
	pyListVar    = regexp.MustCompile(`(?m)^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*(\[[^\]\n]*\])`)
	pyRunVar     = regexp.MustCompile(`\b(?:subprocess\s*\.\s*(?:run|call|check_call|check_output|Popen)|os\s*\.\s*execvp?e?|pty\s*\.\s*spawn)\s*\(\s*([A-Za-z_]\w*)\s*[,)]`)
	// exec/eval of bytes decoded or decompressed at run time: code nobody
	// can read before it runs.
	pyExecDecoded = regexp.MustCompile(`\b(?:exec|eval)\s*\([^\n]*\b(?:b64decode|b32decode|b85decode|a85decode|decodebytes|fromhex|unhexlify|decompress|marshal\s*\.\s*loads|pickle\s*\.\s*loads|rot13|decrypt)\s*\(`)
	// Signals to every process: a psutil iteration killing what it lists
	// with no test in between, or killing init.
	pyPsutilAll  = regexp.MustCompile(`\bpsutil\s*\.\s*(?:process_iter|pids)\s*\([^\n]*\)[^\n]*?\.\s*(?:kill|terminate|send_signal)\s*\(|\.\s*(?:kill|terminate|send_signal)\s*\([^\n]*\bfor\s+\w+\s+in\s+psutil\s*\.\s*process_iter\s*\(`)
	pyPsutilInit = regexp.MustCompile(`\bpsutil\s*\.\s*Process\s*\(\s*1\s*\)\s*\.\s*(?:kill|terminate|send_signal)\s*\(`)
	// Whole stores deleted through SDKs and drivers.
	pyFilterValues = regexp.MustCompile(`\.\s*filter\s*\([^\n]*?\x01(\d+)\x02\s*:\s*\[([^\]]*)\]`)
	pyStoreDelete  = regexp.MustCompile(`\b(?:Table|Bucket|bucket|Container|Queue|Stack|Database|database)\s*\([^()\n]*\)\s*\.\s*delete\s*\(|` +
		`\b(?:instances|volumes|snapshots|buckets|vpcs|subnets|tables|queues|stacks|clusters)\s*\.\s*(?:all|filter)\s*\([^\n]*?\)\s*\.\s*(?:terminate|delete)\s*\(|` +
		`\binstances\s*\(\s*\)\s*\.\s*delete\s*\(|\.\s*delete_blobs\s*\([^\n]*\blist_blobs\b|` +
		`\.\s*(?:delete_container|delete_share|delete_database|delete_keyspace|delete_file_system|delete_index|delete_collection|delete_vault)\s*\(|` +
		`\bresource_groups\s*\.\s*(?:begin_)?delete\s*\(|\.\s*delete_by_query\s*\([^\n]*\bmatch_all\b|\.\s*delete\s*\([^\n]*\bdelete_all\s*=\s*True|` +
		`\.\s*(?:delete_objects|schedule_key_deletion|recursive_delete)\s*\(|\bForceDeleteWithoutRecovery\s*=\s*True`)
	pyKillLoop   = regexp.MustCompile(`\bos\s*\.\s*kill\s*\([^\n]*\bfor\s+\w+\s+in\s+[^\n]*(?:\bpids\s*\(|\blistdir\s*\(\s*\x01\d+\x02)|\bfor\s+\w+\s+in\s+[^\n]*(?:\bpids\s*\(|\blistdir\s*\(\s*\x01\d+\x02)[^\n]*:\s*os\s*\.\s*kill\s*\(`)
	pyDropColl   = regexp.MustCompile(`\.\s*drop_collection\s*\(\s*(\x01\d+\x02)?`)
	pyDBCommand  = regexp.MustCompile(`\.\s*command\s*\(\s*(\x01\d+\x02)`)
	pyBulkRm     = regexp.MustCompile(`(?:\.\s*|(?:^|[^\w.]))(?:remove_tree|rmtree)\s*(\()|\.\s*rm\s*(\()[^\n]*\brecursive\s*=\s*True`)
	pyMongoColl  = regexp.MustCompile(`\bdb\s*(?:\.\s*\w+|\[\s*` + pyL + `\s*\])\s*\.\s*drop\s*\(\s*\)|\.\s*remove\s*\(\s*\{\s*\}\s*\)`)
	pyFilterName = regexp.MustCompile(`(` + pyL + `)\s*:\s*(` + pyL + `)`)
	pyDropAll    = regexp.MustCompile(`\.\s*drop_all\s*\(`)
	pyEngine     = regexp.MustCompile(`\bcreate_(?:async_)?engine\s*\(\s*(` + pyL + `)?`)
	// A socket whose peer's bytes reach a shell: a reverse or bind shell
	// (descriptors or stdin handed to a shell), or a loop running what it
	// receives.
	pySockPeer  = regexp.MustCompile(`\bsocket\b[\s\S]*(?:\.\s*connect\s*\(|\bcreate_connection\s*\(|\.\s*accept\s*\()`)
	pySockWire  = regexp.MustCompile(`\bdup2\s*\(|\bstdin\s*=\s*(?:[A-Za-z_]\w*\s*\.\s*(?:makefile|fileno)\s*\(|[A-Za-z_]\w*\s*[,)])`)
	pySockRun   = regexp.MustCompile(`\bpty\s*\.\s*spawn|\bsubprocess\s*\.\s*\w+|\bos\s*\.\s*(?:system|exec\w*|popen)\s*\(`)
	pyPeeweeAll = regexp.MustCompile(`\b[A-Z]\w*\s*\.\s*(?:delete\s*\(\s*\)|update\s*\([^()\n]*\))\s*\.\s*execute\s*\(`)
	pyRecvRun   = regexp.MustCompile(`(?s)\.\s*recv\s*\(.*(?:\b(?:os\s*\.\s*(?:system|popen)|getoutput)\s*\(\s*[A-Za-z_]|` +
		`\b(?:check_output|Popen|run|call)\s*\([^\n]*\bshell\s*=\s*True)`)
)

func pyGenChecks(code string, strs []string, depth int) Verdict {
	if v := pyRunnerLibs(code, strs, depth); v.Dangerous {
		return v
	}
	if v := pyListCommands(code, strs, depth); v.Dangerous {
		return v
	}
	if v := checkSchemaCode(code, strs, depth); v.Dangerous {
		return v
	}
	switch {
	case pyExecDecoded.MatchString(code), pyRunDecoded.MatchString(code):
		return hit("decode-to-shell")
	case pyPsutilAll.MatchString(code) && !pyProcFilter.MatchString(code), pyPsutilInit.MatchString(code),
		pyKillLoop.MatchString(code) && (strings.Contains(code, "pids") || slices.Contains(strs, "/proc")):
		return hit("kill-all")
	case (pyStoreDelete.MatchString(code) || pyStoreVarDelete(code, strs)) && !pyFiltersTemporary(code, strs):
		return hit("sdk-bulk-delete")
	case pyPeeweeAll.MatchString(code):
		return hit("orm-delete-all")
	case strings.Contains(code, "delete_by_query") && slices.Contains(strs, "match_all"):
		return hit("sdk-bulk-delete")
	case pyMongoColl.MatchString(code) && !mongoScratchOnly(code, strs), pyMongoCommand(code, strs):
		return hit("mongo-drop")
	case pyDropAll.MatchString(code) && !memoryEnginesOnly(code, strs):
		return hit("sql-drop")
	case pySockPeer.MatchString(code) && pySockWire.MatchString(code) && pySockRun.MatchString(code), pyRecvRun.MatchString(code):
		return hit("repl-reverse-shell")
	}
	vars := pyVars(code, strs)
	pyLoopVars(code, strs, vars)
	params := pyParams(code)
	for _, m := range pyBulkRm.FindAllStringSubmatchIndex(code, -1) {
		open := m[3]
		if open < 0 {
			open = m[5]
		}
		rest := code[open:]
		if pyParamArg(rest, params) {
			continue // a parameter: the call that passes it is judged on its own line
		}
		if p, ok := pyPathArg(rest, strs, vars); ok && isBucketURL(p) {
			return hit("sdk-bulk-delete")
		}
		if pyRmtreeDanger(rest, strs, vars) {
			return hit("py-rmtree")
		}
	}
	return Verdict{}
}

func isBucketURL(p string) bool {
	for _, s := range []string{"s3://", "gs://", "az://", "abfs://", "abfss://", "wasbs://", "hdfs://", "oci://", "r2://"} {
		if strings.HasPrefix(p, s) {
			return true
		}
	}
	return false
}

// pyRunnerLibs judges sh, plumbum and pty.spawn calls by the command line
// their program name and arguments make.
func pyRunnerLibs(code string, strs []string, depth int) Verdict {
	type call struct {
		prog string
		rest string // after the "(" or "[" of the arguments
	}
	var calls []call
	for _, m := range pyShModule.FindAllStringSubmatchIndex(code, -1) {
		if strings.Contains(code, "import sh") {
			calls = append(calls, call{code[m[2]:m[3]], code[m[1]:]})
		}
	}
	for _, m := range pyFromRunner.FindAllStringSubmatch(code, -1) {
		for _, name := range strings.Split(m[1], ",") {
			name = strings.TrimSpace(name)
			if name == "" || !pyIdent.MatchString(name) {
				continue
			}
			re := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(name) + `\s*[\[(]`)
			for _, loc := range re.FindAllStringIndex(code, -1) {
				calls = append(calls, call{name, code[loc[1]:]})
			}
		}
	}
	for _, m := range pyPlumbumLoc.FindAllStringSubmatchIndex(code, -1) {
		calls = append(calls, call{litValue(code[m[2]:m[3]], strs), code[m[1]:]})
	}
	for _, c := range calls {
		if !plainWord(c.prog) {
			continue
		}
		if v := judgeCommand(c.prog+" "+pyWords(pyCallArgs(c.rest), strs), depth, "Python"); v.Dangerous {
			return v
		}
	}
	for _, loc := range pyPtySpawn.FindAllStringIndex(code, -1) {
		rest := code[loc[1]:]
		cmd, ok := pyStringArg(rest, strs)
		if !ok {
			cmd, ok = pyListArg(rest, strs)
		}
		if ok {
			if v := judgeCommand(cmd, depth, "Python"); v.Dangerous {
				return v
			}
		}
	}
	return Verdict{}
}

func litValue(lit string, strs []string) string {
	return pyLiteral(pyLit.FindStringSubmatch(lit)[1], strs)
}

// pyListCommands: cmd = ['rm', '-rf', p]; subprocess.run(cmd).
func pyListCommands(code string, strs []string, depth int) Verdict {
	lists := map[string]string{}
	for _, m := range pyListVar.FindAllStringSubmatch(code, -1) {
		if cmd, ok := pyListArg(m[2], strs); ok {
			lists[m[1]] = cmd
		}
	}
	if len(lists) == 0 {
		return Verdict{}
	}
	for _, m := range pyRunVar.FindAllStringSubmatch(code, -1) {
		if cmd, ok := lists[m[1]]; ok {
			if v := judgeCommand(cmd, depth, "Python"); v.Dangerous {
				return v
			}
		}
	}
	return Verdict{}
}

// plainWord: a program name that is one shell word as it stands.
func plainWord(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\n'\"$`\\;&|<>(){}*?[]~")
}

// pyMongoCommand: db.command('dropDatabase') and drop_collection of a
// collection that is not scratch.
func pyMongoCommand(code string, strs []string) bool {
	for _, m := range pyDropColl.FindAllStringSubmatch(code, -1) {
		if m[1] == "" || !scratchTable(litValue(m[1], strs)) {
			return true
		}
	}
	for _, m := range pyDBCommand.FindAllStringSubmatch(code, -1) {
		if c := litValue(m[1], strs); c == "dropDatabase" || c == "dropAllUsersFromDatabase" {
			return true
		}
	}
	return false
}

// pyFiltersTemporary: boto3's collection filtered to resources whose names
// say they are disposable (Filters=[{'Name': 'tag:Name', 'Values':
// ['scratch-runner-tmp']}]): only those are terminated.
func pyFiltersTemporary(code string, strs []string) bool {
	if pyDisposableTarget(code, strs) {
		return true
	}
	// Filters are ANDed: one on a tag whose key says disposable ('tag:ephemeral')
	// limits every match to what was tagged so.
	for _, m := range pyFilterName.FindAllStringSubmatch(code, -1) {
		if key, ok := strings.CutPrefix(litValue(m[2], strs), "tag:"); ok && litValue(m[1], strs) == "Name" && temporaryName(key) {
			return true
		}
	}
	for _, m := range pyFilterValues.FindAllStringSubmatch(code, -1) {
		if pyLiteral(m[1], strs) != "Values" {
			continue
		}
		vals := pyLit.FindAllStringSubmatch(m[2], -1)
		for _, v := range vals {
			if !temporaryName(pyLiteral(v[1], strs)) {
				return false
			}
		}
		return len(vals) > 0
	}
	return false
}

// memoryEnginesOnly: every engine the code creates is an in-memory SQLite
// database (create_engine('sqlite:///:memory:')), which drop_all empties of
// nothing anyone keeps.
func memoryEnginesOnly(code string, strs []string) bool {
	ms := pyEngine.FindAllStringSubmatch(code, -1)
	for _, m := range ms {
		if m[1] == "" {
			return false
		}
		if u := litValue(m[1], strs); u != "sqlite://" && u != "sqlite:///:memory:" && u != "sqlite+pysqlite:///:memory:" &&
			!(strings.HasPrefix(u, "sqlite") && testDBFile(connDatabase(u))) { // sqlite:///test.db: a suite's file
			return false
		}
	}
	return len(ms) > 0
}

// pyStoreHandle: a name bound to a whole store — b = client.bucket('x'),
// t = dynamodb.Table('users'), c = svc.get_container_client('exports') — whose
// delete() later in the input deletes it as the chained call does.
var pyStoreHandle = regexp.MustCompile(`(?m)^\s*([A-Za-z_]\w*)\s*=[^=\n][^\n]*\b(?:Table|Bucket|bucket|get_bucket|lookup_bucket|Container|get_container_client|get_share_client|Queue|Stack|Database|database|get_database_client)\s*\([^()\n]*\)\s*$`)

func pyStoreVarDelete(code string, strs []string) bool {
	for _, m := range pyStoreHandle.FindAllStringSubmatchIndex(code, -1) {
		name := code[m[2]:m[3]]
		if l := pyLit.FindStringSubmatch(code[m[0]:m[1]]); l != nil && temporaryName(pyLiteral(l[1], strs)) {
			continue // a bucket or table named as temporary (tmp-ci-42)
		}
		if regexp.MustCompile(`\b` + name + `\s*\.\s*(?:delete|delete_container|delete_share|delete_database)\s*\(`).MatchString(code[m[1]:]) {
			return true
		}
	}
	return false
}
