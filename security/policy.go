package security

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Policy restricts which programs may run and where. The zero Policy allows
// everything.
type Policy struct {
	Allowed      []string // programs; empty = everything allowed
	Blocked      []string // programs always refused
	AllowedPaths []string // directories; empty = no path restriction
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
var alwaysAllowed = set("cd", "pwd", "echo", "printf", "true", "false", "test", "[", ":", "exit", "clear")

// CheckProgram checks the session's own command (create_session).
func (p Policy) CheckProgram(command string) error {
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return nil
	}
	return p.checkName(progName(fields[0]), false)
}

func (p Policy) checkName(name string, builtinOK bool) error {
	if strings.Contains(name, dynMark) {
		if len(p.Allowed) > 0 || len(p.Blocked) > 0 {
			return fmt.Errorf("a program name computed at run time cannot be checked: %w", ErrNotAllowed)
		}
		return nil
	}
	if listed(p.Blocked, name) {
		return fmt.Errorf("program %q: %w", name, ErrBlocked)
	}
	if len(p.Allowed) > 0 && !listed(p.Allowed, name) && !(builtinOK && alwaysAllowed[name]) {
		return fmt.Errorf("program %q: %w", name, ErrNotAllowed)
	}
	return nil
}

func listed(list []string, name string) bool {
	for _, l := range list {
		if progName(strings.TrimSpace(l)) == name {
			return true
		}
	}
	return false
}

// CheckDir checks create_session's working directory against AllowedPaths.
func (p Policy) CheckDir(dir string) error {
	if len(p.AllowedPaths) == 0 {
		return nil
	}
	abs, err := filepath.Abs(expandHome(dir))
	if err != nil {
		return fmt.Errorf("directory %q: %w", dir, ErrPathNotAllowed)
	}
	return p.checkPath(abs, dir)
}

// CheckInput checks every simple command typed into a Shell (or Unknown)
// context: each program (wrappers included) against the lists, and the cwd
// and every path-like argument or redirect target against AllowedPaths.
// Relative paths are resolved against cwd; "~" is expanded. Other contexts
// are not checked.
func (p Policy) CheckInput(ctx Context, input, cwd string) error {
	if ctx != Shell && ctx != Unknown {
		return nil
	}
	if len(p.AllowedPaths) > 0 && cwd != "" {
		if err := p.CheckDir(cwd); err != nil {
			return err
		}
	}
	return p.checkShell(input, cwd, 0)
}

func (p Policy) checkShell(input, cwd string, depth int) error {
	f, err := parseShell(input)
	if err != nil || depth > maxDepth {
		return p.checkTokens(input, cwd)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			err = p.checkCall(n, cwd, depth)
		case *syntax.Redirect:
			if writeOps[n.Op] || n.Op == syntax.RdrIn {
				err = p.checkArg(resolveWord(n.Word).s, cwd)
			}
		}
		return err == nil
	})
	return err
}

func (p Policy) checkCall(call *syntax.CallExpr, cwd string, depth int) error {
	c, ok := buildCommand(call)
	if !ok {
		return nil
	}
	for _, name := range c.programs {
		if err := p.checkName(name, true); err != nil {
			return err
		}
	}
	for _, w := range c.args[1:] {
		if err := p.checkArg(w.s, cwd); err != nil {
			return err
		}
	}
	if shellPrograms[c.name] || c.name == "eval" || c.name == "su" {
		script := strings.Join(lits(c.args[1:]), " ")
		if s, ok := dashC(c.args[1:], 'c', "command"); ok {
			script = s.s
		}
		if c.name == "eval" || ok {
			return p.checkShell(forParser(script, Shell), cwd, depth+1)
		}
	}
	return nil
}

var (
	urlLike    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)
	remoteLike = regexp.MustCompile(`^[^/]*:`) // host:path, user@host:path
)

// checkArg checks one argument if it looks like a path: it starts with "/",
// "~" or ".", or contains "/" (flag values like --out=/x and of=/x count).
func (p Policy) checkArg(arg, cwd string) error {
	if len(p.AllowedPaths) == 0 || arg == "" {
		return nil
	}
	if i := strings.IndexByte(arg, '='); i > 0 && (arg[0] == '-' || assignRe.MatchString(arg)) {
		arg = arg[i+1:]
	}
	if urlLike.MatchString(arg) || remoteLike.MatchString(arg) || strings.HasPrefix(arg, "-") {
		return nil
	}
	if !strings.Contains(arg, "/") && arg != "~" && arg != ".." && arg != "." {
		return nil
	}
	if strings.HasPrefix(arg, dynMark) {
		return fmt.Errorf("path %q is computed at run time and cannot be checked: %w", strings.ReplaceAll(arg, dynMark, "$…"), ErrPathNotAllowed)
	}
	p2 := expandHome(arg)
	if !filepath.IsAbs(p2) {
		if cwd == "" {
			return nil
		}
		p2 = filepath.Join(cwd, p2)
	}
	return p.checkPath(filepath.Clean(p2), arg)
}

// checkPath reports whether abs lies within an allowed directory, following
// symlinks as far as the path exists.
func (p Policy) checkPath(abs, shown string) error {
	real := realPath(abs)
	for _, a := range p.AllowedPaths {
		base, err := filepath.Abs(expandHome(a))
		if err != nil {
			continue
		}
		if within(realPath(base), real) || within(base, abs) && real == abs {
			return nil
		}
	}
	return fmt.Errorf("path %q: %w", shown, ErrPathNotAllowed)
}

func within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realPath resolves symlinks in the longest existing prefix of p.
func realPath(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, p[1:])
}

var shellKeywords = set("do", "then", "else", "elif", "if", "while", "until", "!", "{", "time", "done", "fi")

var tokenSplit = regexp.MustCompile("[;&|()`\n]+")

// checkTokens is the fallback for input the parser rejects: the first word of
// every segment between shell operators is checked as a program, and every
// word as a possible path.
func (p Policy) checkTokens(input, cwd string) error {
	for _, seg := range tokenSplit.Split(input, -1) {
		fields := strings.Fields(seg)
		first := 0
		for first < len(fields) && shellKeywords[fields[first]] {
			first++
		}
		for i, f := range fields {
			f = strings.Trim(f, `'"{}$<>`)
			if i == first && f != "" {
				if err := p.checkName(progName(f), true); err != nil {
					return err
				}
			}
			if err := p.checkArg(f, cwd); err != nil {
				return err
			}
		}
	}
	return nil
}
