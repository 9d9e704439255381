package danger

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// classifyPython judges Python (and IPython) input. String literals and
// comments are set aside first, so only real calls count; the strings those
// calls receive are judged with the shell or SQL rules.
func classifyPython(input string, depth int) Verdict {
	if v, ok := checkIPythonCell(input, depth); ok {
		return v
	}
	if v, ok := checkSQLMagic(input, depth); ok {
		return v
	}
	if v := judgeReplSave(input, depth); v.Dangerous {
		return v
	}
	// get_ipython().run_line_magic('sql', 'DROP …') and run_cell_magic('bash',
	// '', 'rm …') are the magics written out
	for _, m := range ipyMagicAPI.FindAllStringSubmatch(input, -1) {
		magic := "%" + m[2] + " " + m[3] + m[4]
		if m[1] == "cell" {
			magic = "%%" + m[2] + " " + m[3] + m[4] + "\n" + m[5] + m[6]
		}
		if depth < shell.MaxDepth {
			if v := classifyPython(strings.ReplaceAll(magic, `\n`, "\n"), depth+1); v.Dangerous {
				return v
			}
		}
	}
	var src strings.Builder
	binds := map[string]string{} // name = 'literal', for {name} and $name in the escapes
	for line := range strings.Lines(input) {
		t := strings.TrimSpace(line)
		if m := ipythonBinding.FindStringSubmatch(t); m != nil {
			binds[m[1]] = m[2] + m[3]
		}
		if cmd, ok := ipythonShell(t); ok { // IPython shell escape
			if v := classify(Shell, ipythonExpand(cmd, binds), depth+1); v.Dangerous {
				return via(v, "an IPython shell escape")
			}
			if stmt, ok := strings.CutPrefix(t, "!"); ok && !strings.HasPrefix(stmt, "!") {
				src.WriteString(stmt + "\n") // in pdb, !stmt is a Python statement
			}
			continue
		}
		if name, cmd, ok := ipythonCapture(t); ok { // files = !ls ~/src
			if v := classify(Shell, ipythonExpand(cmd, binds), depth+1); v.Dangerous {
				return via(v, "an IPython shell escape")
			}
			src.WriteString(capturedListing(name, cmd) + "\n")
			continue
		}
		if m := sqlMagic.FindStringSubmatch(t); m != nil { // %sql DROP TABLE t
			if v := classify(SQL, m[1], depth+1); v.Dangerous {
				return via(v, "IPython's %sql")
			}
			continue
		}
		src.WriteString(line)
	}
	code, strs := pyNormalize(scanPython(src.String()))
	strs = pyResolveFields(code, strs)
	code = codeAsRun(code)
	for _, check := range []func(string, []string, int) Verdict{pyDeletes, pyShell, pySQL, pyEval, pyMisc, pyRemoteExec, pyLangChecks, pyGenChecks, checkFrameworkWipes, pyFsOps, pyOverwrites, pyRemoveEffects, pyGitPython, pyCommandEquivalents, pyFlow, pyGuests} {
		if v := check(code, strs, depth); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

var (
	pyRmtree = regexp.MustCompile(`(?:\bshutil\s*\.\s*|(?:^|[^\w.]))rmtree\s*\(`)
	pyRemove = regexp.MustCompile(`\bos\s*\.\s*(?:remove|unlink|rmdir|removedirs)\s*\(`)
	pyPath   = regexp.MustCompile(`\bPath\s*\(\s*\x01(\d+)\x02\s*\)\s*\.\s*(?:unlink|rmdir)\s*\(`)
	pyExec   = regexp.MustCompile(`(?:\b(?:os|posix)|__import__\s*\(\s*\x01\d+\x02\s*\))\s*\.\s*(?:system|popen|exec[lv]p?e?|posix_spawnp?)\s*\(|(?:\bsubprocess|(?:__import__|\bimport_module)\s*\(\s*\x01\d+\x02\s*\))\s*\.\s*(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(`)
	// pyBareExec: names imported with "from os import system" or "from subprocess import run".
	pyBareExec = regexp.MustCompile(`(?:^|[^\w.])(?:system|popen|run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(`)
	pyModAlias = regexp.MustCompile(`\bimport\s+(?:os|subprocess)\s+as\s+([A-Za-z_]\w*)`)
	pyImports  = regexp.MustCompile(`\bfrom\s+(?:os|subprocess)\s+import\b`)
	pyQuery    = regexp.MustCompile(`\.\s*(?:execute(?:many|script)?|sql)\s*\(\s*(?:(?:sa|sqlalchemy)\s*\.\s*)?(?:text\s*\()?`)
	pyLit      = regexp.MustCompile(`\x01(\d+)\x02`)
	pyStrArg   = regexp.MustCompile(`^\s*((?:\x01\d+\x02\s*\+?\s*)+)([,)]?)`)
	pyList     = regexp.MustCompile(`^\s*[\[(]([^\])]*)[\])]`)
)

func pyDeletes(code string, strs []string, _ int) Verdict {
	vars := pyVars(code, strs)
	pyLoopVars(code, strs, vars)
	params := pyParams(code)
	for _, loc := range pyRmtree.FindAllStringIndex(code, -1) {
		if pyParamArg(code[loc[1]:], params) {
			continue // a parameter: the call that passes it is judged on its own line
		}
		p, ok := pyPathArg(code[loc[1]:], strs, vars)
		if ok && (isImportant(p) || isSystemFile(p)) || pyRmtreeDanger(code[loc[1]:], strs, vars) {
			return hit("py-rmtree")
		}
	}
	for _, loc := range pyRemove.FindAllStringIndex(code, -1) {
		if p, ok := pyStringArg(code[loc[1]:], strs); ok && (isSystemFile(p) || isBlockDevice(p) || vmDiskImage(p)) {
			return hit("py-remove-system")
		}
	}
	for _, m := range pyPath.FindAllStringSubmatch(code, -1) {
		if isSystemFile(pyLiteral(m[1], strs)) {
			return hit("py-remove-system")
		}
	}
	return Verdict{}
}

// pyShell judges the command given to os.system, subprocess.* and friends.
func pyShell(code string, strs []string, depth int) Verdict {
	locs := pyExec.FindAllStringIndex(code, -1)
	if pyImports.MatchString(code) {
		locs = append(locs, pyBareExec.FindAllStringIndex(code, -1)...)
	}
	seen := map[string]bool{}
	vars := pyVars(code, strs)
	for _, m := range pyModAlias.FindAllStringSubmatch(code, -1) { // import subprocess as sp
		if seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		re := regexp.MustCompile(`\b` + m[1] + `\s*\.\s*(?:system|popen|run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(`)
		locs = append(locs, re.FindAllStringIndex(code, -1)...)
	}
	for _, loc := range locs {
		rest := code[loc[1]:]
		cmd, ok := pyStringArg(rest, strs)
		if !ok {
			cmd, ok = pyListArg(rest, strs)
		}
		if m := pyIdentArg.FindStringSubmatch(rest); !ok && m != nil {
			cmd, ok = vars[m[1]] // cmd = 'rm -rf ' + …; subprocess.call(cmd, shell=True)
		}
		if !ok {
			continue
		}
		if v := classify(Shell, shell.ForParser(cmd, Shell), depth+1); v.Dangerous {
			return via(v, "Python")
		}
		// os.execv(path, argv), os.posix_spawn(path, argv, env): the argv list
		// after the program's path is the command line
		for i, a := range pyCallArgs(rest) {
			if i == 0 {
				continue
			}
			if argv, ok := pyListArg(a, strs); ok {
				if v := classify(Shell, shell.ForParser(argv, Shell), depth+1); v.Dangerous {
					return via(v, "Python")
				}
			}
		}
	}
	return Verdict{}
}

// pyWorkTable: an analytics session (DuckDB, Spark) building a working table
// with no schema from a query; the tables of record are named with theirs.
var pyWorkTable = regexp.MustCompile(`(?is)^\s*CREATE\s+OR\s+REPLACE\s+(?:TEMP(?:ORARY)?\s+)?(?:TABLE|VIEW)\s+\w+\s+AS\s+SELECT\b`)

// pySQL judges SQL passed to a DB-API cursor's execute, and to the sql()
// of Spark, DuckDB and Snowpark sessions.
func pySQL(code string, strs []string, depth int) Verdict {
	if pyInMemoryDB(code, strs) {
		return Verdict{}
	}
	for _, loc := range pyQuery.FindAllStringIndex(code, -1) {
		if q, ok := pyStringArg(code[loc[1]:], strs); ok && !(strings.HasSuffix(strings.TrimSpace(code[loc[0]:loc[1]]), "sql(") && pyWorkTable.MatchString(q)) {
			if v := classify(SQL, shell.ForParser(q, SQL), depth+1); v.Dangerous {
				return via(v, "Python")
			}
		}
	}
	return Verdict{}
}

// pyStringArg reads a first argument made of string literals ('a' 'b' or
// 'a' + 'b'); a trailing non-literal part becomes DynMark.
func pyStringArg(rest string, strs []string) (string, bool) {
	m := pyStrArg.FindStringSubmatch(rest)
	if m == nil {
		return "", false
	}
	var b strings.Builder
	for _, l := range pyLit.FindAllStringSubmatch(m[1], -1) {
		b.WriteString(pyLiteral(l[1], strs))
	}
	if n := pyConcatName.FindStringSubmatch(rest[len(m[0]):]); m[2] == "" && n != nil {
		b.WriteString(`"${` + n[1] + `}"`) // 'rm -rf ' + cfg.repo_root: judged by its name, as the shell's "$REPO_ROOT" is
	} else if m[2] == "" {
		b.WriteString(shell.DynMark)
	}
	return b.String(), true
}

// pyConcatName: the name (or an attribute chain's last name) that ends a
// string concatenation given as the whole argument.
var pyConcatName = regexp.MustCompile(`^(?:[A-Za-z_]\w*\s*\.\s*)*([A-Za-z_]\w*)\s*[,)]`)

// pyListArg turns ["rm", "-rf", path] into a shell command line.
func pyListArg(rest string, strs []string) (string, bool) {
	m := pyList.FindStringSubmatch(rest)
	if m == nil {
		return "", false
	}
	var parts []string
	for _, el := range strings.Split(m[1], ",") {
		el = strings.TrimSpace(el)
		if l := pyLit.FindStringSubmatch(el); l != nil && l[0] == el {
			if q := shQuote(pyLiteral(l[1], strs)); q != `"$__dyn"` {
				parts = append(parts, q) // a leading ~ kept live: expanduser('~') was read as '~'
				continue
			}
		}
		if el != "" {
			parts = append(parts, `"$__dyn"`)
		}
	}
	return strings.Join(parts, " "), len(parts) > 0
}

func pyLiteral(index string, strs []string) string {
	i, err := strconv.Atoi(index)
	if err != nil || i < 0 || i >= len(strs) {
		return shell.DynMark
	}
	return strs[i]
}

var ipyMagicAPI = regexp.MustCompile(`\brun_(line|cell)_magic\s*\(\s*['"](\w+)['"]\s*,\s*(?:'([^']*)'|"([^"]*)")(?:\s*,\s*(?:'([^']*)'|"([^"]*)"))?`)

// IPython's SQL magics (ipython-sql, jupysql): %sql STATEMENT on a line,
// %%sql [connection] as a cell whose body is SQL.
var (
	sqlMagic     = regexp.MustCompile(`^%sql\s+(?:[a-z+]+://\S*\s+)?(.*)$`)
	sqlCellMagic = regexp.MustCompile(`^%%sql\b`)
)

func checkSQLMagic(input string, depth int) (Verdict, bool) {
	first, body, _ := strings.Cut(strings.TrimLeft(input, "\n"), "\n")
	if !sqlCellMagic.MatchString(strings.TrimSpace(first)) {
		return Verdict{}, false
	}
	return via(classify(SQL, body, depth+1), "IPython's %%sql"), true
}
