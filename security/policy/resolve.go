package policy

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Allow and block lists name programs; what runs is a file. Both sides are
// resolved to the real file they denote before they are compared:
//
//   - A list entry that is a bare name ("bash") is looked up on the server's
//     PATH (exec.LookPath) and its symlinks followed (filepath.EvalSymlinks):
//     it stands for that file, wherever a command reaches it from
//     (/bin/bash, /usr/bin/bash, a symlink to it). Its name is kept too, so a
//     command that resolves to the same file under another name of that file
//     (python3.11 for python3 → python3.11) matches, while another applet of a
//     multi-call binary (busybox rm for busybox ls) does not.
//   - A list entry with a "/" is that file only (symlinks followed).
//   - A command with a "/" (/tmp/evil/bash, ./bash) is resolved against the
//     working directory, a bare command name against PATH, and symlinks are
//     followed.
//
// An allow-list entry matches only the same file, so /tmp/evil/bash does not
// pass as bash. A block-list entry that is a bare name also matches any
// program of that name, wherever it lives: blocking errs on the safe side.

// program is a program as a command names it and the file that would run.
type program struct {
	name  string // base name as typed
	file  string // real path; "" when it cannot be found
	typed string // as typed, for messages
	// descriptor: a path through a process's descriptors (/proc/self/fd/7,
	// /dev/fd/7), which names what the session's program has open: nothing this
	// server can look up (found by an independent probe: it resolved against the
	// server's own /proc/self).
	descriptor bool
}

// descriptorPath matches a path into a process's open files.
var descriptorPath = regexp.MustCompile(`^/(proc/(self|thread-self|\d+)(/task/\d+)?/(fd|map_files|exe|cwd|root)|dev/fd|dev/std(in|out|err))(/|$)`)

// resolveProgram finds the file arg runs: relative paths against cwd (the
// server's own directory when cwd is empty), bare names on pathEnv.
func resolveProgram(arg, cwd, pathEnv, home string) program {
	p := program{name: shell.ProgName(arg), typed: arg}
	switch {
	case strings.Contains(arg, shell.DynMark):
		return p
	case strings.Contains(arg, "/"):
		abs := expandHome(arg, home)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(absDir(cwd), abs)
		}
		if descriptorPath.MatchString(filepath.Clean(abs)) {
			p.descriptor = true
			return p
		}
		p.file = realFile(abs)
	default:
		if f, err := lookPath(arg, pathEnv); err == nil {
			p.file = realFile(f)
		}
	}
	return p
}

func absDir(dir string) string {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	return abs
}

// realFile follows symlinks; it returns "" if p does not exist.
func realFile(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	if abs, err := filepath.Abs(r); err == nil {
		return abs
	}
	return r
}

// lookPath is exec.LookPath on the server's PATH, or the same search on
// another PATH (one the input assigns).
func lookPath(name, pathEnv string) (string, error) {
	if pathEnv == os.Getenv("PATH") {
		return exec.LookPath(name)
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			dir = "."
		}
		f := filepath.Join(dir, name)
		if st, err := os.Stat(f); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return f, nil
		}
	}
	return "", &exec.Error{Name: name, Err: fs.ErrNotExist}
}

// listEntry is one entry of an allow or block list, resolved.
type listEntry struct {
	name   string
	file   string // "" when it cannot be found
	isPath bool
}

func resolveEntry(e string) listEntry {
	e = strings.TrimSpace(e)
	if strings.Contains(e, "/") {
		abs := absDir(expandHome(e, ""))
		f := realFile(abs)
		if f == "" {
			f = abs // a path that does not exist yet still names that path
		}
		return listEntry{name: shell.ProgName(e), file: f, isPath: true}
	}
	le := listEntry{name: e}
	if f, err := exec.LookPath(e); err == nil {
		le.file = realFile(f)
	}
	return le
}

// sameProgram: the same file, reached under the entry's name, the file's own
// name, or (for the entry) the file's own name.
func (e listEntry) sameProgram(p program) bool {
	if e.isPath {
		return p.file != "" && p.file == e.file
	}
	if e.file == "" || p.file == "" {
		return e.file == "" && p.file == "" && e.name == p.name
	}
	base := filepath.Base(e.file)
	return e.file == p.file && (p.name == e.name || p.name == base || e.name == base)
}

func resolveList(list []string) []listEntry {
	out := make([]listEntry, 0, len(list))
	for _, e := range list {
		if strings.TrimSpace(e) != "" {
			out = append(out, resolveEntry(e))
		}
	}
	return out
}

// blockedBy reports whether p matches a block-list entry: the same program,
// or (for a bare-name entry) any program of that name.
func blockedBy(list []listEntry, p program) bool {
	for _, e := range list {
		if e.sameProgram(p) || (!e.isPath && e.name == p.name) {
			return true
		}
	}
	return false
}

func allowedBy(list []listEntry, p program) bool {
	for _, e := range list {
		if e.sameProgram(p) {
			return true
		}
	}
	return false
}
