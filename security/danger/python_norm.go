package danger

import (
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
)

// pyNormalize undoes the indirections that hide a call from the Python
// checks, on code as scanPython leaves it (literals are "\x01<n>\x02"):
//
//   - decoders of literals (base64, bytes.fromhex, codecs rot13/hex/base64,
//     s[::-1]) and literal concatenation become the literal they produce;
//   - __import__('m'), importlib.import_module('m'), sys.modules['m'] and
//     getattr(x, 'name') become m and x.name;
//   - aliases (import m as a, from m import f as g, g = m.f) become the
//     names they stand for;
//   - home, working and temporary directory expressions become "~", "./*"
//     and "/tmp/…" literals, and path joins of literals are joined.
func pyNormalize(code string, strs []string) (string, []string) {
	n := &pyNorm{strs: strs}
	code = n.rewriteR7(code)
	for range 4 { // decoders, imports and joins nest; a few rounds settle them
		before := code
		code = n.joinpath(n.rewriteMore(n.rewrite(n.rewriteDispatch(code))))
		if code == before {
			break
		}
	}
	return n.aliases(code), n.strs
}

type pyNorm struct{ strs []string }

func (n *pyNorm) lit(s string) string {
	n.strs = append(n.strs, s)
	return "\x01" + strconv.Itoa(len(n.strs)-1) + "\x02"
}

func (n *pyNorm) val(m string) string { return pyLiteral(pyLit.FindStringSubmatch(m)[1], n.strs) }

const pyL = `\x01\d+\x02`

var (
	// pyModPrefix: the module a decoder is reached through, by any name
	// (base64., b. after "import base64 as b", __import__('base64').).
	pyModPrefix = `(?:(?:__import__\s*\(\s*` + pyL + `\s*\)|\b[A-Za-z_]\w*)\s*\.\s*)?`
	pyB64       = regexp.MustCompile(pyModPrefix + `\b(?:b64decode|standard_b64decode|urlsafe_b64decode|decodebytes)\s*\(\s*(` + pyL + `)\s*\)`)
	pyHex       = regexp.MustCompile(`\b(?:bytes|bytearray)\s*\.\s*fromhex\s*\(\s*(` + pyL + `)\s*\)|\bbinascii\s*\.\s*(?:unhexlify|a2b_hex)\s*\(\s*(` + pyL + `)\s*\)`)
	pyCodecs    = regexp.MustCompile(`\bcodecs\s*\.\s*(?:decode|encode)\s*\(\s*(` + pyL + `)\s*,\s*(` + pyL + `)\s*\)`)
	pyDecode    = regexp.MustCompile(`(` + pyL + `)\s*\.\s*decode\s*\(\s*(?:` + pyL + `)?\s*\)`)
	pyReverse   = regexp.MustCompile(`(` + pyL + `)\s*\[\s*::\s*-\s*1\s*\]`)
	pyConcat    = regexp.MustCompile(`(` + pyL + `)\s*\+\s*(` + pyL + `)`)
	pySlash     = regexp.MustCompile(`(` + pyL + `)\s*/\s*(` + pyL + `)`)
	pyJoin      = regexp.MustCompile(`\bos\s*\.\s*path\s*\.\s*join\s*\(\s*((?:` + pyL + `\s*,\s*)*` + pyL + `)\s*\)`)
	pyWrapLit   = regexp.MustCompile(`\b(?:(?:pathlib\s*\.\s*)?(?:Pure)?(?:Posix)?Path|os\s*\.\s*path\s*\.\s*(?:expanduser|abspath|realpath|normpath|expandvars)|str)\s*\(\s*(` + pyL + `)\s*\)(?:\s*\.\s*(?:expanduser|resolve|absolute)\s*\(\s*\))?`)
	pyImport    = regexp.MustCompile(`(?:\bglobals\s*\(\s*\)\s*\[\s*` + pyL + `\s*\]\s*\.\s*|\bbuiltins\s*\.\s*|\b)(?:__import__|importlib\s*\.\s*import_module)\s*\(\s*(` + pyL + `)\s*\)|\bsys\s*\.\s*modules\s*\[\s*(` + pyL + `)\s*\]`)
	pyGetattr   = regexp.MustCompile(`\bgetattr\s*\(\s*([\w.]+(?:\s*\(\s*(?:` + pyL + `\s*,?\s*)*\)|\s*\[\s*` + pyL + `\s*\])*)\s*,\s*(` + pyL + `)\s*\)`) // getattr(boto3.client('iam'), 'x'), getattr(mods['os'], 'x')
	pyHome      = regexp.MustCompile(`\b(?:pathlib\s*\.\s*)?Path\s*\.\s*home\s*\(\s*\)|\bos\s*\.\s*environ\s*\[\s*\x01(\d+)\x02\s*\]|\bos\s*\.\s*(?:environ\s*\.\s*get|getenv)\s*\(\s*\x01(\d+)\x02\s*\)`)
	pyCwd       = regexp.MustCompile(`\bos\s*\.\s*getcwd\s*\(\s*\)|\b(?:pathlib\s*\.\s*)?Path\s*\.\s*cwd\s*\(\s*\)`)
	pyTemp      = regexp.MustCompile(`\btempfile\s*\.\s*(?:gettempdir|mkdtemp)\s*\([^)]*\)`)
)

