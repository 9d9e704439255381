package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// classifyREPL judges input typed into a REPL that is neither a shell, an SQL
// client nor Python. Each has escapes that run a shell command (gdb "shell",
// vim ":!", less "!"), judged with the shell rules, and the JavaScript and
// Ruby consoles have calls that run commands or delete trees. Anything else
// typed there is the program's own business and passes.
func classifyREPL(ctx Context, input string, depth int) Verdict {
	if v := checkDecodedRun(ctx, input); v.Dangerous {
		return v
	}
	switch ctx {
	case Node:
		return classifyNode(input, depth)
	case Ruby:
		return classifyRuby(input, depth)
	case Debugger:
		if killsAttachedInit(input) {
			return hit("kill-init")
		}
	case Editor:
		if v := vimSession(input, depth); v.Dangerous {
			return v
		}
	}
	for line := range strings.Lines(input) {
		// gdb "python …" and vim ":py3 …" run Python.
		if m := replPython.FindStringSubmatch(strings.TrimSpace(line)); m != nil && (ctx == Debugger) == (m[1] == "") {
			if v := classifyPython(m[2], depth+1); v.Dangerous {
				return via(v, "an embedded Python")
			}
		}
		var more Verdict
		switch ctx {
		case Debugger:
			more = debuggerMore(strings.TrimSpace(line), depth)
		case Editor:
			more = editorMore(strings.TrimSpace(line), depth)
		}
		if more.Dangerous {
			return more
		}
		if v := replEffects(ctx, strings.TrimSpace(line), depth); v.Dangerous {
			return v
		}
		var cmd string
		var ok bool
		switch ctx {
		case Debugger:
			cmd, ok = gdbEscape(strings.TrimSpace(line))
		case Editor:
			cmd, ok = vimEscape(strings.TrimSpace(line))
		case Pager:
			cmd, ok = lessEscape(strings.TrimSpace(line))
		}
		if !ok {
			continue
		}
		if v := classify(Shell, cmd, depth+1); v.Dangerous {
			return via(v, "a "+ctx.String()+" shell escape")
		}
	}
	return Verdict{}
}

// replPython: gdb's "python CODE" / "pi CODE", vim's ":python3 CODE" / ":py3 CODE" / ":pyx CODE".
var replPython = regexp.MustCompile(`^(:+\s*)?(?:python3?|py3?|pyx|pythonx|pi|script)\s+(.+)$`)

var (
	gdbShell = regexp.MustCompile(`^(?:shell\s+|!\s*)(.*)$`)
	// gdb's pipe: "pipe [cmd] | shell-cmd" or "| [cmd] | shell-cmd".
	gdbPipe = regexp.MustCompile(`^(?:pipe\s+|\|\s*)(?:-d\s+\S\s+)?[^|]*\|\s*(.*)$`)
	// call/print system("...") runs a shell in the inferior.
	gdbCall = regexp.MustCompile(`^(?:call|print|p)\b.*\bsystem\s*\(\s*"((?:[^"\\]|\\.)*)"`)
)

// gdbListsFiles: gdb commands whose output is the paths of the files the
// program has loaded (its shared libraries, its memory mappings, its
// executable), so a shell that acts on each line acts on system libraries.
var gdbListsFiles = regexp.MustCompile(`^(?:pipe\s+|\|\s*)(?:-d\s+\S\s+)?(?:info|i)\s+(?:sharedlibrary|shared|dll|proc\s+map(?:pings)?|files|target)\b`)

func gdbEscape(line string) (string, bool) {
	if m := gdbPipe.FindStringSubmatch(line); m != nil && gdbListsFiles.MatchString(line) {
		return "echo /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libm.so.6 | " + m[1], true
	}
	for _, re := range []*regexp.Regexp{gdbShell, gdbPipe, gdbCall} {
		if m := re.FindStringSubmatch(line); m != nil {
			return strings.ReplaceAll(m[1], `\"`, `"`), true
		}
	}
	return "", false
}

