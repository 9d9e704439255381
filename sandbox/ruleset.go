package sandbox

import (
	"fmt"
	"slices"
	"strings"
)

// Access is a set of rights on a path and everything beneath it, in this
// package's own terms (Landlock's finer rights are derived in apply_linux.go).
type Access uint8

const (
	Read  Access = 1 << iota // read files
	List                     // list directories
	Exec                     // execute files
	Write                    // write, truncate, create, remove, rename, link
	Ioctl                    // ioctl on devices (a terminal's)
)

// String spells a set the way doctor shows it: "rx", "rw", "l"...
func (a Access) String() string {
	var b strings.Builder
	for _, c := range []struct {
		bit Access
		ch  byte
	}{{Read, 'r'}, {List, 'l'}, {Write, 'w'}, {Exec, 'x'}, {Ioctl, 'i'}} {
		if a&c.bit != 0 {
			b.WriteByte(c.ch)
		}
	}
	return b.String()
}

// fileRights are the rights Landlock accepts on a path that is not a directory.
const fileRights = Read | Exec | Write | Ioctl

// Rule grants Access on Path (beneath it, for a directory).
type Rule struct {
	Path   string
	Access Access
	File   bool // not a directory: only fileRights apply
}

// Ruleset is what the launcher applies, in this package's terms. It holds
// resolved paths only: building it (walking directories, resolving programs) is
// the server's work, done once, and so is turning it into the launcher's plan of
// Landlock masks (Launcher).
type Ruleset struct {
	// Handled are the file rights restricted at all; a right not handled is not
	// restricted anywhere. Zero: the filesystem is not restricted.
	Handled Access
	Rules   []Rule
	// Programs is set when execute is granted on allowed programs only.
	Programs bool
	// NoTCP denies TCP connect and bind (Landlock ABI 4).
	NoTCP bool
	// TerminalRule grants the launcher's own terminal (its stdin, a /dev/pts/N
	// known only in the child) read, write and ioctl.
	TerminalRule bool
	// TmpParent, when set, is where the launcher makes the session's own TMPDIR
	// (shared /tmp being off).
	TmpParent string
	// BestEffort applies what the kernel supports and drops the rest, instead of
	// refusing to start the program.
	BestEffort bool
	// ABI caps the Landlock ABI the rules are built for (tests force a lower one).
	ABI int
	// Isolated keeps the session apart from every process outside its own
	// Landlock domain (other sessions, the server): signals and abstract unix
	// sockets are scoped to the domain (ABI 6) whatever the network setting.
	Isolated bool
	// HideProcs gives an isolated session a /proc of its own, showing only the
	// processes it may trace (its own), and the launcher drops every capability
	// whether or not it is set (seclude_linux.go).
	HideProcs bool
	// Confined says files are confined to allowed paths (Build sets it, for
	// Features; the launcher needs only the rules).
	Confined bool
}

// IsolationABI is the Landlock ABI that scopes signals and abstract unix sockets,
// the least that keeps principals apart.
const IsolationABI = 6

// Empty reports whether the ruleset restricts nothing.
func (r *Ruleset) Empty() bool { return r == nil || (r.Handled == 0 && !r.NoTCP && !r.Isolated) }

// grant adds a rule, merging rights when the path already has one.
func (r *Ruleset) grant(path string, a Access, file bool) {
	if file {
		a &= fileRights
	}
	if a == 0 {
		return
	}
	for i := range r.Rules {
		if r.Rules[i].Path == path {
			r.Rules[i].Access |= a
			return
		}
	}
	r.Rules = append(r.Rules, Rule{Path: path, Access: a, File: file})
}

// Lines describes the rules for doctor, one per path, sorted.
func (r *Ruleset) Lines() []string {
	var out []string
	for _, rule := range r.Rules {
		out = append(out, fmt.Sprintf("%-5s %s", rule.Access, rule.Path))
	}
	slices.Sort(out)
	return out
}