func (n *pyNorm) rewrite(code string) string {
	code = pyB64.ReplaceAllStringFunc(code, func(m string) string {
		s := strings.TrimSpace(n.val(pyB64.FindStringSubmatch(m)[1])) // the argument, not a module named before it
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(s); err == nil {
				return n.lit(string(b))
			}
		}
		return m
	})
	code = pyHex.ReplaceAllStringFunc(code, func(m string) string {
		if b, err := hex.DecodeString(strings.ReplaceAll(n.val(m), " ", "")); err == nil {
			return n.lit(string(b))
		}
		return m
	})
	code = pyCodecs.ReplaceAllStringFunc(code, func(m string) string {
		ls := pyLit.FindAllStringSubmatch(m, -1)
		s, codec := pyLiteral(ls[0][1], n.strs), strings.ToLower(strings.ReplaceAll(pyLiteral(ls[1][1], n.strs), "-", "_"))
		switch codec {
		case "rot13", "rot_13":
			return n.lit(rot13(s))
		case "hex", "hex_codec":
			if b, err := hex.DecodeString(s); err == nil {
				return n.lit(string(b))
			}
		case "base64", "base64_codec", "base_64":
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				return n.lit(string(b))
			}
		}
		return m
	})
	code = pyDecode.ReplaceAllString(code, "$1")
	code = pyReverse.ReplaceAllStringFunc(code, func(m string) string {
		r := []rune(n.val(m))
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return n.lit(string(r))
	})
	code = pyHome.ReplaceAllStringFunc(code, func(m string) string {
		if ls := pyLit.FindStringSubmatch(m); ls != nil && pyLiteral(ls[1], n.strs) != "HOME" {
			return m
		}
		return n.lit("~")
	})
	code = pyCwd.ReplaceAllStringFunc(code, func(string) string { return n.lit("./*") })
	code = pyTemp.ReplaceAllStringFunc(code, func(string) string { return n.lit("/tmp/tmpdir") })
	code = pyWrapLit.ReplaceAllString(code, "$1")
	code = pyJoin.ReplaceAllStringFunc(code, func(m string) string {
		var parts []string
		for _, l := range pyLit.FindAllStringSubmatch(m, -1) {
			parts = append(parts, pyLiteral(l[1], n.strs))
		}
		return n.lit(strings.Join(parts, "/"))
	})
	code = pyConcat.ReplaceAllStringFunc(code, func(m string) string {
		ls := pyLit.FindAllStringSubmatch(m, -1)
		return n.lit(pyLiteral(ls[0][1], n.strs) + pyLiteral(ls[1][1], n.strs))
	})
	code = pySlash.ReplaceAllStringFunc(code, func(m string) string {
		ls := pyLit.FindAllStringSubmatch(m, -1)
		return n.lit(strings.TrimSuffix(pyLiteral(ls[0][1], n.strs), "/") + "/" + pyLiteral(ls[1][1], n.strs))
	})
	code = pyImport.ReplaceAllStringFunc(code, func(m string) string {
		sm := pyImport.FindStringSubmatch(m)
		return " " + pyLiteral(pyLit.FindStringSubmatch(sm[1] + sm[2])[1], n.strs)
	})
	return pyGetattr.ReplaceAllStringFunc(code, func(m string) string {
		sm := pyGetattr.FindStringSubmatch(m)
		return sm[1] + "." + n.val(sm[2])
	})
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

