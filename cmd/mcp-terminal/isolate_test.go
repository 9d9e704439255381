package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-terminal/mcp-terminal/sandbox"
)

// TestIsolationDecision: sessions are isolated over HTTP when several principals
// are possible and the kernel scopes (ABI 6), not otherwise; then several
// principals are served without the opt-out, and refused without it where the
// kernel cannot, the refusal saying why.
func TestIsolationDecision(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := write("one", "alice "+strings.Repeat("a", 40)+"\n")
	two := write("two", "alice "+strings.Repeat("a", 40)+"\nbob "+strings.Repeat("b", 40)+"\n")
	load := func(args ...string) config {
		t.Helper()
		cfg, err := loadConfig(args, func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	for _, tc := range []struct {
		name   string
		cfg    config
		kernel int
		want   bool
	}{
		{"stdio", load(), 7, false},
		{"one principal", load("--http", "127.0.0.1:0", "--auth-tokens-file", one), 7, false},
		{"two principals", load("--http", "127.0.0.1:0", "--auth-tokens-file", two), 7, true},
		{"two principals, ABI 6", load("--http", "127.0.0.1:0", "--auth-tokens-file", two), 6, true},
		{"two principals, ABI 5", load("--http", "127.0.0.1:0", "--auth-tokens-file", two), 5, false},
		{"two principals, off", load("--http", "127.0.0.1:0", "--auth-tokens-file", two, "--isolation", "off"), 7, false},
		{"an issuer", load("--http", "127.0.0.1:0", "--oauth-issuer", "https://issuer.example", "--public-url", "https://t.example/mcp"), 7, true},
	} {
		if got := isolating(tc.cfg, tc.kernel); got != tc.want {
			t.Errorf("%s, kernel ABI %d: isolating = %v, want %v", tc.name, tc.kernel, got, tc.want)
		}
	}

	h := httpConfig{Addr: "127.0.0.1:8080", TokensFile: two}
	names := []string{"alice", "bob"}
	if err := checkExposure(h, names, ""); err != nil {
		t.Errorf("isolated principals refused: %v", err)
	}
	var unisolated *jail
	if err := checkExposure(h, names, unisolated.isolationGap(h)); err == nil || !strings.Contains(err.Error(), "--allow-shared-user") || !strings.Contains(err.Error(), "cannot keep their sessions apart") {
		t.Errorf("unisolated principals: %v", err)
	}
	// Isolated by Landlock, but the launcher could not hide the processes.
	unhidden := &jail{built: &sandbox.Built{Ruleset: sandbox.Ruleset{Isolated: true}}, unhidden: errors.New("private /proc: mount: operation not permitted")}
	if err := checkExposure(h, names, unhidden.isolationGap(h)); err == nil || !strings.Contains(err.Error(), "a /proc of its own") || !strings.Contains(err.Error(), "operation not permitted") {
		t.Errorf("processes not hidden: %v", err)
	}
	h.AllowSharedUser = true
	if err := checkExposure(h, names, unhidden.isolationGap(h)); err != nil {
		t.Errorf("the opt-out is refused: %v", err)
	}
	h.AllowSharedUser, h.Isolation = false, "off"
	if err := checkExposure(h, names, unhidden.isolationGap(h)); err == nil || !strings.Contains(err.Error(), "isolation is off") {
		t.Errorf("isolation off: %v", err)
	}
}

// TestIsolatedJail: with several principals the jail isolates even without a
// policy, sessions start from the small environment, and doctor and
// create_session say what the kernel enforces; a policy combines with it.
func TestIsolatedJail(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte("alice "+strings.Repeat("a", 40)+"\nbob "+strings.Repeat("b", 40)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig([]string{"--http", "127.0.0.1:0", "--auth-tokens-file", tokens}, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	j, err := newJailABI(cfg, 7)
	if err != nil || !j.built.Ruleset.Isolated || j.built.Ruleset.Confined {
		t.Fatalf("jail %+v, %v", j, err)
	}
	// Whether the launcher can hide processes depends on the server's rights
	// (root here and in CI); the jail must agree with seclusion either way.
	unhidden := seclusion()
	if j.isolates() != (unhidden == nil) || j.built.Ruleset.HideProcs != (unhidden == nil) {
		t.Fatalf("isolates %v, HideProcs %v, but seclusion says %v", j.isolates(), j.built.Ruleset.HideProcs, unhidden)
	}
	if !strings.Contains(j.sessionStatus(), "other sessions' terminals closed") || strings.Contains(j.sessionStatus(), "NOT enforced") != (unhidden != nil) {
		t.Errorf("status %q (seclusion: %v)", j.sessionStatus(), unhidden)
	}
	t.Setenv("MCP_TERMINAL_TEST_SERVER_SECRET", "s3cret")
	env := baseEnv(cfg, j)
	if env == nil {
		t.Error("an isolated session starts from the server's whole environment")
	}
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(sandbox.KeptEnv, k) && !strings.HasPrefix(k, "LC_") {
			t.Errorf("an isolated session inherits the server's %s", kv)
		}
	}
	var doc strings.Builder
	j.report(&doc)
	reportIsolation(&doc, cfg, 7, nil)
	reportIsolation(&doc, cfg, 5, nil)
	reportIsolation(&doc, cfg, 7, errors.New("private /proc: mount: operation not permitted"))
	for _, want := range []string{"other sessions' terminals closed", "no --allow-shared-user needed", "ABI 5 < 6", "cannot be hidden from each other (private /proc"} {
		if !strings.Contains(doc.String(), want) {
			t.Errorf("doctor does not say %q:\n%s", want, doc.String())
		}
	}
	cfg.AllowedPaths = []string{t.TempDir()}
	j, err = newJailABI(cfg, 7)
	if err != nil || !j.built.Ruleset.Isolated || !j.built.Ruleset.Confined {
		t.Fatalf("policy and isolation: %+v, %v", j, err)
	}
	if j, err := newJailABI(cfg, sandbox.IsolationABI-1); err != nil || j.isolates() {
		t.Errorf("ABI %d: %+v %v, want the policy without isolation", sandbox.IsolationABI-1, j, err)
	}
}
