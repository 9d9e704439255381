package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-terminal/mcp-terminal/sandbox"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// TestSandboxFailsClosed: a policy the kernel cannot enforce stops the server at
// startup with what is missing, unless best-effort, which then says it per session.
func TestSandboxFailsClosed(t *testing.T) {
	work := t.TempDir()
	env := map[string]string{"MCP_TERMINAL_ALLOWED_PATHS": work, "MCP_TERMINAL_NETWORK": "off"}
	cfg, err := loadConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		abi  int
		want string
	}{{0, "no Landlock"}, {2, "truncate"}, {3, "TCP connect and bind denied (needs Landlock ABI 4)"}} {
		if _, err := newJailABI(cfg, tc.abi); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ABI %d: err = %v, want a refusal naming %q", tc.abi, err, tc.want)
		}
	}
	if j, err := newJailABI(cfg, 4); err != nil || strings.Contains(j.status, "NOT enforced: TCP") {
		t.Errorf("ABI 4: %v %q", err, j.sessionStatus())
	}
	cfg.SandboxMode = "best-effort"
	j, err := newJailABI(cfg, 3)
	if err != nil {
		t.Fatalf("best-effort refused: %v", err)
	}
	if _, off, _ := strings.Cut(j.sessionStatus(), "NOT enforced"); !strings.Contains(off, "TCP connect and bind denied") {
		t.Errorf("best-effort status does not say TCP is not enforced: %q", j.sessionStatus())
	}
	if j, err := newJailABI(config{Network: true}, 0); err != nil || j != nil {
		t.Errorf("no policy: %v %v, want no sandbox", j, err)
	}
}

// TestPrivateTmpGoesWithTheSession: with shared /tmp off, a session's own TMPDIR
// (made by the launcher) is removed when the session closes, not only when the
// server stops.
func TestPrivateTmpGoesWithTheSession(t *testing.T) {
	if sandbox.KernelABI() < 1 {
		t.Skip("no Landlock")
	}
	work := t.TempDir()
	env := map[string]string{"MCP_TERMINAL_ALLOWED_PATHS": work, "MCP_TERMINAL_SHARED_TMP": "false"}
	cfg, err := loadConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	j, err := newJail(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newApp(cfg, j, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.sessions.Shutdown(context.Background()); j.close() })
	tmps := func() []string {
		m, _ := filepath.Glob(filepath.Join(j.tmp, "session-*"))
		return m
	}
	s, err := a.sessions.Create(session.CreateOptions{Command: "/bin/sh", Dir: work})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(tmps()) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no TMPDIR made in %s", j.tmp)
		}
	}
	if _, err := a.sessions.Close(t.Context(), s.ID, 0); err != nil {
		t.Fatal(err)
	}
	if left := tmps(); len(left) != 0 {
		t.Errorf("the closed session's TMPDIR is still there: %q", left)
	}
}
