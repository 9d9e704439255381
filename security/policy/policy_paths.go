package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Allowed paths. A word is checked when it may name a file: it contains "/",
// is "~", "." or "..", holds a glob, or names something that exists in the
// working directory (a symlink there may point anywhere). Before the check:
//
//   - "~" and variables are expanded (values assigned earlier in the same
//     input, else the server's environment); a value still unknown (an
//     unset variable, $(cmd), read) is refused, because it could be any
//     path (the arguments of commands that take no files, echo or kill, are
//     not checked);
//   - relative paths are resolved against every directory the input may run
//     in: the cwd argument and the targets of its cd commands;
//   - globs are expanded, and each match checked;
//   - symlinks are followed component by component, before ".." applies, as
//     the kernel does, over the longest existing prefix.

func (ic *inputCheck) checkArg(arg string, write bool) error {
	if len(ic.p.AllowedPaths) == 0 || arg == "" {
		return nil
	}
	if i := strings.IndexByte(arg, '='); i > 0 && (arg[0] == '-' || shell.AssignRe.MatchString(arg)) {
		arg = arg[i+1:]
	}
	if strings.Contains(arg, shell.DynMark) {
		return fmt.Errorf("path %q is computed at run time and cannot be checked; write it out: %w",
			strings.ReplaceAll(arg, shell.DynMark, "$…"), ErrPathNotAllowed)
	}
	if fields := strings.Fields(arg); len(fields) > 1 { // an unquoted value splits into words
		for _, f := range fields {
			if err := ic.checkArg(f, write); err != nil {
				return err
			}
		}
	}
	if shell.URLLike.MatchString(arg) || shell.RemoteLike.MatchString(arg) || strings.HasPrefix(arg, "-") {
		return nil
	}
	p := expandHome(arg, ic.env.home)
	if filepath.IsAbs(p) {
		return ic.p.checkPath(p, arg, write)
	}
	for _, cwd := range ic.cwds {
		if cwd == "" || !pathLike(arg, cwd) {
			continue
		}
		if err := ic.p.checkPath(cwd+string(filepath.Separator)+p, arg, write); err != nil {
			return err
		}
	}
	return nil
}

func pathLike(arg, cwd string) bool {
	if strings.Contains(arg, "/") || arg == "." || arg == ".." || hasGlob(arg) {
		return true
	}
	_, err := os.Lstat(filepath.Join(cwd, arg))
	return err == nil
}

func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// maxGlobMatches bounds how many matches of one glob are checked; a glob
// matching more is checked by its pattern and its first matches only, which
// all lie in the directories the pattern names.
const maxGlobMatches = 256

// checkPath reports whether abs lies within an allowed directory (or, unless
// written to, a readable one). A glob is checked by its pattern and by every
// file it matches.
func (p Policy) checkPath(abs, shown string, write bool) error {
	if hasGlob(abs) {
		matches, _ := filepath.Glob(abs)
		for i, m := range matches {
			if i == maxGlobMatches {
				break
			}
			if err := p.checkOnePath(m, shown, write); err != nil {
				return err
			}
		}
	}
	return p.checkOnePath(abs, shown, write)
}

// ownDescriptors are the names of a session's own open files: what they lead to
// is not the server's to resolve (its /proc/self is not the session's).
var ownDescriptors = shell.Set("/dev/stdin", "/dev/stdout", "/dev/stderr")

func (p Policy) checkOnePath(abs, shown string, write bool) error {
	if clean := filepath.Clean(abs); ownDescriptors[clean] || strings.HasPrefix(clean, "/dev/fd/") {
		return nil
	}
	real := realPath(abs)
	trees := [][]string{p.AllowedPaths, p.Writable}
	if !write {
		trees = append(trees, p.Readable)
	}
	for _, list := range trees {
		for _, a := range list {
			base := absDir(expandHome(a, ""))
			if within(realPath(base), real) || within(base, real) {
				return nil
			}
		}
	}
	return fmt.Errorf("path %q: %w", shown, ErrPathNotAllowed)
}

func within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// maxLinks bounds the symlinks followed for one path (as ELOOP does).
const maxLinks = 40

// realPath resolves an absolute path as the kernel would: component by
// component, following a symlink before a later ".." applies to it (so
// link/../x is the link target's parent, not the link's). The part that does
// not exist is joined lexically: nothing there can be a symlink.
func realPath(p string) string {
	comps := strings.Split(filepath.ToSlash(p), "/")
	cur, links := "/", 0
	for i := 0; i < len(comps); i++ {
		c := comps[i]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		st, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{next}, comps[i+1:]...)...)
		}
		if st.Mode()&os.ModeSymlink != 0 && links < maxLinks {
			links++
			target, err := os.Readlink(next)
			if err != nil {
				return next
			}
			if !filepath.IsAbs(target) {
				target = cur + "/" + target
			}
			comps = append(strings.Split(filepath.ToSlash(target), "/"), comps[i+1:]...)
			cur, i = "/", -1
			continue
		}
		cur = next
	}
	return cur
}

// expandHome expands a leading "~" with home, or the server's HOME when home is "".
func expandHome(p, home string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return p
		}
	}
	return filepath.Join(home, p[1:])
}

// maxCwds bounds the directories one input is checked against.
const maxCwds = 32

// cwdCandidates returns every directory the input may run its commands in:
// the start directories and the targets of cd/pushd, each resolved against
// every candidate, repeated until nothing new appears (a cd in a loop may
// run many times). unknown is true when a target is computed at run time
// ("cd -", cd $DIR with DIR unknown) or there are too many.
func cwdCandidates(f syntax.Node, env *shellEnv, start []string) (cwds []string, unknown bool) {
	seen := map[string]bool{}
	for _, d := range start {
		if d != "" && !seen[d] {
			seen[d] = true
			cwds = append(cwds, d)
		}
	}
	if len(cwds) == 0 {
		return start, false
	}
	var targets [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && len(call.Args) > 0 {
			if name := shell.ShallowLit(call.Args[0].Parts); name == "cd" || name == "pushd" {
				targets = append(targets, cdTargets(call.Args[1:], env))
			}
		}
		return true
	})
	for range maxCwds {
		grew, unknown := addCdTargets(&cwds, seen, targets)
		switch {
		case unknown:
			return cwds, true
		case !grew:
			return cwds, false
		case len(cwds) > maxCwds:
			return cwds, true
		}
	}
	return cwds, true
}

// addCdTargets resolves every cd target against every candidate directory
// and adds the new ones. A relative cd only builds on a directory that
// exists: cd into a missing one fails, and a directory this input creates
// is not built on further (so cd sub in a loop ends).
func addCdTargets(cwds *[]string, seen map[string]bool, targets [][]string) (grew, unknown bool) {
	for _, ts := range targets {
		for _, t := range ts {
			if t == "-" || strings.Contains(t, shell.DynMark) {
				return grew, true
			}
			for _, c := range *cwds {
				d := t
				if !filepath.IsAbs(d) {
					if !isDir(c) {
						continue
					}
					d = c + "/" + d
				}
				if d = realPath(d); !seen[d] {
					seen[d], grew = true, true
					*cwds = append(*cwds, d)
				}
			}
		}
	}
	return grew, false
}

func cdTargets(args []*syntax.Word, env *shellEnv) []string {
	for len(args) > 0 {
		a := shell.ShallowLit(args[0].Parts)
		if a == "--" {
			args = args[1:]
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return []string{expandHome("~", env.home)}
	}
	vals := env.expand(args[0])
	for i, v := range vals {
		vals[i] = expandHome(v, env.home)
	}
	return vals
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
