package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Commands a one-liner assembles before running them: perl's
// system("rm -rf " . $ENV{HOME}), system(@c) after my @c = ("rm", "-rf", D),
// exec "rm", "-rf", D; ruby's and PHP's alike. The string literals of the
// call's arguments, with variables assigned a literal put back and the home
// directory's spellings as ~, are judged as the command line they join to,
// both as one concatenated string and as an argument list.

var (
	builtCall   = regexp.MustCompile(`\b(?:system|exec|spawn|spawnSync|execSync|execFileSync|passthru|shell_exec|popen|Kernel\.system|Process\.spawn)\b\s*`)
	builtAssign = regexp.MustCompile(`(?:\bmy\s+|\bour\s+|\blocal\s+|\bconst\s+|\blet\s+|\bvar\s+)?([$@]?[A-Za-z_]\w*)\s*=\s*([^;=][^;]*)`)
	builtVar    = regexp.MustCompile(`[$@][A-Za-z_]\w*|\b[A-Za-z_]\w*\b`)
	// builtToken: a string literal, or a name concatenated to one ("rm -rf " . $dir).
	builtToken = regexp.MustCompile(`"([^"]*)"|'([^']*)'|\x60([^\x60]*)\x60|(~)|([.+]\s*[$@]?[A-Za-z_][\w.]*(?:\(\))?|[$@]?[A-Za-z_][\w.]*(?:\(\))?\s*[.+][^.+=])`)
)

// builtCommands returns the command lines the calls in code may run.
func builtCommands(code string) []string {
	if !builtCall.MatchString(code) {
		return nil
	}
	code = scriptHome.ReplaceAllString(code, `"~"`)
	vars := map[string]string{}
	for _, m := range builtAssign.FindAllStringSubmatch(code, -1) {
		if scriptStr.MatchString(m[2]) {
			vars[m[1]] = m[2]
		}
	}
	var out []string
	for _, loc := range builtCall.FindAllStringIndex(code, -1) {
		args := callArgsText(code[loc[1]:])
		if len(vars) > 0 {
			args = builtVar.ReplaceAllStringFunc(args, func(v string) string {
				if rhs, ok := vars[v]; ok {
					return rhs
				}
				return v
			})
		}
		words := builtWords(args)
		if len(words) > 1 && strings.TrimSpace(words[0]) == "" {
			words = words[1:] // join(" ", LIST): the separator
		}
		switch {
		case len(words) == 1 && strings.ContainsAny(words[0], " \t"):
			out = append(out, words[0]) // a command line
		case len(words) > 1:
			for i, w := range words {
				if !strings.Contains(w, "$X") {
					words[i] = shellQuote(w)
				}
			}
			out = append(out, strings.Join(words, " ")) // an argument list
		}
	}
	return out
}

// builtWords: the arguments args stands for, each the concatenation of
// its literals (a name concatenated to one stands for a value known only at
// run time); commas separate arguments.
func builtWords(args string) []string {
	var words []string
	cur, prev, open := "", 0, false
	for _, loc := range builtToken.FindAllStringSubmatchIndex(args, -1) {
		if open && strings.Contains(args[prev:loc[0]], ",") {
			words, cur = append(words, cur), ""
		}
		prev, open = loc[1], true
		if loc[10] >= 0 {
			cur += "$X"
			continue
		}
		for g := 2; g <= 8; g += 2 {
			if loc[g] >= 0 {
				cur += args[loc[g]:loc[g+1]]
			}
		}
	}
	if open {
		words = append(words, cur)
	}
	return words
}

// callArgsText: the text of a call's arguments, in balanced parentheses or
// (perl's and ruby's calls without them) up to the end of the statement.
func callArgsText(s string) string {
	if strings.HasPrefix(s, "(") {
		depth := 0
		for i, r := range s {
			switch r {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return s[1:i]
				}
			}
		}
		return s[1:]
	}
	if i := strings.IndexAny(s, ";\n}"); i >= 0 {
		return s[:i]
	}
	return s
}

// checkBuiltCommands judges the command lines builtCommands finds.
func checkBuiltCommands(name, code string, depth int) Verdict {
	for _, line := range builtCommands(code) {
		if v := classifyShell(shell.ForParser(line, Shell), depth+1); v.Dangerous {
			return via(v, name)
		}
	}
	return Verdict{}
}
