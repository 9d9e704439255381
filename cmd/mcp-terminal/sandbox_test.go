package main

import (
	"io"
	"strings"
	"testing"
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
