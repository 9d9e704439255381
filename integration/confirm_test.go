package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Confirmation by a person, against the built binary over stdio: mcp-go's client
// in both protocol eras and the official TypeScript SDK client, each with an
// elicitation handler standing in for the person. The dangerous input is
// chmod -R 777 on a directory of the test's own; its mode shows whether it ran.

// answerer answers every elicitation with action and keeps the questions.
type answerer struct {
	action mcp.ElicitationResponseAction
	mu     sync.Mutex
	asked  []string
}

func (a *answerer) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req.Params.Message)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: a.action}}, nil
}

func (a *answerer) questions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.asked...)
}

// chmodTarget is a directory with mode 0755, and the dangerous input aimed at it.
func chmodTarget(t *testing.T) (dir, input string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "tree")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, "chmod -R 777 " + dir
}

func modeOf(t *testing.T, dir string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func auditText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestConfirmByPerson(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	for _, era := range []string{legacyEra, modernEra} {
		for _, action := range []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionAccept, mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel} {
			t.Run(era+"/"+string(action), func(t *testing.T) {
				t.Parallel()
				p := &answerer{action: action}
				audit := filepath.Join(t.TempDir(), "audit.log")
				s := startServerWith(t, era, []client.ClientOption{client.WithElicitationHandler(p)}, "MCP_TERMINAL_AUDIT_LOG="+audit)
				dir, danger := chmodTarget(t)
				id := s.bash(nil)
				r := s.call("send_command", map[string]any{"session_id": id, "input": "echo before-it\n" + danger + "\necho after-it"})
				q := p.questions()
				if len(q) != 1 || !strings.Contains(q[0], danger) || !strings.Contains(q[0], id) || !strings.Contains(q[0], "chmod-recursive-777") {
					t.Fatalf("the person was asked %q", q)
				}
				if !strings.Contains(r.Text, "before-it") {
					t.Fatalf("the line before the dangerous one: %s", r.Text)
				}
				if action == mcp.ElicitationResponseActionAccept {
					if r.IsError || !strings.Contains(r.Text, "after-it") || modeOf(t, dir) != 0o777 {
						t.Fatalf("accepted: %v %s (mode %o)", r.IsError, r.Text, modeOf(t, dir))
					}
					s.close()
					if a := auditText(t, audit); !strings.Contains(a, `"confirmed_by":"human"`) {
						t.Fatalf("no human confirmation in the audit log:\n%s", a)
					}
					return
				}
				if !r.IsError || strings.Contains(r.Text, "after-it") || modeOf(t, dir) != 0o755 {
					t.Fatalf("%s: %v %s (mode %o)", action, r.IsError, r.Text, modeOf(t, dir))
				}
				c := s.call("confirm_dangerous_command", map[string]any{"session_id": id, "input": danger, "justification": "the agent insists it is needed"})
				switch action {
				case mcp.ElicitationResponseActionDecline:
					if !strings.Contains(r.Text, "declined") || !c.IsError || len(p.questions()) != 1 || modeOf(t, dir) != 0o755 {
						t.Fatalf("after a decline, confirm_dangerous_command: %v %s", c.IsError, c.Text)
					}
				case mcp.ElicitationResponseActionCancel:
					// Not final: the confirmation asks the person again (who cancels again).
					if !strings.Contains(r.Text, "cancelled") || !c.IsError || len(p.questions()) != 2 || !strings.Contains(p.questions()[1], "the agent insists") {
						t.Fatalf("after a cancel, confirm_dangerous_command: %v %s (asked %q)", c.IsError, c.Text, p.questions())
					}
				}
			})
		}
	}
}

// Without the elicitation capability: the agent confirms under auto; nobody can
// under human.
func TestConfirmWithoutElicitation(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	for _, era := range []string{legacyEra, modernEra} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			s := startServerWith(t, era, nil)
			dir, danger := chmodTarget(t)
			id := s.bash(nil)
			if r := s.call("send_command", map[string]any{"session_id": id, "input": danger}); !r.IsError || !strings.Contains(r.Text, "call confirm_dangerous_command") {
				t.Fatalf("auto: %s", r.Text)
			}
			s.must("confirm_dangerous_command", map[string]any{"session_id": id, "input": danger, "justification": "the test's own directory"}, nil)
			if modeOf(t, dir) != 0o777 {
				t.Fatal("the agent's confirmation did not run it")
			}

			s = startServerWith(t, era, nil, "MCP_TERMINAL_CONFIRM=human")
			dir, danger = chmodTarget(t)
			id = s.bash(nil)
			r := s.call("send_command", map[string]any{"session_id": id, "input": danger})
			c := s.call("confirm_dangerous_command", map[string]any{"session_id": id, "input": danger, "justification": "the test's own directory"})
			if !r.IsError || !strings.Contains(r.Text, "MCP_TERMINAL_CONFIRM=human") || !c.IsError || modeOf(t, dir) != 0o755 {
				t.Fatalf("human: %s / %s", r.Text, c.Text)
			}
		})
	}
}

