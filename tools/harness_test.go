package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/mcptest"

	"github.com/mcp-terminal/mcp-terminal/session"
)

// harness is the real tool server, built by New over a real session manager, served
// by mcp-go to an in-process client: every call crosses the same JSON-RPC a client's
// does, and every session runs a real program.
type harness struct {
	t        *testing.T
	c        *client.Client
	sessions *session.Manager
	dir      string   // a temporary working directory for the sessions
	paths    []string // more paths for normalise to hide, e.g. where python3 is
}

// newHarness serves the tools with cfg (zero values mean the defaults, as for New).
// Sessions settle after 100 ms of quiet rather than 300, to keep the tests quick.
func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	return newHarnessWith(t, cfg, session.Config{Settle: 100 * time.Millisecond})
}

func newHarnessWith(t *testing.T, cfg Config, scfg session.Config) *harness {
	t.Helper()
	h := &harness{t: t, sessions: newManagerWith(t, scfg), dir: t.TempDir()}
	srv := mcptest.NewUnstartedServer(t)
	srv.AddTools(New(cfg, h.sessions).Tools()...)
	if err := srv.Start(t.Context()); err != nil { // the server lives as long as the test
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h.c = srv.Client()
	return h
}

// managers are shut down once every test has finished: Manager.Shutdown also kills
// every process of this test binary that any session left behind (pty.KillOrphans), so
// a test that shut its manager down would end the sessions of tests running beside it.
var managers struct {
	sync.Mutex
	all []*session.Manager
}

func TestMain(m *testing.M) {
	// As main does before serving: descriptors this test binary inherited (go test
	// and the shell that started it may leak some) must not reach session programs.
	if err := session.SealInherited(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, sm := range managers.all {
		sm.Shutdown(ctx)
	}
	os.Exit(code)
}

// newManager is a session registry whose sessions end with the test.
func newManager(t *testing.T) *session.Manager { return newManagerWith(t, session.Config{}) }

func newManagerWith(t *testing.T, cfg session.Config) *session.Manager {
	t.Helper()
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = -1 // no reaper to stop
	}
	sm := session.NewManager(cfg)
	managers.Lock()
	managers.all = append(managers.all, sm)
	managers.Unlock()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, info := range sm.List() {
			sm.Close(ctx, info.ID, 0)
		}
	})
	return sm
}

// reply is one tool result as a client sees it.
type reply struct {
	Text    string
	IsError bool
	S       map[string]any // structuredContent
}

func (r reply) str(key string) string   { s, _ := r.S[key].(string); return s }
func (r reply) boolean(key string) bool { b, _ := r.S[key].(bool); return b }

// call runs a tool; a protocol error fails the test (tool errors are replies).
func (h *harness) call(name string, args map[string]any) reply {
	h.t.Helper()
	return h.callWith(name, args, nil)
}

func (h *harness) callWith(name string, args map[string]any, meta *mcp.Meta) reply {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.t.Context(), 30*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments, req.Params.Meta = name, args, meta
	res, err := h.c.CallTool(ctx, req)
	if err != nil {
		h.t.Fatalf("%s: protocol error: %v", name, err)
	}
	var r reply
	r.IsError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			r.Text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			h.t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r.S); err != nil {
			h.t.Fatal(err)
		}
	}
	return r
}

// must is call that fails the test on a tool error.
func (h *harness) must(name string, args map[string]any) reply {
	h.t.Helper()
	r := h.call(name, args)
	if r.IsError {
		h.t.Fatalf("%s %v: %s", name, args, r.Text)
	}
	return r
}

// refused is call that fails the test unless the reply is a tool error.
func (h *harness) refused(name string, args map[string]any) reply {
	h.t.Helper()
	r := h.call(name, args)
	if !r.IsError {
		h.t.Fatalf("%s %v: want a tool error, got %s", name, args, r.Text)
	}
	return r
}

// bash starts a plain bash with a "$ " prompt in the harness's directory, ready
// when create_session returns, and gives its session id.
func (h *harness) bash() string {
	h.t.Helper()
	r := h.must("create_session", map[string]any{"command": "bash", "args": []any{"--norc", "--noprofile"}, "cwd": h.dir,
		"env": map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null"}})
	if !r.boolean("ready") {
		h.t.Fatalf("bash not ready: %s", r.Text)
	}
	return r.str("session_id")
}

// send runs send_command with input and any extra arguments, and fails the test on
// a tool error.
func (h *harness) send(id, input string, extra map[string]any) reply {
	h.t.Helper()
	args := map[string]any{"session_id": id, "input": input}
	for k, v := range extra {
		args[k] = v
	}
	return h.must("send_command", args)
}

var (
	sessionIDs = regexp.MustCompile(`\b[0-9a-f]{8}\b`)
	durations  = regexp.MustCompile(`\b\d+(\.\d)? (ms|s)\b`)
	jsonPIDs   = regexp.MustCompile(`"pid": \d+`)
	textPIDs   = regexp.MustCompile(`pid \d+ *`) // list_sessions pads the pid
	volatile   = regexp.MustCompile(`"(duration_ms|created_at|last_activity)": [^,\n]+`)
)

// golden compares r with testdata/results/<name>.golden, after replacing what
// changes from run to run (see normalise).
func (h *harness) golden(name string, r reply) {
	h.t.Helper()
	var b strings.Builder
	if r.IsError {
		b.WriteString("-- error --\n")
	} else {
		b.WriteString("-- text --\n")
	}
	b.WriteString(r.Text)
	if r.S != nil {
		st, err := json.MarshalIndent(r.S, "", "  ")
		if err != nil {
			h.t.Fatal(err)
		}
		b.WriteString("\n-- structured --\n")
		b.Write(st)
	}
	b.WriteString("\n")
	h.goldenText(name, b.String())
}

// goldenText compares text, normalised, with testdata/results/<name>.golden.
func (h *harness) goldenText(name, text string) {
	h.t.Helper()
	golden(h.t, name, h.normalise(text))
}

// golden compares got with testdata/results/<name>.golden; go test ./tools -update
// rewrites the file.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "results", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no golden result %s (run go test ./tools -update): %v", path, err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-golden +now); run go test ./tools -update if intended:\n%s", path, diff)
	}
}

// normalise replaces what changes from run to run: session ids, pids, durations,
// times and the temporary directory.
func (h *harness) normalise(s string) string {
	s = strings.ReplaceAll(s, h.dir, "<dir>")
	for _, p := range h.paths {
		s = strings.ReplaceAll(s, p, "<path>")
	}
	s = sessionIDs.ReplaceAllString(s, "<id>")
	s = durations.ReplaceAllString(s, "<duration>")
	s = jsonPIDs.ReplaceAllString(s, `"pid": "<pid>"`)
	s = textPIDs.ReplaceAllString(s, "pid <pid> ")
	return volatile.ReplaceAllString(s, `"$1": "<volatile>"`)
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
