package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mcp-terminal/mcp-terminal/auth"
	"github.com/mcp-terminal/mcp-terminal/sandbox"
)

// Isolation below the API. Principals share this server's Unix user, so the
// kernel would let one principal's programs signal, trace or read another's. With
// more than one principal possible over HTTP, and a kernel whose Landlock scopes
// signals and abstract unix sockets (ABI 6), every session starts in a Landlock
// domain of its own (sandbox.Settings.Isolate), without capabilities, and with a
// /proc of its own in which no process outside that domain exists. Landlock
// domains belong to process trees, one per launcher, so the unit is the session:
// a principal's own sessions are kept apart from each other as well.
//
// Landlock alone leaves /proc/<pid>/cmdline and the process list open to anyone,
// and environ, auxv and maps to a caller with CAP_SYS_ADMIN or CAP_PERFMON (the
// kernel lets those through before asking Landlock); sandbox/seclude_linux.go
// says how the launcher closes both. Mounting that /proc takes CAP_SYS_ADMIN: a
// server not run as root cannot, and then serves several principals only with
// --allow-shared-user.

// isolating says whether sessions are each to run in a domain of their own: over
// HTTP, with several principals possible, isolation not turned off, and a kernel
// that can scope (kernel is its Landlock ABI).
func isolating(cfg config, kernel int) bool {
	return cfg.HTTP.Addr != "" && cfg.HTTP.Isolation != "off" && kernel >= sandbox.IsolationABI && severalPrincipals(cfg.HTTP)
}

// severalPrincipals says whether more than one principal can authenticate: two
// names in the tokens file, or an issuer (which vouches for any number). A tokens
// file that cannot be read is newGuard's to report.
func severalPrincipals(h httpConfig) bool {
	if h.Issuer != "" || h.JWKSURL != "" {
		return true
	}
	if h.TokensFile == "" {
		return false
	}
	t, err := auth.LoadTokens(h.TokensFile)
	return err == nil && len(t.Principals()) > 1
}

// seclusion runs the launcher once to see whether it can take a session's
// capabilities and hide every other process from it (sandbox.Seclusion).
func seclusion() error {
	self, err := selfExe()
	if err != nil {
		return err
	}
	return sandbox.Seclusion(context.Background(), self, sandbox.BaseEnv(os.Environ()))
}

// reportIsolation prints, for doctor, whether this kernel and this server keep
// principals apart and so whether several are served without
// --allow-shared-user; unhidden is seclusion's answer.
func reportIsolation(w io.Writer, cfg config, kernel int, unhidden error) {
	switch {
	case cfg.HTTP.Isolation == "off":
		fmt.Fprintf(w, "--   %-22s off (--isolation off): several principals need --allow-shared-user\n", "isolation")
	case kernel < sandbox.IsolationABI:
		fmt.Fprintf(w, "--   %-22s Landlock ABI %d < %d: sessions cannot be kept apart; several principals are refused unless --allow-shared-user (or run one server per Unix user)\n",
			"isolation", kernel, sandbox.IsolationABI)
	case unhidden != nil:
		fmt.Fprintf(w, "--   %-22s Landlock ABI %d, but sessions' processes cannot be hidden from each other (%v); several principals are refused unless --allow-shared-user (or run one server per Unix user)\n",
			"isolation", kernel, unhidden)
	default:
		fmt.Fprintf(w, "ok   %-22s Landlock ABI %d, private /proc, no capabilities: with several principals each session runs in a domain of its own; no --allow-shared-user needed\n", "isolation", kernel)
	}
}

// isolationGap says why sessions are not kept apart below the API and what one
// principal could then do to another's, "" when they are: what the refusal of
// several principals names.
func (j *jail) isolationGap(h httpConfig) string {
	const open = "each could signal, trace or read the others' processes and open their terminals"
	switch {
	case h.Isolation == "off":
		return "isolation is off (--isolation off): " + open
	case j.isolates():
		return ""
	case j != nil && j.built.Ruleset.Isolated:
		return fmt.Sprintf("Landlock keeps their sessions apart, but this server cannot give each a /proc of its own (%v): "+
			"each could read the others' command lines and list their processes", j.unhidden)
	}
	return fmt.Sprintf("this kernel cannot keep their sessions apart (Landlock ABI %d, isolation needs %d): %s",
		sandbox.KernelABI(), sandbox.IsolationABI, open)
}
