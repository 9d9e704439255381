package sandbox

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnsupported is returned when the kernel cannot enforce what a ruleset asks.
var ErrUnsupported = errors.New("not supported by this kernel")

// Feature is one thing a ruleset asks the kernel to enforce.
type Feature struct {
	Name     string
	ABI      int    // the Landlock ABI that introduced it
	Required bool   // without it the policy is not what the operator configured
	Enforced bool   // the kernel's ABI has it
	Needs    string // what it needs, when that is not an ABI
}

// Missing says what a feature that is not enforced needs.
func (f Feature) Missing() string {
	if f.Needs != "" {
		return "needs " + f.Needs
	}
	return fmt.Sprintf("needs ABI %d", f.ABI)
}

// Features lists what rs asks for and whether a kernel of Landlock ABI abi
// enforces each.
func (rs *Ruleset) Features(abi int) []Feature {
	var fs []Feature
	add := func(name string, need int, required bool) {
		fs = append(fs, Feature{Name: name, ABI: need, Required: required, Enforced: abi >= need})
	}
	if rs.Confined {
		add("file access beneath allowed paths", 1, true)
	}
	if rs.Programs {
		add("execute only allowed programs", 1, true)
	}
	if rs.Confined {
		add("truncate outside allowed paths denied", 3, true)
		add("rename/link across directories", 2, false)
	}
	if rs.Handled&Ioctl != 0 && rs.Confined {
		add("device ioctls limited to the terminal", 5, false)
	}
	if rs.NoTCP {
		add("TCP connect and bind denied", 4, true)
	}
	if rs.Isolated {
		add("other sessions' terminals closed", 1, false)
		add("other sessions' processes closed to tracing (/proc/<pid>/mem, fd, cwd)", 1, false)
		add("no capabilities in sessions", 1, false)
		hidden := Feature{Name: "other processes absent from the session's /proc (environ, cmdline, maps; ps)", ABI: 1,
			Enforced: abi >= 1 && rs.HideProcs}
		if !rs.HideProcs {
			hidden.Needs = "the launcher to mount a private /proc (root, CAP_SYS_ADMIN)"
		}
		fs = append(fs, hidden)
	}
	if !rs.Empty() {
		add("signals to processes outside the session denied", 6, false)
	}
	if rs.NoTCP || rs.Isolated {
		add("abstract unix sockets outside the session denied", 6, false)
	}
	return fs
}

// Check returns an error naming every required feature a kernel of Landlock ABI
// abi cannot enforce; nil in best-effort mode, which runs with what there is.
func (rs *Ruleset) Check(abi int) error {
	var missing []string
	for _, f := range rs.Features(abi) {
		if f.Required && !f.Enforced {
			missing = append(missing, fmt.Sprintf("%s (needs Landlock ABI %d)", f.Name, f.ABI))
		}
	}
	if len(missing) == 0 || rs.BestEffort {
		return nil
	}
	have := fmt.Sprintf("Landlock ABI %d", abi)
	if abi == 0 {
		have = "no Landlock"
	}
	return fmt.Errorf("the sandbox cannot be enforced: this kernel has %s; missing: %s "+
		"(set MCP_TERMINAL_SANDBOX=best-effort to run with what the kernel enforces): %w",
		have, strings.Join(missing, ", "), ErrUnsupported)
}

// Status is one line on what the kernel enforces for rs, as create_session and
// doctor report it; "" when rs restricts nothing.
func (rs *Ruleset) Status(abi int) string {
	if rs.Empty() {
		return ""
	}
	var on, off []string
	for _, f := range rs.Features(abi) {
		if f.Enforced {
			on = append(on, f.Name)
		} else {
			off = append(off, fmt.Sprintf("%s (%s)", f.Name, f.Missing()))
		}
	}
	s := fmt.Sprintf("Landlock ABI %d enforces: %s", abi, orNone(on))
	if len(off) > 0 {
		s += "; NOT enforced: " + strings.Join(off, ", ")
	}
	return s
}

func orNone(l []string) string {
	if len(l) == 0 {
		return "nothing"
	}
	return strings.Join(l, ", ")
}
