package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The two protocol eras mcp-go's streamable HTTP transport serves on one endpoint.
const (
	modernEra = mcp.ProtocolVersion20260728 // stateless: no initialize, no Mcp-Session-Id
	legacyEra = "2025-11-25"                // initialize handshake and MCP sessions
)

// httpServer is one mcp-terminal serving streamable HTTP on a free loopback port.
type httpServer struct {
	t      testing.TB
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:port/mcp
	base   string // http://127.0.0.1:port
	stderr *syncBuffer
	exited chan struct{}
	mark   string
}

var servingURL = regexp.MustCompile(`serving streamable HTTP" url=(\S+)`)

// startHTTP runs the binary with --http 127.0.0.1:0 and the given flags and
// environment, and waits until it says where it listens.
func startHTTP(t testing.TB, args []string, env ...string) *httpServer {
	t.Helper()
	return startHTTPAs(t, binPath, nil, args, env...)
}

// startHTTPAs is startHTTP for the binary bin run as the user cred names (nil:
// as the test).
func startHTTPAs(t testing.TB, bin string, cred *syscall.Credential, args []string, env ...string) *httpServer {
	t.Helper()
	h := &httpServer{t: t, stderr: &syncBuffer{}, exited: make(chan struct{}),
		mark: fmt.Sprintf("mcpt-http-%d-%d", os.Getpid(), time.Now().UnixNano())}
	h.cmd = exec.Command(bin, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	h.cmd.Env = append(os.Environ(), env...)
	if cred != nil {
		h.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	h.cmd.Stderr = h.stderr
	if err := h.cmd.Start(); err != nil {
		t.Fatalf("start server: %v", err)
	}
	go func() { _ = h.cmd.Wait(); close(h.exited) }() // exits when the process does
	t.Cleanup(func() {
		h.stop()
		if t.Failed() {
			t.Logf("server stderr:\n%s", h.stderr.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := servingURL.FindStringSubmatch(h.stderr.String()); m != nil {
			h.url = m[1]
			h.base = strings.TrimSuffix(h.url, "/mcp")
			return h
		}
		select {
		case <-h.exited:
			t.Fatalf("server exited before serving: %s", h.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start serving: %s", h.stderr.String())
		}
	}
}

// stop sends SIGTERM and waits for the process, killing it if it lingers.
func (h *httpServer) stop() {
	select {
	case <-h.exited:
		return
	default:
	}
	_ = h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.exited:
	case <-time.After(20 * time.Second):
		h.t.Errorf("server still running 20 s after SIGTERM")
		_ = h.cmd.Process.Kill()
		<-h.exited
	}
}

// connect returns a client of the given era, authenticated with token (none when
// empty), wrapped in the stdio harness's server type so its helpers apply.
func (h *httpServer) connect(t testing.TB, token, era string, opts ...transport.StreamableHTTPCOption) *server {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	if token != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	}
	tr, err := transport.NewStreamableHTTP(h.url, opts...)
	if err != nil {
		t.Fatalf("transport: %v", err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(era))
	s := &server{t: t, c: c, cmd: h.cmd, stderr: h.stderr, ctx: ctx, mark: h.mark} // cmd: the process every client of h shares
	t.Cleanup(s.close)
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start client: %v", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = era
	init.Params.ClientInfo = mcp.Implementation{Name: "integration-test-http", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize (%s): %v", era, err)
	}
	if got := c.ProtocolVersion(); got != era {
		t.Fatalf("negotiated protocol %q, want %q", got, era)
	}
	return s
}

// failStart runs the binary with flags that must make it refuse to start, and
// returns what it printed.
func failStart(t *testing.T, args []string, env ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err == nil || ctx.Err() != nil {
		t.Fatalf("%v: started (or hung) instead of refusing: %v\n%s", args, err, out)
	}
	return string(out)
}

// tokensFile writes a tokens file of principal -> token with mode 0600.
func tokensFile(t *testing.T, pairs ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# principal token\n")
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(&b, "%s %s\n", pairs[i], pairs[i+1])
	}
	path := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// post sends a raw JSON-RPC initialize to /mcp with the given headers and returns
// the response, body read.
// initialize is a session-based client's first request.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// request sends method to /mcp with headers and body (nil: none; a reader of no
// known length goes in chunks) and returns the response, its body read.
func (h *httpServer) request(t *testing.T, method string, headers map[string]string, body io.Reader) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, h.url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s /mcp: %v", method, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func (h *httpServer) post(t *testing.T, headers map[string]string, body string) (*http.Response, string) {
	t.Helper()
	if body == "" {
		body = initialize
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, h.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST /mcp: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// get fetches url and fails unless it answers with status; it returns the body.
func get(t *testing.T, url string, status int) string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("GET %s: %d, want %d: %s", url, resp.StatusCode, status, b)
	}
	return string(b)
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(get(t, url, 200)), v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func toolRequest(name string, args map[string]any) mcp.CallToolRequest {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	return req
}
