package main

import (
	"fmt"
	"io"

	"github.com/mcp-terminal/mcp-terminal/auth"
	"github.com/mcp-terminal/mcp-terminal/sandbox"
)

// Isolation below the API. Principals share this server's Unix user, so the
// kernel would let one principal's programs signal, trace or read another's. With
// more than one principal possible over HTTP, and a kernel whose Landlock scopes
// signals and abstract unix sockets (ABI 6), every session starts in a Landlock
// domain of its own (sandbox.Settings.Isolate). Landlock domains belong to process
// trees, one per launcher, so the unit is the session: a principal's own sessions
// are kept apart from each other as well.

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

// reportIsolation prints, for doctor, whether this kernel keeps principals apart
// and so whether several are served without --allow-shared-user.
func reportIsolation(w io.Writer, cfg config, kernel int) {
	switch {
	case cfg.HTTP.Isolation == "off":
		fmt.Fprintf(w, "--   %-22s off (--isolation off): several principals need --allow-shared-user\n", "isolation")
	case kernel >= sandbox.IsolationABI:
		fmt.Fprintf(w, "ok   %-22s Landlock ABI %d: with several principals each session runs in a domain of its own; no --allow-shared-user needed\n", "isolation", kernel)
	default:
		fmt.Fprintf(w, "--   %-22s Landlock ABI %d < %d: sessions cannot be kept apart; several principals are refused unless --allow-shared-user (or run one server per Unix user)\n",
			"isolation", kernel, sandbox.IsolationABI)
	}
}

// whyNotIsolated says, for the refusal, why sessions are not kept apart.
func whyNotIsolated(h httpConfig) string {
	if h.Isolation == "off" {
		return "isolation is off (--isolation off)"
	}
	return fmt.Sprintf("this kernel cannot keep them apart (Landlock ABI %d, isolation needs %d)", sandbox.KernelABI(), sandbox.IsolationABI)
}
