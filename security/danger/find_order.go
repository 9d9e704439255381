package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// find's expression is evaluated left to right for each file:
//
//   - -delete before any test (find . -delete -name '*.swp') deletes every
//     file before the test is reached, so it is judged as find START -delete;
//   - -exec of a permission command (chmod, chown, chgrp, setfacl) on {}
//     changes what the start and the name test select, so it is judged as
//     that command on START/**/NAME (find ~ -name '*.pem' -exec chmod 644 {} \;
//     is chmod 644 ~/**/*.pem), or with -R on START when no name is tested.

// findGlobalOpts are find's options that select nothing (with how many
// arguments they take).
var findGlobalOpts = map[string]int{"-depth": 0, "-d": 0, "-maxdepth": 1, "-mindepth": 1, "-xdev": 0, "-mount": 0, "-follow": 0,
	"-noleaf": 0, "-ignore_readdir_race": 0, "-noignore_readdir_race": 0, "-daystart": 0, "-regextype": 1, "-warn": 0, "-nowarn": 0}

// findDeletesFirst: -delete comes before any test in find's expression.
func findDeletesFirst(expr []shell.Word) bool {
	for i := 0; i < len(expr); i++ {
		switch n, opt := findGlobalOpts[expr[i].S]; {
		case expr[i].S == "-delete":
			return i+1 < len(expr) // a test after it, which it ignores
		case opt:
			i += n
		default:
			return false
		}
	}
	return false
}

var findPermCommands = shell.Set("chmod", "chown", "chgrp", "setfacl")

// findExecTarget: the path a -exec command's {} stands for — the start, with
// the name test's pattern below it when there is one.
func findExecTarget(start string, expr []shell.Word) (string, bool) {
	for i, w := range expr {
		if (w.S == "-name" || w.S == "-iname") && i+1 < len(expr) && (i == 0 || expr[i-1].S != "!" && expr[i-1].S != "-not") {
			return path.Join(start, "**", expr[i+1].S), true
		}
	}
	return start, false
}

// checkFindOrder judges the two readings above; starts and expr are find's.
func checkFindOrder(c shell.Command, starts, expr []shell.Word, depth int) Verdict {
	if findDeletesFirst(expr) {
		words := []string{"find"}
		for _, s := range starts {
			words = append(words, shQuotePath(s.S))
		}
		if v := classify(Shell, strings.Join(words, " ")+" -delete", depth+1); v.Dangerous {
			return v
		}
	}
	for i, w := range expr {
		if w.S != "-exec" && w.S != "-execdir" || i+1 >= len(expr) {
			continue
		}
		sub := findExec(expr[i+1:])
		if v := findShellScript(sub, starts, expr, depth); v.Dangerous {
			return v
		}
		if len(sub) < 2 || !findPermCommands[sub[0].S] {
			continue
		}
		for _, s := range starts {
			target, named := findExecTarget(s.S, expr)
			if !named && !findSelectsByMode(expr[:i]) {
				continue // -type d, -user alice…: a subset the command is meant for
			}
			words := []string{sub[0].S}
			if !named {
				words = append(words, "-R") // every file below the start (that the other tests keep)
			}
			for _, a := range sub[1:] {
				if a.S == shell.DynMark {
					words = append(words, shQuotePath(target))
				} else {
					words = append(words, shQuote(a.S))
				}
			}
			if v := classify(Shell, strings.Join(words, " "), depth+1); v.Dangerous {
				return v
			}
		}
	}
	return Verdict{}
}

// shQuotePath quotes a path but keeps a leading ~ and the globs in it live.
func shQuotePath(p string) string {
	var b strings.Builder
	if rest, ok := strings.CutPrefix(p, "~"); ok {
		b.WriteString("~")
		p = rest
	}
	for _, r := range p {
		if strings.ContainsRune("*?/", r) || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+", r) {
			b.WriteRune(r)
		} else {
			b.WriteString(`\` + string(r))
		}
	}
	return b.String()
}

// findSelectsByMode: the tests before -exec are none, or only -perm (the
// files whose mode the command then changes: -perm -4000 -exec chmod u-s).
func findSelectsByMode(tests []shell.Word) bool {
	for i := 0; i < len(tests); i++ {
		n, opt := findGlobalOpts[tests[i].S]
		switch {
		case opt:
			i += n
		case tests[i].S == "-perm":
			i++
		default:
			return false
		}
	}
	return true
}

var scriptArgRef = regexp.MustCompile(`\$(?:\{?[1@*]\}?)`)

// findShellScript: -exec sh -c 'SCRIPT' NAME {} runs SCRIPT with $1 (or $@)
// the file found, so SCRIPT is judged with START/**/NAME in its place
// (find /var/log -name '*.log' -exec sh -c ': > "$1"' _ {} \; empties each log).
func findShellScript(sub []shell.Word, starts, expr []shell.Word, depth int) Verdict {
	if len(sub) < 4 || !shell.ShellPrograms[sub[0].S] || sub[1].S != "-c" || !slices.ContainsFunc(sub[3:], func(w shell.Word) bool { return w.S == shell.DynMark }) {
		return Verdict{}
	}
	if !scriptArgRef.MatchString(sub[2].S) || depth >= shell.MaxDepth {
		return Verdict{}
	}
	for _, s := range starts {
		target, _ := findExecTarget(s.S, expr)
		script := scriptArgRef.ReplaceAllLiteralString(sub[2].S, shQuotePath(target))
		if v := classifyShell(script, depth+1); v.Dangerous {
			return via(v, "find -exec")
		}
	}
	return Verdict{}
}