var (
	pyImportAs = regexp.MustCompile(`\bimport\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)`)
	pyFromAs   = regexp.MustCompile(`\bfrom\s+([\w.]+)\s+import\s+\(?\s*(\w+(?:\s+as\s+\w+)?(?:\s*,\s*\w+(?:\s+as\s+\w+)?)*)`)
	pyBind     = regexp.MustCompile(`(?m)(?:^|;)\s*(\w+)\s*=\s*((?:os|shutil|subprocess|pathlib|importlib|posix|signal|asyncio|boto3\s*\.\s*client\s*\(\s*` + pyL + `\s*\))(?:\s*\.\s*\w+)*)\s*(?:;|$)`)
	// Modules whose functions the checks know by their qualified name.
	pyKnownModules = map[string]bool{"os": true, "shutil": true, "subprocess": true, "pathlib": true, "posix": true, "asyncio": true}
	// pyFromNames: functions that destroy, run or signal, followed through
	// "from os import remove" as through "os.remove".
	pyFromNames = map[string]bool{"remove": true, "unlink": true, "rmdir": true, "removedirs": true, "truncate": true,
		"chmod": true, "chown": true, "kill": true, "killpg": true, "system": true, "popen": true}
)

// aliases replaces alias names with what they stand for.
func (n *pyNorm) aliases(code string) string {
	names := map[string]string{}
	for _, m := range pyImportAs.FindAllStringSubmatch(code, -1) {
		for _, part := range strings.Split(m[1], ",") {
			if f := strings.Fields(part); len(f) == 3 && f[1] == "as" {
				names[f[2]] = f[0]
			}
		}
	}
	for _, m := range pyFromAs.FindAllStringSubmatch(code, -1) {
		if !pyKnownModules[m[1]] {
			continue
		}
		for _, part := range strings.Split(m[2], ",") {
			f := strings.Fields(part)
			switch {
			case len(f) == 3 && f[1] == "as":
				names[f[2]] = m[1] + "." + f[0]
			case len(f) == 1 && (m[1] == "shutil" || pyFromNames[f[0]]):
				names[f[0]] = m[1] + "." + f[0]
			}
		}
	}
	for _, m := range pyBind.FindAllStringSubmatch(code, -1) {
		names[m[1]] = strings.Join(strings.Fields(m[2]), "")
	}
	for alias, full := range names {
		if alias == full || alias == strings.SplitN(full, ".", 2)[0] {
			continue
		}
		re := regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(alias) + `\b(\s*[.(,)])`)
		code = re.ReplaceAllString(code, "${1}"+full+"${2}")
	}
	return code
}

// ipythonMagic: IPython lines that run a shell command: !cmd, !!cmd,
// %system/%sx cmd, %%bash/%%sh/%%script cells and the automagic shell
// aliases (%rm, %mv, %cp...).
var ipythonMagic = regexp.MustCompile(`^(?:!!?|%{1,2}(?:system|sx|bash|sh|script\s+\w+)\b|%(?:rm|rmdir|mv|cp|ln|cat|chmod)\b)`)

func ipythonShell(line string) (string, bool) {
	m := ipythonMagic.FindString(line)
	if m == "" {
		return "", false
	}
	rest := line[len(m):]
	if strings.HasPrefix(m, "%") && !strings.HasPrefix(m, "%%") {
		switch name := strings.TrimPrefix(m, "%"); name {
		case "system", "sx":
		default:
			if !strings.HasPrefix(name, "bash") && !strings.HasPrefix(name, "sh") && !strings.HasPrefix(name, "script") {
				rest = name + rest // %rm -rf x is rm -rf x
			}
		}
	}
	return strings.TrimSpace(rest), true
}
