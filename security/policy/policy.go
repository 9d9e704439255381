package policy

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/danger"
	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Policy restricts which programs may run and where. The zero Policy allows
// everything. List entries are resolved to real files when checked (see
// resolve.go); AllowedPaths are checked after resolving paths as the shell
// and the kernel would (see policy_paths.go).
type Policy struct {
	Allowed      []string // programs; empty = everything allowed
	Blocked      []string // programs always refused
	AllowedPaths []string // directories; empty = no path restriction
	// Home is the session's HOME: what "~" and an unassigned $HOME in checked
	// input expand to. Empty means the server's. (The lists' and AllowedPaths' own
	// "~" are the operator's, expanded with the server's HOME.)
	Home string
	// Readable are the trees the kernel lets a session read beside AllowedPaths
	// (the system paths, /proc), and Writable those it may also write (the
	// devices it grants, /dev/null and the like, and a shared /tmp): the text
	// check of AllowedPaths takes the same view, refusing only a write redirect
	// into a Readable tree. The session's own descriptors (/dev/stderr,
	// /dev/fd/N) are always allowed.
	Readable, Writable []string
}

// Sentinels callers branch on with errors.Is. Returned errors wrap them and
// name the program or path.
var (
	ErrBlocked        = errors.New("blocked by policy")
	ErrNotAllowed     = errors.New("not in the allowed programs")
	ErrPathNotAllowed = errors.New("outside the allowed paths")
)

// alwaysAllowed are shell builtins an allow-list need not name; they run no
// program and reach no file by themselves (paths they take are still checked).
var alwaysAllowed = shell.Set("cd", "pwd", "echo", "printf", "true", "false", "test", "[", ":", "exit", "clear")

// lists is a Policy's allow and block lists, resolved for one check.
type lists struct {
	allowed, blocked []listEntry
}

func (p Policy) lists() lists {
	return lists{allowed: resolveList(p.Allowed), blocked: resolveList(p.Blocked)}
}

func (l lists) active() bool { return len(l.allowed) > 0 || len(l.blocked) > 0 }

// check judges one program. Builtins (alwaysAllowed, typed without a "/")
// pass the allow-list but not the block-list.
func (l lists) check(prog program, builtinOK bool) error {
	if !l.active() {
		return nil
	}
	if strings.Contains(prog.typed, shell.DynMark) {
		return fmt.Errorf("a program name computed at run time cannot be checked: %w", ErrNotAllowed)
	}
	if prog.descriptor {
		return fmt.Errorf("program %q runs a file the session holds open, which cannot be checked: %w", prog.typed, ErrNotAllowed)
	}
	shown := prog.typed
	if prog.file != "" && prog.file != prog.typed {
		shown += " (" + prog.file + ")"
	}
	if blockedBy(l.blocked, prog) {
		return fmt.Errorf("program %q: %w", shown, ErrBlocked)
	}
	builtin := builtinOK && alwaysAllowed[prog.name] && !strings.Contains(prog.typed, "/")
	if len(l.allowed) > 0 && !builtin && !allowedBy(l.allowed, prog) {
		return fmt.Errorf("program %q: %w", shown, ErrNotAllowed)
	}
	return nil
}

// CheckProgram checks the session's own command (create_session). A bare
// name is looked up on the server's PATH, a relative path against the
// server's working directory; use CheckProgramIn when the session gets its
// own directory.
func (p Policy) CheckProgram(command string) error {
	return p.CheckProgramIn(command, "")
}

// CheckProgramIn is CheckProgram for a session started in dir: a relative
// command (./bin/tool) is resolved against dir, as the session will run it.
func (p Policy) CheckProgramIn(command, dir string) error {
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return nil
	}
	return p.lists().check(resolveProgram(fields[0], dir, os.Getenv("PATH"), p.Home), false)
}

// CheckDir checks create_session's working directory against AllowedPaths.
func (p Policy) CheckDir(dir string) error {
	if len(p.AllowedPaths) == 0 {
		return nil
	}
	return p.checkPath(absDir(expandHome(dir, p.Home)), dir, false)
}

// CheckInput checks every simple command typed into a Shell (or Unknown)
// context, wherever it sits (lists, pipelines, $( ), bash -c, eval): each
// program, wrappers included, against the lists, resolved on PATH (or the
// PATH the input assigns) and against cwd; and the cwd and every path-like
// argument or redirect target against AllowedPaths. cwd is the directory of
// the program in front (the server passes /proc/<pid>/cwd); "" leaves
// relative paths unchecked. Other contexts are not checked.
func (p Policy) CheckInput(ctx danger.Context, input, cwd string) error {
	if ctx != danger.Shell && ctx != danger.Unknown {
		return nil
	}
	if len(p.AllowedPaths) > 0 && cwd != "" {
		if err := p.CheckDir(cwd); err != nil {
			return err
		}
	}
	l := p.lists()
	if !l.active() && len(p.AllowedPaths) == 0 {
		return nil
	}
	return p.checkShell(l, input, []string{cwd}, 0)
}

// inputCheck carries what one parsed input knows while it is checked.
type inputCheck struct {
	p          Policy
	l          lists
	env        *shellEnv
	pathEnv    string
	cwds       []string // every directory the input may run in
	cwdUnknown bool     // a cd to a directory computed at run time
	depth      int
}

