package pty

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// defaultEnv is what an agent-driven terminal needs on top of the server's
// environment. Options.Env is applied after it, so every entry can be overridden.
//
//   - TERM=xterm-256color, COLORTERM=truecolor: what the screen emulator understands.
//   - PAGER, GIT_PAGER, MANPAGER, SYSTEMD_PAGER = cat: a pager would wait for a key
//     press the agent does not know it owes; output goes straight to the screen.
//   - LESS=-R: harmless if less is run anyway; colours instead of escape soup.
//
// Deliberately not touched:
//   - GIT_TERMINAL_PROMPT is not set to 0: ssh and git prompts must work, the agent
//     answers them.
//   - PROMPT_COMMAND is left alone.
//
// Removed (unless Options.Env sets them): LINES and COLUMNS, which would freeze
// the size programs see and make Resize useless.
var defaultEnv = []string{
	"TERM=xterm-256color",
	"COLORTERM=truecolor",
	"PAGER=cat",
	"GIT_PAGER=cat",
	"MANPAGER=cat",
	"SYSTEMD_PAGER=cat",
	"LESS=-R",
}

// unsetEnv names variables removed from the inherited environment.
var unsetEnv = []string{"LINES", "COLUMNS"}

// environ builds the child's environment: base (os.Environ()), then
// defaultEnv, then overrides. Order of first appearance is kept; a later value
// replaces an earlier one.
func environ(base []string, overrides map[string]string) []string {
	var keys []string
	vals := make(map[string]string)
	set := func(k, v string) {
		if k == "" {
			return
		}
		if _, ok := vals[k]; !ok {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		set(k, v)
	}
	for _, k := range unsetEnv {
		delete(vals, k)
	}
	for _, kv := range defaultEnv {
		k, v, _ := strings.Cut(kv, "=")
		set(k, v)
	}
	for k, v := range overrides {
		set(k, v)
	}
	env := make([]string, 0, len(vals))
	for _, k := range keys {
		if v, ok := vals[k]; ok {
			env = append(env, k+"="+v)
			delete(vals, k) // a key unset then set again appears twice in keys
		}
	}
	return env
}

// lookupEnv returns the value of key in env (the last one wins, as in exec).
func lookupEnv(env []string, key string) string {
	val := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			val = v
		}
	}
	return val
}

// checkDir reports whether dir can be the child's working directory.
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %w", dir, syscall.ENOTDIR)
	}
	if err := syscall.Access(dir, accessX); err != nil {
		return &fs.PathError{Op: "chdir", Path: dir, Err: err}
	}
	return nil
}

// accessX is X_OK for access(2).
const accessX = 1

// lookPath resolves command the way the child's shell would: a name with a
// slash is a path (relative to dir), anything else is searched on path, the
// PATH of the child's final environment. The result is absolute, so it does not
// depend on the working directory. Errors wrap ErrNotFound or ErrNotExecutable.
func lookPath(command, dir, path string) (string, error) {
	if command == "" {
		return "", ErrNotFound
	}
	if strings.Contains(command, "/") {
		abs, err := absIn(dir, command)
		if err != nil {
			return "", err
		}
		return abs, executable(abs)
	}
	notExec := error(nil)
	for _, entry := range filepath.SplitList(path) {
		if entry == "" {
			entry = "." // POSIX: an empty PATH entry is the working directory
		}
		abs, err := absIn(dir, filepath.Join(entry, command))
		if err != nil {
			continue
		}
		switch err := executable(abs); {
		case err == nil:
			return abs, nil
		case errors.Is(err, ErrNotExecutable) && notExec == nil:
			notExec = err
		}
	}
	if notExec != nil {
		return "", notExec
	}
	return "", fmt.Errorf("%w on PATH", ErrNotFound)
}

// absIn makes name absolute, relative to dir (or the server's cwd).
func absIn(dir, name string) (string, error) {
	if filepath.IsAbs(name) {
		return name, nil
	}
	if dir == "" {
		return filepath.Abs(name)
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(d, name), nil
}

// executable checks that file exists and may be executed by us.
func executable(file string) error {
	fi, err := os.Stat(file)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%w: %s", ErrNotFound, file)
	case err != nil:
		return fmt.Errorf("%w: %w", ErrNotExecutable, err)
	case fi.IsDir():
		return fmt.Errorf("%w: %s is a directory", ErrNotExecutable, file)
	case fi.Mode()&0o111 == 0:
		return fmt.Errorf("%w: %s has no execute permission", ErrNotExecutable, file)
	}
	if err := syscall.Access(file, accessX); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrNotExecutable, file, err)
	}
	return nil
}
