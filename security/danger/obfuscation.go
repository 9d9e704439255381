package danger

import (
	"encoding/base64"
	"path"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Code built on the same line and handed to an interpreter: `source <(echo
// rm -rf ~)`, `bash <(printf … | base64 -d)`. When the text is literal it is
// judged as the code it is, rather than waved through or refused unread.

// printedText is the literal text statements print, when it can be known
// without running anything: echo, printf and the decoders shell.StdinText
// follows, alone or in a pipeline.
func printedText(stmts []*syntax.Stmt) (string, bool) {
	if len(stmts) != 1 || stmts[0] == nil {
		return "", false
	}
	stages := shell.Stages(stmts[0])
	cmds, ok := shell.StageCommands(stages)
	if !ok {
		return "", false
	}
	text, known := "", false
	for i, c := range cmds {
		if text, known = shell.StdinText(c, stages[i].Redirs, text, known); !known {
			return "", false
		}
	}
	return text, known
}

// checkSubstCode judges the code an interpreter reads from a process
// substitution whose output is literal: bash <(echo …), source <(printf …).
func checkSubstCode(c shell.Command, depth int) Verdict {
	for _, w := range c.Args[1:] {
		ps, ok := firstPart(w.Node).(*syntax.ProcSubst)
		if !ok || len(w.Node.Parts) != 1 {
			continue
		}
		text, ok := printedText(ps.Stmts)
		if !ok {
			continue
		}
		var v Verdict
		if shell.PythonProgram.MatchString(c.Name) {
			v = classifyPython(shell.ForParser(text, Python), depth+1)
		} else {
			v = classifyShell(shell.ForParser(text, Shell), depth+1)
		}
		if v.Dangerous {
			return via(v, c.Name+" <(…)")
		}
	}
	return Verdict{}
}

// checkInlineFuncs judges a function defined and called in the same input
// with the call's literal arguments in place of $1… and "$@":
// f(){ rm -rf "$1"; }; f ~.
func checkInlineFuncs(f *syntax.File, depth int) Verdict {
	bodies := map[string]string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil && fd.Body != nil {
			var b strings.Builder
			if syntax.NewPrinter().Print(&b, fd.Body) == nil {
				bodies[fd.Name.Value] = b.String()
			}
		}
		return true
	})
	if len(bodies) == 0 {
		return Verdict{}
	}
	var v Verdict
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || v.Dangerous || len(call.Args) < 2 {
			return !v.Dangerous
		}
		body, ok := bodies[shell.ShallowLit(call.Args[0].Parts)]
		if !ok {
			return true
		}
		args := make([]string, 0, len(call.Args)-1)
		for _, a := range call.Args[1:] {
			w := shell.ResolveWord(a)
			if w.Dyn() {
				return true
			}
			args = append(args, shellQuote(w.S))
		}
		body = posParams.ReplaceAllStringFunc(body, func(m string) string {
			m = strings.Trim(m, `"${}`)
			if m == "@" || m == "*" {
				return strings.Join(args, " ")
			}
			if i := int(m[0] - '1'); i < len(args) {
				return args[i]
			}
			return ""
		})
		v = via(classifyShell(body, depth+1), "a function")
		return !v.Dangerous
	})
	return v
}

var posParams = regexp.MustCompile(`"?\$(?:[1-9@*]|\{[1-9@*]\})"?`)

// shellQuote quotes s for the shell, leaving ~ and plain words as they are
// so that the judged text reads as typed.
func shellQuote(s string) string {
	if s == "~" || strings.HasPrefix(s, "~/") || !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}!#") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// globPrograms are the programs a globbed command name (/bin/r?, /???/rm)
// is tried as: the ones whose misuse the rules judge.
var globPrograms = []string{"rm", "dd", "shred", "mkfs", "wipefs", "chmod", "chown", "reboot", "shutdown",
	"halt", "poweroff", "init", "kill", "pkill", "killall", "git", "kubectl", "docker", "userdel", "crontab",
	"sh", "bash", "curl", "wget", "nc", "ncat", "python3", "perl", "find", "truncate", "mv", "cp", "tee"}

// checkGlobbedName judges a command whose program name is a glob as each
// program it could match.
func checkGlobbedName(c shell.Command, depth int) Verdict {
	if !strings.ContainsAny(c.Name, "?*[") || strings.Contains(c.Name, shell.DynMark) {
		return Verdict{}
	}
	if broadGlob(path.Base(c.Name)) {
		// *, ***, /*: a pattern that names no program in particular (the
		// first file of a directory), such as a pasted comment or banner.
		return Verdict{}
	}
	for _, p := range globPrograms {
		if ok, _ := path.Match(c.Name, p); ok {
			d := c
			d.Name = p
			d.Programs = append(append([]string(nil), c.Programs...), p)
			if v := checkCommand(d, depth); v.Dangerous {
				return v
			}
		}
	}
	return Verdict{}
}

var (
	scriptB64Decode = regexp.MustCompile(`decode_base64|'base64'|"base64"|atob\(|Base64\.decode64|base64_decode`)
	scriptRuns      = regexp.MustCompile("\\b(?:system|exec|execSync|spawn|spawnSync|popen|passthru|shell_exec|proc_open)\\b|`")
	scriptB64Lit    = regexp.MustCompile(`["']([A-Za-z0-9+/]{8,}={0,2})["']`)
)

// checkScriptB64 judges base64 literals a one-liner decodes, as the shell
// commands they usually are: perl -MMIME::Base64 -e 'system(decode_base64("…"))'.
func checkScriptB64(name, code string, depth int) Verdict {
	if !scriptB64Decode.MatchString(code) || !scriptRuns.MatchString(code) {
		return Verdict{}
	}
	for _, m := range scriptB64Lit.FindAllStringSubmatch(code, -1) {
		b, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			continue
		}
		if v := classifyShell(shell.ForParser(string(b), Shell), depth+1); v.Dangerous {
			return via(v, name+" base64")
		}
	}
	return Verdict{}
}

// checkXargsReplace judges xargs -I{} with each known input line in place
// of {} in its command: xargs -I{} sh -c '{}' <<< 'rm -rf ~'.
func checkXargsReplace(c shell.Command, text string, depth int) Verdict {
	if !c.MoreArgs {
		return Verdict{}
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		d := c
		d.Args = make([]shell.Word, len(c.Args))
		changed := false
		for i, w := range c.Args {
			d.Args[i] = shell.Word{S: strings.ReplaceAll(w.S, "{}", line)}
			changed = changed || d.Args[i].S != w.S
		}
		if !changed {
			return Verdict{}
		}
		if v := checkCommand(d, depth); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}
