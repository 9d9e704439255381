package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/sandbox"
)

// jail is the kernel-enforced policy as this server runs it: the ruleset built
// once at startup and how sessions start under it.
type jail struct {
	built    *sandbox.Built
	abi      int    // the Landlock ABI the rules are applied with
	status   string // what the kernel enforces, for create_session and doctor
	tmp      string // the parent of the sessions' private TMPDIRs, removed by close (each TMPDIR as its session goes)
	unhidden error  // why isolated sessions' processes are not hidden from each other (isolate.go)
}

// newJail builds the sandbox the configuration asks for; nil when it asks for
// none. It fails, so the server refuses to start, when the kernel cannot enforce
// a required part (unless MCP_TERMINAL_SANDBOX=best-effort).
func newJail(cfg config) (*jail, error) { return newJailABI(cfg, sandbox.KernelABI()) }

// newJailABI is newJail for a kernel of Landlock ABI kernel (tests force a lower one).
func newJailABI(cfg config, kernel int) (*jail, error) {
	s := sandbox.Settings{
		Paths: cfg.AllowedPaths, Commands: cfg.AllowedCommands, NetworkOff: !cfg.Network,
		System: cfg.SystemPaths, PrivateTmp: !cfg.SharedTmp, BestEffort: cfg.SandboxMode == "best-effort",
		PATH: os.Getenv("PATH"), Isolate: isolating(cfg, kernel),
	}
	if !s.Active() {
		return nil, nil
	}
	var unhidden error
	if s.Isolate {
		unhidden = seclusion()
		s.HideProcesses = unhidden == nil
	}
	built, err := sandbox.Build(s)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	abi := min(kernel, sandbox.MaxABI)
	if err := built.Ruleset.Check(abi); err != nil {
		return nil, err
	}
	return &jail{built: built, abi: abi, status: built.Ruleset.Status(abi), unhidden: unhidden}, nil
}

// launcher returns the argv prefix that starts every session's program through
// this binary as the launcher. With a private TMPDIR it first makes the directory
// that holds one per session.
func (j *jail) launcher() ([]string, error) {
	if j == nil {
		return nil, nil
	}
	rs := j.built.Ruleset
	if rs.TmpParent != "" {
		dir, err := os.MkdirTemp(rs.TmpParent, ".mcp-terminal-tmp-")
		if err != nil {
			return nil, fmt.Errorf("sandbox: private TMPDIR: %w", err)
		}
		j.tmp, rs.TmpParent = dir, dir
	}
	rs.ABI = j.abi
	self, err := selfExe()
	if err != nil {
		return nil, err
	}
	return sandbox.Launcher(self, &rs)
}

// selfExe is how a child names this binary: /proc/self/exe, its own executable
// even if the file was replaced since; without /proc (macOS, best-effort), the
// path it was started from.
func selfExe() (string, error) {
	self := "/proc/self/exe"
	if _, err := os.Stat(self); err != nil {
		if self, err = os.Executable(); err != nil {
			return "", fmt.Errorf("sandbox: find own binary: %w", err)
		}
	}
	return self, nil
}

// baseEnv is where sessions' environments start: with a policy, a small set of
// the server's variables (sandbox.KeptEnv), not all of them; nil otherwise.
func baseEnv(cfg config, j *jail) []string {
	if j == nil && len(cfg.BlockedCommands) == 0 {
		return nil
	}
	return sandbox.BaseEnv(os.Environ())
}

// removeEndedTmp removes the private TMPDIRs of sessions that have ended (called
// as each session goes): a session's files go with it.
func (j *jail) removeEndedTmp() {
	if j != nil && j.tmp != "" {
		sandbox.RemoveEndedTmp(j.tmp)
	}
}

func (j *jail) close() {
	if j != nil && j.tmp != "" {
		os.RemoveAll(j.tmp)
	}
}

// isolates says whether sessions are kept apart below the API: each in a Landlock
// domain of its own, without capabilities, other processes absent from its /proc
// (isolate.go).
func (j *jail) isolates() bool {
	return j != nil && j.built.Ruleset.Isolated && j.built.Ruleset.HideProcs
}

func (j *jail) sessionStatus() string {
	if j == nil {
		return ""
	}
	return j.status
}

// report prints what the kernel enforces, for doctor.
func (j *jail) report(w io.Writer) {
	if j == nil {
		fmt.Fprintf(w, "--   %-22s no policy configured (Landlock ABI %d available)\n", "sandbox", sandbox.KernelABI())
		return
	}
	b := j.built
	fmt.Fprintf(w, "ok   %-22s kernel Landlock ABI %d, rules built for ABI %d\n", "sandbox", sandbox.KernelABI(), j.abi)
	for _, f := range b.Ruleset.Features(j.abi) {
		mark, state := "ok  ", "enforced"
		if !f.Enforced {
			mark, state = "--  ", "NOT enforced ("+f.Missing()+")"
			if f.Required {
				mark = "WARN"
			}
		}
		fmt.Fprintf(w, "%s   %-50s %s\n", mark, f.Name, state)
	}
	for cmd, file := range b.Programs {
		fmt.Fprintf(w, "     program %-22s %s\n", cmd, file)
	}
	for _, s := range b.Skipped {
		fmt.Fprintf(w, "WARN program %s (no execute right)\n", s)
	}
	if len(b.Loaders) > 0 {
		fmt.Fprintf(w, "     loader  %s\n", strings.Join(b.Loaders, ", "))
	}
	for _, h := range b.Helpers {
		fmt.Fprintf(w, "     helper  %s\n", h)
	}
	fmt.Fprintf(w, "     rules (r read, l list, w write, x execute, i ioctl):\n")
	for _, l := range b.Ruleset.Lines() {
		fmt.Fprintf(w, "       %s\n", l)
	}
}

// readable are the trees the sandbox lets a session with allowed paths read: the
// text check of those paths takes the same view.
func readable(cfg config) []string {
	trees := cfg.SystemPaths
	if trees == nil {
		trees = sandbox.DefaultSystem
	}
	return append(slices.Clone(trees), "/proc")
}

// writable are the files and trees outside the allowed paths a session may also
// write: the devices the sandbox grants, and the shared /tmp and /dev/shm.
func writable(cfg config) []string {
	w := sandbox.Devices()
	if cfg.SharedTmp {
		w = append(w, "/tmp", "/dev/shm")
	}
	return w
}
