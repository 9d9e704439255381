package sandbox

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// resolve finds the real file an allowed command names: a path as given, a name
// on path (the first match, as a shell would run it), symlinks followed.
func resolve(command, path string) (string, error) {
	file := command
	if !strings.Contains(command, "/") {
		file = ""
		for _, dir := range filepath.SplitList(path) {
			if dir == "" || !filepath.IsAbs(dir) {
				continue // a relative PATH entry means a different file in every directory
			}
			cand := filepath.Join(dir, command)
			if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				file = cand
				break
			}
		}
		if file == "" {
			return "", errors.New("not found on PATH")
		}
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// loader returns the real path of file's ELF interpreter (the dynamic loader),
// "" for a static program or a script.
func loader(file string) string {
	f, err := elf.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_INTERP {
			continue
		}
		b := make([]byte, p.Filesz)
		if _, err := p.ReadAt(b, 0); err != nil {
			return ""
		}
		real, err := filepath.EvalSymlinks(string(bytes.TrimRight(b, "\x00")))
		if err != nil {
			return ""
		}
		return real
	}
	return ""
}

// shebang returns the real path of a script's interpreter, "" if file is not a
// "#!" script.
func shebang(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	rest, ok := bytes.CutPrefix(line, []byte("#!"))
	if !ok {
		return ""
	}
	fields := strings.Fields(string(rest))
	if len(fields) == 0 {
		return ""
	}
	real, err := filepath.EvalSymlinks(fields[0])
	if err != nil {
		return ""
	}
	return real
}

// compilers are the driver names whose helpers are found with -print-prog-name.
var compilers = []string{"cc", "c++", "gcc", "g++", "clang", "clang++"}

// helpers lists the directories and files an allowed program runs by itself:
// git's exec-path; a compiler's libexec directory (cc1 and friends) and the
// assembler and linker it calls.
func helpers(command, file, path string) []string {
	name := filepath.Base(command)
	switch {
	case name == "git":
		if dir := query(file, path, "--exec-path"); dir != "" {
			return existingReal([]string{dir})
		}
	case isCompiler(name) || isCompiler(filepath.Base(file)):
		var out []string
		for _, prog := range []string{"cc1", "cc1plus", "collect2", "lto-wrapper", "as", "ld"} {
			p := query(file, path, "-print-prog-name="+prog)
			switch {
			case p == "" || p == prog && prog != "as" && prog != "ld":
				continue // not installed: the driver echoes the bare name
			case filepath.IsAbs(p):
				if real, err := filepath.EvalSymlinks(p); err == nil {
					if prog == "as" || prog == "ld" {
						out = appendNew(out, real)
					} else {
						out = appendNew(out, filepath.Dir(real))
					}
				}
			default:
				if real, err := resolve(p, path); err == nil {
					out = appendNew(out, real)
				}
			}
		}
		return out
	}
	return nil
}

func isCompiler(name string) bool {
	for _, c := range compilers {
		// gcc-13, x86_64-linux-gnu-gcc-13, clang-17...
		if name == c || strings.HasPrefix(name, c+"-") || strings.Contains(name, "-"+c) {
			return true
		}
	}
	return false
}

// query runs file with one argument and returns its first output line; a program
// that does not answer in time answers nothing.
func query(file, path, arg string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, file, arg)
	cmd.Env = []string{"PATH=" + path, "LC_ALL=C"}
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}