var (
	// vimBang: ":!cmd", ":silent !cmd", ":r !cmd", ":w !cmd", ":{range}!cmd", ":terminal cmd".
	vimBang = regexp.MustCompile(`^:+\s*(?:sil(?:ent)?!?\s+)?(?:(?:r(?:ead)?\s*|w(?:rite)?\s+|[%.$,0-9']*)!|term(?:inal)?\s+(?:\+\+\w+\s+)*)(.*)$`)
	// vimWrite: ":w path", ":w! path", ":sav path", ":wq path" write the buffer to a file.
	vimWrite  = regexp.MustCompile(`^:+\s*(?:w(?:rite)?|wq|x|sav(?:eas)?|up(?:date)?)!?\s+(?:>>\s*)?([^!\s|]\S*)\s*$`)
	vimSystem = regexp.MustCompile(`\bsystem(?:list)?\s*\(\s*(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)")`)
)

func vimEscape(line string) (string, bool) {
	if m := vimBang.FindStringSubmatch(line); m != nil {
		// %, # and ! are the current file, the alternate file and the
		// previous command; only a bare "%" is harmless as tee's target.
		return strings.TrimSpace(m[1]), true
	}
	if m := vimWrite.FindStringSubmatch(line); m != nil && !vimCreatesOnly(line) {
		return "cat > " + m[1], true
	}
	if strings.HasPrefix(line, ":") {
		if m := vimSystem.FindStringSubmatch(line); m != nil {
			return m[1] + m[2], true
		}
	}
	return "", false
}

// lessPipe: "|" then a mark letter (or ^, $, .) then the command.
var lessPipe = regexp.MustCompile(`^\|\s*[a-z^$.]\s*(.*)$`)

func lessEscape(line string) (string, bool) {
	if cmd, ok := strings.CutPrefix(line, "!"); ok {
		return cmd, true
	}
	if m := lessPipe.FindStringSubmatch(line); m != nil {
		return m[1], true
	}
	return "", false
}

// isCodeContext reports whether ctx is a REPL that classifyREPL judges.
func isCodeContext(ctx Context) bool {
	switch ctx {
	case Node, Ruby, Debugger, Editor, Pager:
		return true
	}
	return false
}

// judgeCommand judges a command line run by a REPL call.
func judgeCommand(cmd string, depth int, how string) Verdict {
	return via(classify(Shell, shell.ForParser(cmd, Shell), depth+1), how)
}

var (
	// gdb's attach, lldb's process attach --pid / -p
	gdbAttachInit = regexp.MustCompile(`^(?:attach|at|process\s+attach\s+(?:--pid|-p))\s+1$`)
	// gdbKillCmd: kill, a fatal signal, or an expression run in the process
	// (call, print, output, lldb's expr, casts allowed) that ends it: exit,
	// _exit, abort, raise or kill(getpid()) of a fatal signal.
	gdbKillCmd = regexp.MustCompile(`^(?:kill|k|process\s+kill|(?:process\s+)?signal\s+(?:SIG)?(?:KILL|TERM|ABRT|9|15|6)|` +
		`(?:call|print|p|output|expr(?:ession)?)\s+(?:\(\s*\w+\s*\*?\s*\)\s*)?(?:(?:exit|_exit|_Exit|abort|quick_exit)\s*\(|` +
		`raise\s*\(\s*(?:SIG)?(?:KILL|TERM|ABRT|9|15|6)\s*\)|kill\s*\(\s*(?:getpid\s*\(\s*\)|0)\s*,).*)$`)
)

// killsAttachedInit: gdb attached to pid 1 (attach 1) and then told to kill
// it, or to make it exit: the system goes down with init.
func killsAttachedInit(input string) bool {
	attached := false
	for line := range strings.Lines(input) {
		t := strings.TrimSpace(line)
		attached = attached || gdbAttachInit.MatchString(t)
		if attached && gdbKillCmd.MatchString(t) {
			return true
		}
	}
	return false
}
