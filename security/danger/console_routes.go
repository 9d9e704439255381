package danger

import (
	"regexp"
	"strings"
)

// Indirections of the JavaScript and Ruby consoles, undone before their
// checks as pyNormalize undoes Python's:
//
//   - x['name'] (however the literal was built: 'exec' + 'Sync') is x.name,
//     and globalThis., global., window. name the global scope;
//   - require('m').f is m.f (require('https').request is https.request);
//   - Ruby's Object.const_get(:X) is X, and recv.send(:m, …) (public_send,
//     __send__, or send with no receiver) and recv.method(:m).call(…) are recv.m(…).
//
// And calls that do what a shell command does, judged as that command:
// fs.copyFileSync/cpSync and FileUtils.cp/cp_r/copy_file (cp), and an HTTP
// server whose handler streams files from a directory joined with the
// request's path (python3 -m http.server -d DIR, on the address it listens on).

var (
	jsMember    = regexp.MustCompile(`([\w$)\]])\s*\[\s*(` + pyL + `)\s*\]`)
	jsGlobal    = regexp.MustCompile(`\b(?:globalThis|global|window|self)\s*\.\s*`)
	jsRequireOf = regexp.MustCompile(`\brequire\s*\(\s*(` + pyL + `)\s*\)\s*\.\s*`)
	rbConstGet  = regexp.MustCompile(`\b(?:Object|Kernel|Module)\s*\.\s*const_get\s*\(\s*(?::(\w+)|(` + pyL + `))\s*\)`)
	rbMethodRef = regexp.MustCompile(`(\.\s*|(?:^|[^\w.:]))method\s*\(\s*:(\w+[!?]?)\s*\)\s*(?:\.\s*(?:call|\(\s*\))|\.\s*\(|\[)\s*\(?`)
	rbSend      = regexp.MustCompile(`(\.\s*|(?:^|[^\w.:]))(?:public_send|__send__|send)\s*\(\s*(?::(\w+)|(` + pyL + `))\s*(,|\))`)
)

func consoleDispatch(code string, strs []string, ruby bool) string {
	if ruby {
		code = rbConstGet.ReplaceAllStringFunc(code, func(m string) string {
			sm := rbConstGet.FindStringSubmatch(m)
			if sm[1] != "" {
				return sm[1]
			}
			if v := litValue(sm[2], strs); plainIdent.MatchString(strings.ReplaceAll(v, "::", "_")) {
				return v
			}
			return m
		})
		code = rbMethodRef.ReplaceAllString(code, "${1}${2}(") // Kernel.method(:system).call(…) is Kernel.system(…)
		return rbSend.ReplaceAllStringFunc(code, func(m string) string {
			sm := rbSend.FindStringSubmatch(m)
			name := sm[2]
			if name == "" {
				name = litValue(sm[3], strs)
			}
			if !plainIdent.MatchString(strings.TrimRight(name, "!?")) {
				return m
			}
			if sm[4] == ")" {
				return sm[1] + name + "()"
			}
			return sm[1] + name + "("
		})
	}
	code = jsMember.ReplaceAllStringFunc(code, func(m string) string {
		sm := jsMember.FindStringSubmatch(m)
		if v := litValue(sm[2], strs); plainIdent.MatchString(v) {
			return sm[1] + "." + v
		}
		return m
	})
	code = jsGlobal.ReplaceAllString(code, "")
	return jsRequireOf.ReplaceAllStringFunc(code, func(m string) string {
		v := strings.TrimPrefix(litValue(jsRequireOf.FindStringSubmatch(m)[1], strs), "node:")
		if !plainIdent.MatchString(v) {
			return m
		}
		return v + "."
	})
}

var (
	consoleCopy   = regexp.MustCompile(`\b(?:copyFileSync|copyFile|cpSync|copySync|FileUtils\s*\.\s*(?:cp_r|cp|copy_file|copy_entry|copy))\s*[( ]\s*`)
	jsServeJoined = regexp.MustCompile(`\b(?:createReadStream|readFileSync|readFile|sendFile)\s*\(\s*(?:(?:path|require\s*\(\s*` + pyL + `\s*\))\s*\.\s*(?:join|resolve)\s*\(\s*)?(` + pyL + `)\s*[+,]\s*(?:(?:decodeURI(?:Component)?|unescape|String)\s*\(\s*)?\w+\s*\.\s*(?:url|path)\b|\bexpress\s*\.\s*static\s*\(\s*(` + pyL + `)`)
	jsListenHost  = regexp.MustCompile(`\.\s*listen\s*\(\s*\w+\s*,\s*(` + pyL + `)`)
)

func consoleRoutes(code string, strs []string, depth int) Verdict {
	for _, loc := range consoleCopy.FindAllStringIndex(code, -1) {
		args := pyCallArgs(strings.TrimPrefix(strings.TrimSpace(code[loc[1]-1:]), "(") + ")")
		if len(args) < 2 {
			continue
		}
		cmd := "cp -r " + pyShellWord(strings.TrimSpace(args[0]), strs) + " " + pyShellWord(strings.TrimSpace(args[1]), strs)
		if v := judgeCommand(cmd, depth, "a copy"); v.Dangerous {
			return v
		}
	}
	if m := jsServeJoined.FindStringSubmatch(code); m != nil && strings.Contains(code, "listen") {
		cmd := "python3 -m http.server -d " + shQuote(litValue(m[1]+m[2], strs))
		if h := jsListenHost.FindStringSubmatch(code); h != nil {
			cmd += " --bind " + shQuote(litValue(h[1], strs))
		}
		if v := judgeCommand(cmd, depth, "a file server"); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}
