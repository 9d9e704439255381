package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestVersion(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := run([]string{"--version"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "mcp-terminal ") {
		t.Fatalf("version output %q", out.String())
	}
}

func TestInvalidConfigIsAStartupError(t *testing.T) {
	t.Setenv("MCP_TERMINAL_MAX_OUTPUT", "-1")
	var out, errOut bytes.Buffer
	if code := run(nil, strings.NewReader(""), &out, &errOut); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if out.Len() != 0 || !strings.Contains(errOut.String(), "MCP_TERMINAL_MAX_OUTPUT") {
		t.Fatalf("stdout %q stderr %q", out.String(), errOut.String())
	}
}

// TestServeExitsOnEOF: a client that goes away ends the server, and stdout holds
// nothing but protocol messages. Not parallel: serving changes the process's signal
// handling.
func TestServeExitsOnEOF(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	var out, errOut bytes.Buffer
	if code := run(nil, in, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.HasPrefix(line, `{"jsonrpc":"2.0"`) {
			t.Fatalf("stdout line is not a protocol message: %q", line)
		}
	}
}

func TestHelpNamesEveryWayToRun(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := run([]string{"--help"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	help := errOut.String()
	for _, want := range []string{"mcp-terminal [flags]", "mcp-terminal doctor", "-max-sessions", "MCP_TERMINAL_MAX_SESSIONS", "-version"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help does not mention %q:\n%s", want, help)
		}
	}
	if out.Len() != 0 {
		t.Errorf("--help wrote to stdout: %q", out.String())
	}
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	var out, errOut bytes.Buffer
	code := doctor(nil, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "hello from") || !strings.Contains(out.String(), "all checks passed") {
		t.Fatalf("doctor exit %d:\n%s\n%s", code, out.String(), errOut.String())
	}
	// Each request is printed as "> tool {json arguments}  (duration)".
	var calls []string
	for _, line := range strings.Split(out.String(), "\n") {
		rest, ok := strings.CutPrefix(line, "> ")
		if !ok {
			continue
		}
		name, request, _ := strings.Cut(rest, " ")
		request, _, _ = strings.Cut(request, "  (")
		var args map[string]any
		if err := json.Unmarshal([]byte(request), &args); err != nil {
			t.Errorf("%s's request is not JSON: %q: %v", name, request, err)
		}
		calls = append(calls, name)
		if name == "send_command" && args["input"] != "echo hello from $0" {
			t.Errorf("send_command's input %v, want the echo", args["input"])
		}
	}
	if want := []string{"create_session", "send_command", "close_session"}; !slices.Equal(calls, want) {
		t.Errorf("doctor printed requests %v, want %v:\n%s", calls, want, out.String())
	}
}

// TestReadmeClientConfigs: the client configurations in the README's Install
// section are JSON, and run the built binary by its absolute path (the published
// `go run …@latest` form is prose there, marked as such).
func TestReadmeClientConfigs(t *testing.T) {
	t.Parallel()
	readme := readFile(t, "../../README.md")
	_, install, _ := strings.Cut(readme, "\n## Install\n")
	install, _, _ = strings.Cut(install, "\n## ")
	blocks := strings.Split(install, "```json\n")[1:]
	if len(blocks) < 2 {
		t.Fatalf("the Install section has %d JSON configurations, want Cursor/Windsurf and VS Code", len(blocks))
	}
	for _, block := range blocks {
		block, _, _ = strings.Cut(block, "```")
		var config map[string]map[string]struct {
			Command string
			Args    []string
		}
		if err := json.Unmarshal([]byte(block), &config); err != nil {
			t.Errorf("not JSON: %v\n%s", err, block)
			continue
		}
		for key, servers := range config {
			for name, s := range servers {
				if !strings.HasPrefix(s.Command, "/") || !strings.HasSuffix(s.Command, "/mcp-terminal") {
					t.Errorf("%s.%s runs %q, not the built binary's absolute path", key, name, s.Command)
				}
			}
		}
	}
}
