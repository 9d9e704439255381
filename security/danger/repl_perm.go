package danger

import (
	"path"
	"regexp"
	"strings"
)

// Node and Ruby calls that change a file's mode or owner, append to a file,
// or signal init: judged by the path (or pid) they name, like the Python and
// shell forms. Runs from judgeFileWrites on literals already rewritten by
// rewritePaths.

var (
	// Node's fs.chmod/chown (path first); Ruby's File.chmod/chown and
	// FileUtils.chmod/chown(_R) (path last).
	nodeChmod  = regexp.MustCompile(`\b(?:chmodSync|chmod|lchmodSync|chownSync|chown|lchownSync)\s*\(\s*`)
	rubyChmod  = regexp.MustCompile(`\b(?:File|FileUtils)\s*\.\s*(?:chmod|chown|lchmod|lchown|chmod_R|chown_R)\s*[( ]([^\n)]*)`)
	nodeAppend = regexp.MustCompile(`\b(?:appendFileSync|appendFile)\s*\(\s*`)
	// A shell spawned before the socket it is wired to is opened (the
	// other order is nodeSocketShell).
	nodeSpawnLit = regexp.MustCompile(`\bspawn\s*\(\s*(` + pyL + `)`)
	nodeNetOpen  = regexp.MustCompile(`\bnet\s*\.\s*(?:connect|createConnection)\s*\(|\bnew\s+net\s*\.\s*Socket\b`)
	rubyKill1    = regexp.MustCompile(`\bProcess\s*\.\s*kill\s*\(?\s*[^,\n]+,\s*1\s*(?:\)|$|;)`)
)

func replPermsAndAppends(code string, strs []string) Verdict {
	isProtected := func(p string) bool { return isSystemFile(p) || isAuthorizedKeys(p) }
	for _, loc := range nodeChmod.FindAllStringIndex(code, -1) {
		if p, ok := pyStringArg(code[loc[1]:], strs); ok && isProtected(p) {
			return hit("chmod-chown-system")
		}
	}
	for _, m := range rubyChmod.FindAllStringSubmatch(code, -1) {
		ls := pyLit.FindAllStringSubmatch(m[1], -1)
		if len(ls) > 0 && isProtected(pyLiteral(ls[len(ls)-1][1], strs)) {
			return hit("chmod-chown-system")
		}
	}
	for _, loc := range nodeAppend.FindAllStringIndex(code, -1) {
		if p, ok := pyStringArg(code[loc[1]:], strs); ok {
			switch {
			case isAuthorizedKeys(p):
				return hit("write-authorized-keys")
			case isSystemFile(p):
				return hit("write-system-file")
			}
		}
	}
	for _, m := range nodeSpawnLit.FindAllStringSubmatchIndex(code, -1) {
		prog := path.Base(pyLiteral(pyLit.FindStringSubmatch(code[m[2]:m[3]])[1], strs))
		if shellNames[strings.TrimSuffix(prog, ".exe")] && nodeNetOpen.MatchString(code[m[1]:]) {
			return hit("repl-reverse-shell")
		}
	}
	return hitIf(rubyKill1.MatchString(code), "kill-init")
}

var shellNames = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ash": true, "ksh": true, "cmd": true, "powershell": true, "pwsh": true}
