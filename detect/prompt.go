package detect

import (
	"regexp"
	"strings"
)

// A PromptPattern recognises the prompt of one family of programs. It is matched
// against the cursor's line, up to the cursor, every time: nothing is learned once, so
// a changed PS1 or a REPL started inside a shell keeps working.
type PromptPattern struct {
	Name string
	re   *regexp.Regexp
}

// prompts is the library, most specific first so the reported name is useful. Every
// pattern is anchored at the end: a prompt is what the cursor sits right after.
var prompts = []PromptPattern{
	{"python", regexp.MustCompile(`^(>>>|\.\.\.|help>) $`)},        // help> is help()'s own loop
	{"ipython", regexp.MustCompile(`^(In \[\d+\]|\s+\.\.\.): +$`)}, // a continuation is indented for the block
	{"psql", regexp.MustCompile(`^[\w.\-]*[=\-'"(*^$][#>] $`)},
	{"mysql", regexp.MustCompile(`^(mysql|MariaDB \[[^\]]*\])> $|^\s*(->|'>|">|` + "`" + `>|/\*>) $`)},
	{"sqlite3", regexp.MustCompile(`^(sqlite|\s*\.\.\.)> $`)},
	{"irb", regexp.MustCompile(`^irb\([^)]*\):\d+(:\d+)?[>*"'] $`)},
	{"redis-cli", regexp.MustCompile(`^(\S+:\d+|not connected)(\[\d+\])?(\(TX\))?> $`)},
	{"gdb", regexp.MustCompile(`^\(gdb\) $`)},
	{"pdb", regexp.MustCompile(`^\(Pdb\) $`)},
	// "> " is node's, lua's, and many more REPLs': the session names the program in
	// front beside it rather than guess here.
	{"repl", regexp.MustCompile(`^(>>?|\.\.\.) $`)},
	// Shells: bash, sh, dash, zsh, ksh, fish and their common themes end the prompt
	// with one of these characters followed by a space.
	{"shell", regexp.MustCompile(`[$#%>❯➜»λ] $`)},
}

// MatchPrompt reports whether line (the cursor line up to the cursor) ends in a known
// prompt, and which family it looks like.
func MatchPrompt(line string) (name string, ok bool) {
	if line == "" || !strings.HasSuffix(line, " ") {
		return "", false
	}
	for _, p := range prompts {
		if p.re.MatchString(line) {
			return p.Name, true
		}
	}
	return "", false
}
