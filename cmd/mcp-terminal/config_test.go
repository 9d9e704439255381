package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c, err := loadConfig(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxSessions != 10 || c.MaxOutput != 20000 || c.DefaultTimeout != 10*time.Second ||
		c.IdleTimeout != 30*time.Minute || c.Scrollback != 10000 || c.MaxInput != 64*1024 ||
		!c.RedactSecrets || !c.DangerDetection || c.LogInputs {
		t.Fatalf("defaults differ from the README's configuration table: %+v", c)
	}
}

func TestConfigPrecedence(t *testing.T) {
	t.Parallel()
	c, err := loadConfig([]string{"--max-sessions=3"}, env(map[string]string{
		"MCP_TERMINAL_MAX_SESSIONS":     "7",
		"MCP_TERMINAL_DEFAULT_TIMEOUT":  "2500",
		"MCP_TERMINAL_IDLE_TIMEOUT":     "90s",
		"MCP_TERMINAL_BLOCKED_COMMANDS": "nc, telnet ,",
		"MCP_TERMINAL_REDACT_SECRETS":   "false",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxSessions != 3 {
		t.Errorf("flag did not win over the variable: %d", c.MaxSessions)
	}
	if c.DefaultTimeout != 2500*time.Millisecond || c.IdleTimeout != 90*time.Second {
		t.Errorf("durations: %v %v", c.DefaultTimeout, c.IdleTimeout)
	}
	if strings.Join(c.BlockedCommands, "|") != "nc|telnet" || c.RedactSecrets {
		t.Errorf("lists or booleans: %+v", c)
	}
	if c, _ := loadConfig(nil, env(map[string]string{"MCP_TERMINAL_IDLE_TIMEOUT": "0"}), io.Discard); c.IdleTimeout != 0 {
		t.Errorf("idle timeout 0 should disable, got %v", c.IdleTimeout)
	}
}

func TestConfigRejectsInvalidValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		argv []string
		env  map[string]string
		want string
	}{
		{"word for a number", nil, map[string]string{"MCP_TERMINAL_MAX_SESSIONS": "many"}, "MCP_TERMINAL_MAX_SESSIONS"},
		{"zero sessions", nil, map[string]string{"MCP_TERMINAL_MAX_SESSIONS": "0"}, "MCP_TERMINAL_MAX_SESSIONS"},
		{"negative timeout", []string{"--default-timeout=-1"}, nil, "--default-timeout"},
		{"timeout over 10 min", nil, map[string]string{"MCP_TERMINAL_DEFAULT_TIMEOUT": "700000"}, "MCP_TERMINAL_DEFAULT_TIMEOUT"},
		{"not a boolean", nil, map[string]string{"MCP_TERMINAL_DANGER_DETECTION": "maybe"}, "MCP_TERMINAL_DANGER_DETECTION"},
		{"bad log level", []string{"--log-level=loud"}, nil, "--log-level"},
		// The default must lie within max_output_chars' published maximum.
		{"output default over the schema's maximum", nil, map[string]string{"MCP_TERMINAL_MAX_OUTPUT": "1000001"}, "MCP_TERMINAL_MAX_OUTPUT"},
		{"stray argument", []string{"serve"}, nil, "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadConfig(tt.argv, env(tt.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want one naming %s", err, tt.want)
			}
		})
	}
}

func TestEveryVariableHasAFlagAndIsDocumented(t *testing.T) {
	t.Parallel()
	readme := readFile(t, "../../README.md")
	for _, s := range settings() {
		if !strings.HasPrefix(s.env, "MCP_TERMINAL_") || s.flag == "" {
			t.Errorf("setting %+v lacks a variable or flag", s)
		}
		if !strings.Contains(readme, "`"+s.env+"`") || !strings.Contains(readme, "`--"+s.flag+"`") {
			t.Errorf("README does not document %s / --%s", s.env, s.flag)
		}
	}
}

// TestRecordDirMustBeADirectory: a recording directory that cannot be one stops the
// server at startup instead of leaving every session silently unrecorded.
func TestRecordDirMustBeADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := newRecorder(config{RecordDir: file}, slog.New(slog.DiscardHandler)); err == nil {
		t.Error("a file was accepted as the recording directory")
	}
	dir := filepath.Join(t.TempDir(), "new", "recordings")
	r, err := newRecorder(config{RecordDir: dir, RecordMaxMB: 1}, slog.New(slog.DiscardHandler))
	if err != nil || r.tapFunc() == nil {
		t.Fatalf("new directory: %v", err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("created %v %v, want mode 0700", fi.Mode(), err)
	}
	if off, _ := newRecorder(config{}, nil); off.tapFunc() != nil {
		t.Error("recording without a directory")
	}
}