// The official TypeScript SDK client (session-based era, over stdio) with an
// elicitation handler that accepts, declines or cancels.
func TestConfirmTypeScriptSDKClient(t *testing.T) {
	t.Parallel()
	need(t, "bash", "node", "npm")
	dir := tsClient(t)
	for _, action := range []string{"accept", "decline", "cancel"} {
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			target, danger := chmodTarget(t)
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", "elicit.mjs", binPath, action, danger)
			cmd.Dir = dir
			var stderr syncBuffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node elicit.mjs: %v\n%s", err, stderr.String())
			}
			type reply struct {
				IsError bool
				Text    string
			}
			var got struct {
				Questions       []string
				Session         string
				Sent, Confirmed reply
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("client printed %q: %v", out, err)
			}
			if len(got.Questions) == 0 || !strings.Contains(got.Questions[0], danger) || !strings.Contains(got.Questions[0], got.Session) {
				t.Fatalf("questions %q", got.Questions)
			}
			mode := modeOf(t, target)
			switch action {
			case "accept":
				// The send runs it; the confirmation that follows is then ordinary
				// input the person is asked about again, and accepts.
				if got.Sent.IsError || !strings.Contains(got.Sent.Text, "after-it") || mode != 0o777 {
					t.Fatalf("accepted: %+v (mode %o)", got, mode)
				}
			case "decline":
				if !got.Sent.IsError || !strings.Contains(got.Sent.Text, "declined") || !got.Confirmed.IsError || len(got.Questions) != 1 || mode != 0o755 {
					t.Fatalf("declined: %+v (mode %o)", got, mode)
				}
			case "cancel":
				if !got.Sent.IsError || !strings.Contains(got.Sent.Text, "cancelled") || !got.Confirmed.IsError || len(got.Questions) != 2 || mode != 0o755 {
					t.Fatalf("cancelled: %+v (mode %o)", got, mode)
				}
			}
		})
	}
}

// Over streamable HTTP, in both eras: the person is asked and the answer holds.
func TestConfirmByPersonOverHTTP(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken)})
	for _, era := range []string{legacyEra, modernEra} {
		for _, action := range []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionAccept, mcp.ElicitationResponseActionDecline} {
			t.Run(era+"/"+string(action), func(t *testing.T) {
				t.Parallel()
				p := &answerer{action: action}
				s := connectAsking(t, h, era, p)
				dir, danger := chmodTarget(t)
				id := s.bash(nil)
				r := s.call("send_command", map[string]any{"session_id": id, "input": danger})
				if len(p.questions()) != 1 || !strings.Contains(p.questions()[0], danger) {
					t.Fatalf("asked %q", p.questions())
				}
				want := os.FileMode(0o755)
				if action == mcp.ElicitationResponseActionAccept {
					want = 0o777
				}
				if r.IsError == (action == mcp.ElicitationResponseActionAccept) || modeOf(t, dir) != want {
					t.Fatalf("%s: %v %s (mode %o)", action, r.IsError, r.Text, modeOf(t, dir))
				}
			})
		}
	}
}

// connectAsking connects to h as alice with p answering elicitations.
func connectAsking(t *testing.T, h *httpServer, era string, p *answerer) *server {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	tr, err := transport.NewStreamableHTTP(h.url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + aliceToken}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(era), client.WithElicitationHandler(p))
	s := &server{t: t, c: c, stderr: h.stderr, ctx: ctx, mark: h.mark}
	t.Cleanup(s.close)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = era
	init.Params.ClientInfo = mcp.Implementation{Name: "integration-test-elicit", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize (%s): %v", era, err)
	}
	return s
}
