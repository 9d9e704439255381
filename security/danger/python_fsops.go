package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Python calls that move, rename or copy files are judged as the mv or cp
// they stand for, so the shell's effect model (a system tree moved away, a
// system file or shell startup file replaced) applies to them too. Only
// calls whose source and target are both literals (after pyNormalize) are
// translated; anything else stays unjudged here.

// pyFsVerbs maps a call, written as a regexp ending just before the first
// argument, to the shell verb with the same effect.
var pyFsVerbs = []struct {
	call *regexp.Regexp
	verb string
	// method: the source is the literal before the call (Path(src).rename(dst)).
	method bool
}{
	{regexp.MustCompile(`\b(?:shutil\s*\.\s*move|os\s*\.\s*(?:rename|renames|replace))\s*\(`), "mv --", false},
	{regexp.MustCompile(`\bshutil\s*\.\s*(?:copy|copy2|copyfile|copytree)\s*\(`), "cp -r --", false},
	{regexp.MustCompile(`(` + pyL + `)\s*\.\s*(?:rename|replace|move)\s*\(`), "mv --", true},
	{regexp.MustCompile(`(` + pyL + `)\s*\.\s*(?:copy|copytree)\s*\(`), "cp -r --", true},
}

// pyJoinpath: Path(a).joinpath(b, c) of literals (Path(a) already a literal).
var pyJoinpath = regexp.MustCompile(`(` + pyL + `)\s*\.\s*joinpath\s*\(\s*((?:` + pyL + `\s*,\s*)*` + pyL + `)\s*\)`)

func (n *pyNorm) joinpath(code string) string {
	return pyJoinpath.ReplaceAllStringFunc(code, func(m string) string {
		var parts []string
		for _, l := range pyLit.FindAllStringSubmatch(m, -1) {
			parts = append(parts, strings.TrimSuffix(pyLiteral(l[1], n.strs), "/"))
		}
		return n.lit(strings.Join(parts, "/"))
	})
}

func pyFsOps(code string, strs []string, depth int) Verdict {
	for _, fv := range pyFsVerbs {
		for _, loc := range fv.call.FindAllStringSubmatchIndex(code, -1) {
			args := pyCallArgs(code[loc[1]:])
			var paths []string
			if fv.method {
				paths = append(paths, pyLiteral(pyLit.FindStringSubmatch(code[loc[2]:loc[3]])[1], strs))
			}
			for _, a := range args {
				a = strings.TrimSpace(a)
				if k, v, ok := strings.Cut(a, "="); ok && !strings.ContainsAny(k, "\x01\x02") {
					if k = strings.TrimSpace(k); k != "src" && k != "dst" && k != "target" {
						continue
					}
					a = strings.TrimSpace(v)
				}
				l := pyLit.FindStringSubmatch(a)
				if l == nil || l[0] != a {
					break
				}
				paths = append(paths, pyLiteral(l[1], strs))
			}
			if len(paths) < 2 {
				continue
			}
			cmd := fv.verb
			for _, p := range paths[:2] {
				cmd += " " + shellQuote(p)
			}
			if v := classify(Shell, shell.ForParser(cmd, Shell), depth+1); v.Dangerous {
				return via(v, "Python")
			}
		}
	}
	return Verdict{}
}

var (
	pyWriteLit = regexp.MustCompile(`(` + pyL + `)\s*\.\s*write_(?:text|bytes)\s*\(\s*(` + pyL + `)?`)
	// pyEmptied: what follows open(p, "w") when nothing is written.
	pyEmptied = regexp.MustCompile(`^\s*\)\s*(?:\.\s*close\s*\(\s*\)|\.\s*write\s*\(\s*(` + pyL + `)\s*\)|\s+as\s+\w+\s*:\s*pass\b)`)
)

// pyOverwrites judges a file opened for writing ("w") or rewritten by
// write_text/write_bytes as the shell's > or : > would be: a VCS file,
// dotfile or credential whose contents are replaced or emptied.
var pyTruncZero = regexp.MustCompile(`\bos\s*\.\s*truncate\s*\(\s*(` + pyL + `)\s*,\s*0\s*\)`)

func pyOverwrites(code string, strs []string, _ int) Verdict {
	for _, loc := range pyOpen.FindAllStringIndex(code, -1) {
		rest := code[loc[1]:]
		args := pyCallArgs(rest)
		if len(args) < 2 {
			continue
		}
		mode := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(args[1]), "mode="))
		m := pyLit.FindStringSubmatch(mode)
		p := pyLit.FindStringSubmatch(strings.TrimSpace(args[0]))
		if m == nil || m[0] != mode || p == nil || p[0] != strings.TrimSpace(args[0]) || !strings.Contains(pyLiteral(m[1], strs), "w") {
			continue
		}
		how := byWrite
		end := len(strings.Join(args, ","))
		if e := pyEmptied.FindStringSubmatch(rest[end:]); e != nil && (e[1] == "" || pyLiteral(pyLit.FindStringSubmatch(e[1])[1], strs) == "") {
			how = byEmpty
		}
		if v := overwriteVerdict(pyLiteral(p[1], strs), how); v.Dangerous {
			return v
		}
	}
	for _, m := range pyTruncZero.FindAllStringSubmatch(code, -1) {
		// os.truncate(p, 0) empties p as open(p, 'w') does
		if v := overwriteVerdict(litValue(m[1], strs), byEmpty); v.Dangerous {
			return v
		}
	}
	for _, m := range pyWriteLit.FindAllStringSubmatch(code, -1) {
		p := pyLiteral(pyLit.FindStringSubmatch(m[1])[1], strs)
		if v := checkWriteTarget(p); v.Dangerous {
			return v
		}
		how := byWrite
		if m[2] != "" && pyLiteral(pyLit.FindStringSubmatch(m[2])[1], strs) == "" {
			how = byEmpty
		}
		if v := overwriteVerdict(p, how); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}