func (p Policy) checkShell(l lists, input string, cwds []string, depth int) error {
	f, err := shell.Parse(input)
	if err != nil || depth > shell.MaxDepth {
		return p.checkTokens(l, input, cwds)
	}
	env := newShellEnv(f, p.Home)
	if len(cwds) == 1 {
		env.pwd = cwds[0]
	}
	ic := &inputCheck{p: p, l: l, env: env, pathEnv: env.pathEnv(), depth: depth}
	ic.cwds, ic.cwdUnknown = cwdCandidates(f, env, cwds)
	if ic.cwdUnknown && len(p.AllowedPaths) > 0 {
		return fmt.Errorf("the input changes to a directory computed at run time (cd -, cd $DIR), so its relative paths cannot be checked: %w", ErrPathNotAllowed)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			err = ic.checkCall(n)
		case *syntax.Redirect:
			if (shell.WriteOps[n.Op] || n.Op == syntax.RdrIn) && n.Word != nil {
				err = ic.checkWord(n.Word, shell.WriteOps[n.Op])
			}
		case *syntax.Assign:
			if n.Name != nil && shellCode[n.Name.Value] && n.Value != nil {
				// The shell runs it before each prompt: a line like a typed one.
				if v := shell.ResolveWord(n.Value); !v.Dyn() {
					err = ic.checkLine(v.S)
				}
			}
		}
		return err == nil
	})
	return err
}

// shellCode are the variables whose value bash runs as a command line.
var shellCode = shell.Set("PROMPT_COMMAND")

// noFileArgs are commands whose arguments are never files, so an argument
// computed at run time (kill $(pgrep x), echo $X) need not be refused.
var noFileArgs = shell.Set("echo", "printf", "true", "false", ":", "exit", "clear", "pwd", "kill", "sleep", "seq", "wait", "jobs", "return", "shift")

func (ic *inputCheck) checkCall(call *syntax.CallExpr) error {
	c, ok := shell.BuildCommand(call)
	if !ok {
		return nil
	}
	for i, typed := range c.ProgArgs {
		if i == 0 && strings.Contains(typed, shell.DynMark) && len(call.Args) > 0 {
			if vals := ic.env.expand(call.Args[0]); len(vals) == 1 {
				typed = vals[0] // x=rm; $x: the value the input gave it
			}
		}
		for _, cwd := range ic.cwds {
			if err := ic.l.check(resolveProgram(typed, cwd, ic.pathEnv, ic.env.home), true); err != nil {
				return err
			}
		}
	}
	if !noFileArgs[c.Name] { // the arguments of echo, kill or seq are never files
		for _, a := range call.Args[1:] {
			if err := ic.checkWord(a, false); err != nil {
				return err
			}
		}
	}
	for _, a := range call.Assigns {
		if a.Value != nil && (a.Name == nil || !shellCode[a.Name.Value]) {
			if err := ic.checkWord(a.Value, false); err != nil {
				return err
			}
		}
	}
	return ic.checkNested(c)
}

// checkNested checks the script of bash -c, su -c and eval like typed input, and
// the command lines launchers and find -exec run (danger.RunsLines).
func (ic *inputCheck) checkNested(c shell.Command) error {
	for _, line := range danger.RunsLines(c) {
		if err := ic.checkLine(line); err != nil {
			return err
		}
	}
	if !shell.ShellPrograms[c.Name] && c.Name != "eval" && c.Name != "su" {
		return nil
	}
	script := strings.Join(shell.Lits(c.Args[1:]), " ")
	s, ok := shell.DashC(c.Args[1:], 'c', "command")
	if ok {
		script = s.S
	}
	if c.Name != "eval" && !ok {
		return nil
	}
	return ic.checkLine(script)
}

// checkWord checks the paths word w can name; write says it is written to (a
// redirect's target).
func (ic *inputCheck) checkWord(w *syntax.Word, write bool) error {
	if len(ic.p.AllowedPaths) == 0 {
		return nil
	}
	for _, v := range ic.env.expand(w) {
		if err := ic.checkArg(v, write); err != nil {
			return err
		}
	}
	return nil
}

// checkLine checks a command line the input has run (bash -c's script, a
// launcher's, PROMPT_COMMAND's) like typed input.
func (ic *inputCheck) checkLine(line string) error {
	return ic.p.checkShell(ic.l, shell.ForParser(line, danger.Shell), ic.cwds, ic.depth+1)
}

var shellKeywords = shell.Set("do", "then", "else", "elif", "if", "while", "until", "!", "{", "time", "done", "fi")

var tokenSplit = regexp.MustCompile("[;&|()`\n]+")

// checkTokens is the fallback for input the parser rejects: the first word of
// every segment between shell operators is checked as a program, and every
// word as a possible path.
func (p Policy) checkTokens(l lists, input string, cwds []string) error {
	ic := &inputCheck{p: p, l: l, env: &shellEnv{vals: map[string][]string{}, unknown: map[string]bool{}, home: p.Home}, pathEnv: os.Getenv("PATH"), cwds: cwds}
	for _, seg := range tokenSplit.Split(input, -1) {
		fields := strings.Fields(seg)
		first := 0
		for first < len(fields) && shellKeywords[fields[first]] {
			first++
		}
		for i, f := range fields {
			f = strings.Trim(f, `'"{}<>`)
			if strings.Contains(f, "$") {
				f = shell.DynMark
			}
			if i == first && f != "" {
				if err := ic.l.check(resolveProgram(f, cwds[0], ic.pathEnv, ic.env.home), true); err != nil {
					return err
				}
			}
			if err := ic.checkArg(f, false); err != nil && len(p.AllowedPaths) > 0 {
				return err
			}
		}
	}
	return nil
}
