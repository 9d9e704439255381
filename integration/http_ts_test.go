package integration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The official TypeScript SDK client (@modelcontextprotocol/sdk, pinned by
// testdata/tsclient/package-lock.json) drives a bash session over streamable HTTP
// in the session-based era, ends its MCP session, and finds the terminal session
// again from a new one.
func TestHTTPTypeScriptSDKClient(t *testing.T) {
	t.Parallel()
	need(t, "bash", "node", "npm")
	dir := tsClient(t)
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken)})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "client.mjs", h.url, aliceToken)
	cmd.Dir = dir
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, stderr.String())
	}
	var got struct {
		ProtocolVersion, MCPSession, SecondMCPSession string
		Tools                                         []string
		Output, Text, Again                           string
		Complete, Listed, Closed                      bool
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client printed %q: %v", out, err)
	}
	switch {
	case got.ProtocolVersion != legacyEra || got.MCPSession == "" || got.SecondMCPSession == got.MCPSession:
		t.Errorf("not the session-based era with two MCP sessions: %+v", got)
	case len(got.Tools) != 7:
		t.Errorf("tools %v", got.Tools)
	case !strings.Contains(got.Output, "ts-42") || !got.Complete || !strings.Contains(got.Text, "[complete:"):
		t.Errorf("send_command: %+v", got)
	case !got.Listed || !strings.Contains(got.Again, "again-3") || !got.Closed:
		t.Errorf("the session did not survive the end of its MCP session: %+v", got)
	}
}

// tsClient installs the pinned SDK once per lock file into the user's cache
// directory (npm ci, no install scripts) and returns the directory to run in.
func tsClient(t *testing.T) string {
	t.Helper()
	src := filepath.Join("testdata", "tsclient")
	lock, err := os.ReadFile(filepath.Join(src, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(src, "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(append(append([]byte{}, lock...), script...))
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "mcp-terminal-test", "tsclient-"+hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err == nil {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range []string{"package.json", "package-lock.json", "client.mjs"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	npm := exec.CommandContext(ctx, "npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--cache", filepath.Join(filepath.Dir(dir), "npm-cache"))
	npm.Dir = tmp
	if out, err := npm.CombinedOutput(); err != nil {
		t.Fatalf("npm ci (the registry must be reachable the first time): %v\n%s", err, out)
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, serr := os.Stat(dir); serr != nil { // another run won the race: use its copy
			t.Fatal(err)
		}
	}
	return dir
}
