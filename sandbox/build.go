package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultSystem are the trees a session may read (and, without an allow-list of
// programs, execute from) when its paths are restricted. Missing ones are skipped.
var DefaultSystem = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc", "/opt", "/sys", "/run", "/var/lib",
}

// ProgramDirs are the standard program directories. With an allow-list of
// programs, no file in them can be read (so neither copied, hard-linked usefully,
// nor run through the dynamic loader) except the allowed ones; the directories
// themselves stay listable.
var ProgramDirs = []string{"/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin", "/usr/local/sbin"}

// devices a session may use besides its own terminal.
var devices = []Rule{
	{Path: "/dev/null", Access: Read | Write | Ioctl, File: true},
	{Path: "/dev/zero", Access: Read, File: true},
	{Path: "/dev/full", Access: Read | Write, File: true},
	{Path: "/dev/random", Access: Read, File: true},
	{Path: "/dev/urandom", Access: Read, File: true},
	{Path: "/dev/tty", Access: Read | Write | Ioctl, File: true},
}

// Devices are the device files every session may use besides its terminal.
func Devices() []string {
	out := make([]string, len(devices))
	for i, d := range devices {
		out[i] = d.Path
	}
	return out
}

// Settings is the operator's policy, as configured.
type Settings struct {
	Paths      []string // MCP_TERMINAL_ALLOWED_PATHS: read-write trees; empty: files unrestricted
	Commands   []string // MCP_TERMINAL_ALLOWED_COMMANDS: programs that may be executed; empty: any
	NetworkOff bool     // MCP_TERMINAL_NETWORK=off
	System     []string // readable trees with Paths; nil means DefaultSystem
	PrivateTmp bool     // /tmp and /dev/shm not writable; each session gets a TMPDIR inside Paths[0]
	BestEffort bool     // MCP_TERMINAL_SANDBOX=best-effort
	PATH       string   // where Commands are looked up (the sessions' PATH)
	// Isolate runs every session in a Landlock domain of its own, apart from the
	// other sessions and the server (several principals share this Unix user):
	// signals and abstract unix sockets scoped, no terminal but its own in
	// /dev/pts, no tracing outside it (/proc/<pid>/mem, fd, cwd), no capability.
	Isolate bool
	// HideProcesses gives each isolated session a /proc of its own in which
	// other processes do not exist (environ, cmdline, maps; ps). Seclusion says
	// whether the launcher can.
	HideProcesses bool
}

// Terminals is the directory of every session's terminal; an isolated session
// may open only its own.
const Terminals = "/dev/pts"

// Active reports whether the settings ask the kernel for anything.
func (s Settings) Active() bool {
	return len(s.Paths) > 0 || len(s.Commands) > 0 || s.NetworkOff || s.Isolate
}

// Built is a ruleset and what went into it, for doctor.
type Built struct {
	Ruleset  Ruleset
	Programs map[string]string // allowed command → the file granted execute
	Helpers  []string          // helper directories and files programs run (git's exec-path, cc1, as, ld)
	Loaders  []string          // dynamic loaders of the allowed programs
	Skipped  []string          // allowed commands that get no execute right, and why
}

// Build turns settings into the ruleset the launcher applies: it resolves allowed
// programs to real files, finds their loaders and helpers, and expands readable
// trees around the program directories.
func Build(s Settings) (*Built, error) {
	b := &Built{Programs: map[string]string{}}
	if !s.Active() {
		return b, nil
	}
	rs := &b.Ruleset
	rs.NoTCP, rs.BestEffort, rs.Isolated = s.NetworkOff, s.BestEffort, s.Isolate
	rs.HideProcs = s.Isolate && s.HideProcesses
	paths, err := realDirs(s.Paths)
	if err != nil {
		return nil, err
	}
	if s.PrivateTmp && len(paths) == 0 {
		return nil, errors.New("a private TMPDIR needs an allowed path to hold it")
	}
	w := &walker{rs: rs, byName: existingReal(ProgramDirs), seen: map[string]bool{}}
	var execRoots []string // where execute may be granted at all
	switch {
	case len(paths) > 0:
		rs.Handled = Read | List | Exec | Write | Ioctl
		rs.TerminalRule, rs.Confined = true, true
		system := s.System
		if system == nil {
			system = DefaultSystem
		}
		sys := Read | List
		work := Read | List | Write
		if len(s.Commands) == 0 {
			sys |= Exec
			work |= Exec
			w.byName = nil // nothing to hide
		}
		w.byName = append(w.byName, existingReal([]string{Terminals})...)
		for _, d := range system {
			w.tree(d, sys)
		}
		execRoots = append(existingReal(system), paths...)
		for _, p := range paths {
			rs.grant(p, work, false)
		}
		rs.grant("/proc", Read|List, false)
		if s.PrivateTmp {
			rs.TmpParent = paths[0]
		} else {
			for _, t := range []string{"/tmp", "/dev/shm"} {
				if real, err := filepath.EvalSymlinks(t); err == nil {
					rs.grant(real, work, false)
				}
			}
		}
		for _, d := range devices {
			rs.grant(d.Path, d.Access, true)
		}
	case s.Isolate:
		// Everything but the other sessions' terminals: Landlock grants, so the
		// whole tree is granted around /dev/pts, whose files are granted by name.
		rs.Handled = Read | List | Exec | Write | Ioctl
		rs.TerminalRule = true
		all := rs.Handled
		if len(s.Commands) > 0 {
			all &^= Exec
		} else {
			w.byName = nil
		}
		w.byName = append(w.byName, existingReal([]string{Terminals})...)
		// A terminal made later inside the session would be a new file in /dev/pts
		// that no rule can name beforehand, so sessions cannot make terminals of
		// their own (tmux, script, expect): the multiplexer is not granted either.
		w.tree("/", all)
		execRoots = []string{"/"}
	case len(s.Commands) > 0:
		rs.Handled = Read | Exec
		w.tree("/", Read)
		execRoots = []string{"/"}
	}
	if len(s.Commands) > 0 {
		rs.Programs = true
		b.programs(s.Commands, s.PATH, execRoots)
	}
	slices.SortFunc(rs.Rules, func(a, b Rule) int { return strings.Compare(a.Path, b.Path) })
	return b, nil
}

