package danger

import "regexp"

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
	rubyKill1  = regexp.MustCompile(`\bProcess\s*\.\s*kill\s*\(?\s*[^,\n]+,\s*1\s*(?:\)|$|;)`)
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
	return hitIf(rubyKill1.MatchString(code), "kill-init")
}
