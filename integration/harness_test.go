package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// binPath is the server binary built once for the whole package.
var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcp-terminal-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "mcp-terminal")
	args := []string{"build", "-o", binPath}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "../cmd/mcp-terminal")...)
	if !raceEnabled { // the static binary the README builds; the race detector needs cgo
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
	}
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build server:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is one running mcp-terminal with a connected client.
type server struct {
	t      testing.TB
	c      *client.Client
	cmd    *exec.Cmd
	stderr *syncBuffer
	ctx    context.Context
	mark   string // put in every session's environment, to find its processes later
	closed bool
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs the binary with extra environment and initialises a client. The
// whole test is bounded by a watchdog so nothing can hang.
func startServer(t *testing.T, env ...string) *server { return startServerTB(t, env...) }

// startServerTB serves tests and benchmarks alike.
func startServerTB(t testing.TB, env ...string) *server {
	t.Helper()
	return startServerWith(t, mcp.LATEST_PROTOCOL_VERSION, nil, env...)
}

// ignoreSignals, among startServer's environment, starts the server with SIGINT
// and SIGQUIT ignored (see startServerWith); the server never sees it.
const ignoreSignals = "MCPT_TEST_IGNORE_INT_QUIT=1"

// startServerWith starts the server for a client that speaks version and has opts
// (an elicitation handler, say).
func startServerWith(t testing.TB, version string, opts []client.ClientOption, env ...string) *server {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	s := &server{t: t, stderr: &syncBuffer{}, ctx: ctx, mark: fmt.Sprintf("mcpt-%d-%d", os.Getpid(), time.Now().UnixNano())}
	cmdFunc := func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
		cmd := exec.Command(command, args...)
		if slices.Contains(env, ignoreSignals) {
			// As a background job of a non-interactive shell starts: SIGINT and
			// SIGQUIT ignored, which exec keeps.
			cmd = exec.Command("sh", append([]string{"-c", `trap '' INT QUIT; exec "$0" "$@"`, command}, args...)...)
		}
		cmd.Env = append(os.Environ(), env...)
		s.cmd = cmd
		return cmd, nil
	}
	tr := transport.NewStdioWithOptions(binPath, env, nil,
		transport.WithCommandFunc(cmdFunc), transport.WithCommandStderrWriter(s.stderr))
	if err := tr.Start(context.Background()); err != nil { // the server lives until close
		t.Fatalf("start server: %v", err)
	}
	c := client.NewClient(tr, append([]client.ClientOption{client.WithProtocolVersion(version)}, opts...)...)
	s.c = c
	t.Cleanup(func() {
		s.close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	// The constructor starts the transport but not the client, whose Start wires
	// notifications (progress) to OnNotification.
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start client: %v", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: "integration-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return s
}

// close disconnects the client (stdin EOF) and waits for the server to exit.
func (s *server) close() {
	if s.closed {
		return
	}
	s.closed = true
	_ = s.c.Close()
}

// result is a tool result with its text and structured content decoded.
type result struct {
	Text    string
	IsError bool
	S       map[string]any
}

func (r result) str(key string) string {
	v, _ := r.S[key].(string)
	return v
}

func (r result) boolean(key string) bool {
	v, _ := r.S[key].(bool)
	return v
}

func (r result) num(key string) (float64, bool) {
	v, ok := r.S[key].(float64)
	return v, ok
}

// call invokes a tool; a protocol error fails the test, a tool error does not.
func (s *server) call(name string, args map[string]any) result {
	s.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := s.c.CallTool(s.ctx, req)
	if err != nil {
		s.t.Fatalf("%s %v: protocol error: %v", name, args, err)
	}
	return decode(s.t, res)
}

func decode(t testing.TB, res *mcp.CallToolResult) result {
	t.Helper()
	var r result
	r.IsError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			r.Text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatalf("structured content: %v", err)
		}
		if err := json.Unmarshal(b, &r.S); err != nil {
			t.Fatalf("structured content %s: %v", b, err)
		}
	}
	if strings.ContainsRune(r.Text, 0x1b) {
		t.Errorf("escape byte in result text: %q", r.Text)
	}
	return r
}

// create starts a session and fails the test if it cannot.
func (s *server) create(command string, args map[string]any) string {
	s.t.Helper()
	return s.createResult(command, args).str("session_id")
}

// createResult is create returning the whole create_session result. The sessions
// carry the test's mark, and the REPLs and gdb get quiet defaults.
func (s *server) createResult(command string, args map[string]any) result {
	s.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	args["command"] = command
	env, _ := args["env"].(map[string]any)
	if env == nil {
		env = map[string]any{}
	}
	env["MCPT_TEST_MARK"] = s.mark
	// Keep the REPLs' history files out of the user's home.
	for k, v := range map[string]string{"LESSHISTFILE": "-", "NODE_REPL_HISTORY": "", "PYTHON_HISTORY": os.DevNull, "DEBUGINFOD_URLS": ""} {
		if _, set := env[k]; !set {
			env[k] = v
		}
	}
	args["env"] = env
	r := s.call("create_session", args)
	if r.IsError {
		s.t.Fatalf("create_session %s: %s", command, r.Text)
	}
	if id := r.str("session_id"); len(id) != 8 {
		s.t.Fatalf("session_id %q is not 8 characters", id)
	}
	return r
}

// bash starts a bash without startup files and a plain, known prompt.
func (s *server) bash(extraEnv map[string]any) string {
	s.t.Helper()
	env := map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null"}
	for k, v := range extraEnv {
		env[k] = v
	}
	return s.create("bash", map[string]any{"args": []any{"--norc", "--noprofile"}, "env": env})
}

// send runs send_command and fails on a tool error.
func (s *server) send(id, input string, extra map[string]any) result {
	s.t.Helper()
	return s.must("send_command", map[string]any{"session_id": id, "input": input}, extra)
}

// control presses keys with send_control and fails on a tool error.
func (s *server) control(id, keys string) result {
	s.t.Helper()
	return s.must("send_control", map[string]any{"session_id": id, "control": keys}, nil)
}

// must calls a tool with args plus extra and fails the test on a tool error.
func (s *server) must(tool string, args, extra map[string]any) result {
	s.t.Helper()
	for k, v := range extra {
		args[k] = v
	}
	r := s.call(tool, args)
	if r.IsError {
		s.t.Fatalf("%s %v: %s", tool, args, r.Text)
	}
	return r
}

// complete asserts a typing result finished on the given evidence.
func complete(t *testing.T, r result, reason string) {
	t.Helper()
	if !r.boolean("is_complete") {
		t.Fatalf("not complete: %q", r.Text)
	}
	if reason != "" && r.str("reason") != reason {
		t.Fatalf("reason %q, want %q: %q", r.str("reason"), reason, r.Text)
	}
}

func need(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (.ci/run installs it)", p)
		}
	}
}

// markedProcesses lists processes whose environment carries the mark.
func markedProcesses(mark string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid := e.Name()
		if pid[0] < '0' || pid[0] > '9' {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", pid, "environ"))
		if err != nil || !bytes.Contains(env, []byte("MCPT_TEST_MARK="+mark)) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", pid, "stat"))
		found = append(found, pid+": "+strings.TrimSpace(string(stat)))
	}
	return found
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitForProcesses waits until at least n processes carry the server's mark: a job
// started in the background may not have started yet when its command returns.
func waitForProcesses(t *testing.T, s *server, n int) {
	t.Helper()
	eventually(t, 5*time.Second, fmt.Sprintf("%d session processes to run", n), func() bool {
		return len(markedProcesses(s.mark)) >= n
	})
}