// programs grants read and execute on each allowed program that lies where
// execute may be granted, and on its loader and helpers.
func (b *Built) programs(commands []string, path string, roots []string) {
	rs := &b.Ruleset
	grantFile := func(file string) bool {
		if !beneathAny(file, roots) {
			return false
		}
		rs.grant(file, Read|Exec, true)
		if ld := loader(file); ld != "" && !slices.Contains(b.Loaders, ld) {
			b.Loaders = append(b.Loaders, ld)
			rs.grant(ld, Read|Exec, true)
		}
		return true
	}
	for _, c := range commands {
		file, err := resolve(c, path)
		if err != nil {
			b.Skipped = append(b.Skipped, fmt.Sprintf("%s: %v", c, err))
			continue
		}
		if !grantFile(file) {
			b.Skipped = append(b.Skipped, fmt.Sprintf("%s: %s is outside the allowed and system paths", c, file))
			continue
		}
		b.Programs[c] = file
		if interp := shebang(file); interp != "" && grantFile(interp) {
			b.Helpers = appendNew(b.Helpers, interp)
		}
		for _, h := range helpers(c, file, path) {
			fi, err := os.Stat(h)
			if err != nil || !beneathAny(h, roots) {
				continue
			}
			if fi.IsDir() {
				rs.grant(h, Read|List|Exec, false)
			} else {
				grantFile(h)
			}
			b.Helpers = appendNew(b.Helpers, h)
		}
	}
}

// walker grants a right on trees, except inside the directories whose files are
// granted one by one (the program directories, the terminals), which stay listable.
type walker struct {
	rs     *Ruleset
	byName []string // resolved
	seen   map[string]bool
}

func (w *walker) tree(root string, a Access) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil || w.seen[real] {
		return
	}
	w.seen[real] = true
	fi, err := os.Stat(real)
	if err != nil {
		return
	}
	switch {
	case !fi.IsDir():
		if !beneathAny(real, w.byName) {
			w.rs.grant(real, a, true)
		}
	case slices.Contains(w.byName, real):
		w.rs.grant(real, List, false)
	case beneathAny(real, w.byName):
		// inside a program directory: nothing beyond what is granted by name
	case w.holdsByName(real):
		w.rs.grant(real, a&List, false)
		entries, _ := os.ReadDir(real)
		for _, e := range entries {
			p := filepath.Join(real, e.Name())
			if e.Type()&os.ModeSymlink != 0 {
				// /dev/fd and /dev/stdin name the server's own /proc/<pid>: not a rule.
				if t, err := filepath.EvalSymlinks(p); err != nil || beneath(t, "/proc") {
					continue
				}
			}
			w.tree(p, a)
		}
	default:
		w.rs.grant(real, a, false)
	}
}

func (w *walker) holdsByName(dir string) bool {
	for _, p := range w.byName {
		if beneath(p, dir) && p != dir {
			return true
		}
	}
	return false
}

// beneath reports whether path is dir or inside it (both clean and absolute).
func beneath(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+"/")
}

func beneathAny(path string, dirs []string) bool {
	for _, d := range dirs {
		if beneath(path, d) {
			return true
		}
	}
	return false
}

// realDirs resolves each path to an existing directory's real path.
func realDirs(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("allowed path %q: %w", p, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("allowed path %q: %w", p, err)
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("allowed path %q is not a directory", p)
		}
		out = appendNew(out, real)
	}
	return out, nil
}

// existingReal resolves the paths that exist.
func existingReal(paths []string) []string {
	var out []string
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			out = appendNew(out, real)
		}
	}
	return out
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
