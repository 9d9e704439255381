package tools

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-terminal/mcp-terminal/security/danger"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// Confirmation by a person: the real tools behind mcp-go's stdio server, driven by
// mcp-go's client over pipes, in each protocol era, with an elicitation handler
// standing in for the person. None of these tests is parallel: mcp-go v1.2.1's
// StdioServer keeps one session for the whole process (stdioSessionInstance), so
// the requests it sends (elicitation/create) go to whichever stdio server started
// last; sequential tests run while every parallel one waits. The dangerous input is chmod -R 777 on a directory of
// the test's own, so whether it ran shows in the directory's mode.

// eras are the two ways a client can be asked: elicitation/create in the call
// (before 2026-07-28), input_required and a retry (from 2026-07-28).
var eras = []struct{ name, version string }{
	{"2025-11-25", mcp.LATEST_LEGACY_PROTOCOL_VERSION},
	{"2026-07-28", mcp.ProtocolVersion20260728},
}

// person answers every question with action, after a pause, and keeps what it was
// asked.
type person struct {
	action mcp.ElicitationResponseAction
	pause  time.Duration
	during func() // runs while the person is being asked

	mu    sync.Mutex
	asked []string
}

func (p *person) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	p.mu.Lock()
	p.asked = append(p.asked, req.Params.Message)
	p.mu.Unlock()
	if p.during != nil {
		p.during()
	}
	select {
	case <-time.After(p.pause):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: p.action}}, nil
}

func (p *person) questions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.asked...)
}

// elicitHarness serves the tools over stdio pipes to mcp-go's client speaking
// version, with p as the person (nil: the client declares no elicitation).
func elicitHarness(t *testing.T, cfg Config, version string, p *person) (*harness, string, string) {
	t.Helper()
	audit, auditPath := openAudit(t)
	cfg.DangerDetection, cfg.Audit = true, audit
	h := &harness{t: t, sessions: newManagerWith(t, session.Config{Settle: 100 * time.Millisecond}), dir: t.TempDir()}
	srv := server.NewMCPServer("mcp-terminal-test", "1", server.WithToolCapabilities(false))
	srv.AddTools(New(cfg, h.sessions).Tools()...)

	ctx, cancel := context.WithCancel(context.Background())
	// Kernel pipes, buffered as a real client's stdio is (io.Pipe would make every
	// write wait for its reader).
	serverIn, clientOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	clientIn, serverOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { // ends when ctx is cancelled or the pipes close
		defer close(done)
		_ = server.NewStdioServer(srv).Listen(ctx, serverIn, serverOut)
	}()
	opts := []client.ClientOption{client.WithProtocolVersion(version)}
	if p != nil {
		opts = append(opts, client.WithElicitationHandler(p))
	}
	h.c = client.NewClient(transport.NewIO(clientIn, clientOut, io.NopCloser(strings.NewReader(""))), opts...)
	t.Cleanup(func() {
		_ = h.c.Close()
		cancel()
		clientOut.Close() // the server reads EOF
		<-done
		for _, f := range []*os.File{serverIn, clientIn, serverOut} {
			f.Close()
		}
	})
	if err := h.c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var res *mcp.InitializeResult
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: "confirm-test", Version: "1"}
	res, err = h.c.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if res.ProtocolVersion != version {
		t.Fatalf("negotiated %s, want %s", res.ProtocolVersion, version)
	}
	target := filepath.Join(h.dir, "tree")
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	return h, target, auditPath
}

func changed(t *testing.T, target string) {
	t.Helper()
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o777 {
		t.Fatalf("the accepted input did not run: %v %v", fi.Mode(), err)
	}
}

// TestPersonAnswers: in both eras, a multi-line input whose second line is
// dangerous types the first, asks the person about the second with its exact text,
// the session and the rule, and runs it (and the rest) only on accept. A decline is
// final, even through confirm_dangerous_command; a cancel is not.
func TestPersonAnswers(t *testing.T) {
	for _, era := range eras {
		for _, action := range []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionAccept, mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel} {
			t.Run(era.name+"/"+string(action), func(t *testing.T) {
				p := &person{action: action}
				h, target, auditPath := elicitHarness(t, Config{}, era.version, p)
				id := h.bash()
				danger := "chmod -R 777 " + target
				r := h.call("send_command", map[string]any{"session_id": id, "input": "echo first-line\n" + danger + "\necho after-it"})
				asked := p.questions()
				if len(asked) != 1 {
					t.Fatalf("asked %d questions, want 1: %q", len(asked), asked)
				}
				for _, want := range []string{"    " + danger + "\n", "session " + id, "chmod-recursive-777", "Accept to run it"} {
					if !strings.Contains(asked[0], want) {
						t.Fatalf("the question lacks %q:\n%s", want, asked[0])
					}
				}
				if !strings.Contains(r.Text, "first-line") {
					t.Fatalf("the line before the dangerous one did not run: %s", r.Text)
				}
				switch action {
				case mcp.ElicitationResponseActionAccept:
					if r.IsError || !strings.Contains(r.Text, "after-it") {
						t.Fatalf("accepted input: %v %s", r.IsError, r.Text)
					}
					changed(t, target)
					if lines := auditLines(t, auditPath); !strings.Contains(lines, "confirmed | "+id+" | chmod-recursive-777 | "+danger+" | by human") {
						t.Fatalf("no human confirmation audited:\n%s", lines)
					}
					return
				case mcp.ElicitationResponseActionDecline:
					if !r.IsError || !strings.Contains(r.Text, "declined") || strings.Contains(r.Text, "after-it") {
						t.Fatalf("declined input: %v %s", r.IsError, r.Text)
					}
					// Final: neither the confirm tool nor asking again runs it, and the
					// person is not asked again.
					c := h.call("confirm_dangerous_command", map[string]any{"session_id": id, "input": danger, "justification": "the person surely meant yes"})
					if !c.IsError || !strings.Contains(c.Text, "declined") {
						t.Fatalf("confirm after a decline: %v %s", c.IsError, c.Text)
					}
					s := h.call("send_command", map[string]any{"session_id": id, "input": danger})
					if !s.IsError || len(p.questions()) != 1 {
						t.Fatalf("sent again after a decline (asked %d): %v %s", len(p.questions()), s.IsError, s.Text)
					}
				case mcp.ElicitationResponseActionCancel:
					if !r.IsError || !strings.Contains(r.Text, "cancelled") {
						t.Fatalf("cancelled input: %v %s", r.IsError, r.Text)
					}
					p.mu.Lock()
					p.action = mcp.ElicitationResponseActionAccept
					p.mu.Unlock()
					if s := h.call("send_command", map[string]any{"session_id": id, "input": danger}); s.IsError || len(p.questions()) != 2 {
						t.Fatalf("sent again after a cancel (asked %d): %s", len(p.questions()), s.Text)
					}
					changed(t, target)
					return
				}
				untouched(t, target)
				if strings.Contains(r.Text, "confirm_dangerous_command within") {
					t.Fatalf("a person's refusal offers the agent's confirmation: %s", r.Text)
				}
				h.send(id, "echo still-usable", nil)
			})
		}
	}
}

// TestPersonSeesHiddenInputAsHidden: input typed where the terminal does not echo
// is put to the person without its text.
func TestPersonSeesHiddenInputAsHidden(t *testing.T) {
	p := &person{action: mcp.ElicitationResponseActionDecline}
	h, target, auditPath := elicitHarness(t, Config{}, mcp.LATEST_LEGACY_PROTOCOL_VERSION, p)
	id := h.must("create_session", map[string]any{"command": "sh", "cwd": h.dir, "env": map[string]any{"PS1": "$ "}}).str("session_id")
	h.send(id, "stty -echo", nil)
	r := h.call("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target})
	if !r.IsError || len(p.questions()) != 1 {
		t.Fatalf("hidden dangerous input: %v %s", r.IsError, r.Text)
	}
	q := p.questions()[0]
	if strings.Contains(q, target) || !strings.Contains(q, "hidden input") {
		t.Fatalf("the question about hidden input:\n%s", q)
	}
	if strings.Contains(r.Text, target) || strings.Contains(auditLines(t, auditPath), target) {
		t.Fatalf("hidden input shown or logged: %s", r.Text)
	}
	untouched(t, target)
}

// TestNoPersonToAsk: a client without the elicitation capability gets the agent's
// confirmation under auto, and a refusal under human; agent never asks.
func TestNoPersonToAsk(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			h, target, auditPath := elicitHarness(t, Config{Confirm: ConfirmAuto}, era.version, nil)
			id := h.bash()
			danger := "chmod -R 777 " + target
			if r := h.refused("send_command", map[string]any{"session_id": id, "input": danger}); !strings.Contains(r.Text, "call confirm_dangerous_command") {
				t.Fatalf("auto without elicitation: %s", r.Text)
			}
			h.must("confirm_dangerous_command", map[string]any{"session_id": id, "input": danger, "justification": "the test's own directory"})
			changed(t, target)
			if lines := auditLines(t, auditPath); !strings.Contains(lines, "| by agent") {
				t.Fatalf("agent confirmation not audited:\n%s", lines)
			}

			h, target, _ = elicitHarness(t, Config{Confirm: ConfirmHuman}, era.version, nil)
			id = h.bash()
			danger = "chmod -R 777 " + target
			r := h.refused("send_command", map[string]any{"session_id": id, "input": danger})
			if !strings.Contains(r.Text, "MCP_TERMINAL_CONFIRM=human") || strings.Contains(r.Text, "call confirm_dangerous_command") {
				t.Fatalf("human without elicitation: %s", r.Text)
			}
			if c := h.call("confirm_dangerous_command", map[string]any{"session_id": id, "input": danger, "justification": "the test's own directory"}); !c.IsError {
				t.Fatalf("the agent confirmed under human: %s", c.Text)
			}
			untouched(t, target)
		})
	}
	t.Run("agent", func(t *testing.T) {
		p := &person{action: mcp.ElicitationResponseActionAccept}
		h, target, _ := elicitHarness(t, Config{Confirm: ConfirmAgent}, mcp.LATEST_LEGACY_PROTOCOL_VERSION, p)
		id := h.bash()
		h.refused("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target})
		if len(p.questions()) != 0 {
			t.Fatalf("agent mode asked the person")
		}
	})
}

// TestPersonDecidingHoldsTheSession: while the person decides, other typing calls
// on the session get a tool error saying so, reading works, the call's own
// timeout_ms does not run out, and a person who never answers is a refusal after
// the confirmation limit.
func TestPersonDecidingHoldsTheSession(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			p := &person{action: mcp.ElicitationResponseActionAccept, pause: 1500 * time.Millisecond}
			h, target, _ := elicitHarness(t, Config{}, era.version, p)
			id := h.bash()
			res := make(chan reply, 1)
			go func() {
				res <- h.callNoFail("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target + "; echo done-it", "timeout_ms": 1000})
			}()
			deadline := time.Now().Add(10 * time.Second)
			for len(p.questions()) == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the person was never asked: %+v", <-res)
				}
				time.Sleep(5 * time.Millisecond)
			}
			busy := h.call("send_command", map[string]any{"session_id": id, "input": "echo meanwhile"})
			if !busy.IsError || !strings.Contains(busy.Text, "waiting for a person") {
				t.Fatalf("typing while a person decides: %v %s\n(the call that asked: %+v)", busy.IsError, busy.Text, <-res)
			}
			h.must("read_output", map[string]any{"session_id": id})
			r := <-res
			if r.IsError || !strings.Contains(r.Text, "done-it") || !r.boolean("is_complete") {
				t.Fatalf("after the person accepted (the wait must not count against timeout_ms): %s", r.Text)
			}
			changed(t, target)
		})
	}
	for _, era := range eras {
		t.Run(era.name+"/no-answer", func(t *testing.T) {
			// The answer comes after the limit: before 2026-07-28 the call has ended
			// by then; after, the client's retry finds the question closed.
			p := &person{action: mcp.ElicitationResponseActionAccept, pause: 1500 * time.Millisecond}
			h, target, _ := elicitHarness(t, Config{ConfirmTimeout: 500 * time.Millisecond}, era.version, p)
			id := h.bash()
			r := h.refused("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target})
			if !strings.Contains(r.Text, "no answer within 500ms") && !strings.Contains(r.Text, "no longer open") {
				t.Fatalf("no answer: %s", r.Text)
			}
			untouched(t, target)
		})
	}
}

// callNoFail is call for a goroutine: a protocol error comes back as a tool error.
func (h *harness) callNoFail(name string, args map[string]any) reply {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := h.c.CallTool(ctx, req)
	if err != nil {
		return reply{Text: "protocol error: " + err.Error(), IsError: true}
	}
	var r reply
	r.IsError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			r.Text += tc.Text
		}
	}
	if m, ok := res.StructuredContent.(map[string]any); ok {
		r.S = m
	}
	return r
}

// TestProgressWhileAPersonDecides: before 2026-07-28, the call that waits for a
// person says so in its progress notifications.
func TestProgressWhileAPersonDecides(t *testing.T) {
	p := &person{action: mcp.ElicitationResponseActionAccept, pause: 2500 * time.Millisecond}
	h, target, _ := elicitHarness(t, Config{}, mcp.LATEST_LEGACY_PROTOCOL_VERSION, p)
	id := h.bash()
	msgs := h.progressMessages(id, "chmod -R 777 "+target)
	waiting := false
	for _, m := range msgs {
		waiting = waiting || strings.HasPrefix(m, "waiting for a person to confirm dangerous input (")
	}
	if !waiting {
		t.Fatalf("no progress message says a person is asked: %q", msgs)
	}
	changed(t, target)
}

// TestQuestionShowsWhatIsTyped: control and format characters in the input are
// shown as escapes, so the person reads the text that would be typed.
func TestQuestionShowsWhatIsTyped(t *testing.T) {
	for in, want := range map[string]string{
		"rm -rf ~/x":                 "rm -rf ~/x",
		"echo ok\x1b[2K\rrm -rf ~/x": `echo ok\x1b[2K\x0drm -rf ~/x`,
		"rm -rf ~/\u202etxt.cod":     `rm -rf ~/\u202etxt.cod`,
		"a\tb\x7f":                   `a\tb\x7f`,
		"line one\nline two\u200b":   "line one\nline two\\u200b",
	} {
		if got := visible(in); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
	q := question{session: "abcd1234", command: "/bin/bash", program: "sqlite3", line: "DROP TABLE t;", verdict: danger.Verdict{Rule: "sql-drop", Category: "data", Why: "drops a table."}}
	msg := q.params().Message
	for _, want := range []string{"session abcd1234 (/bin/bash, now running sqlite3)", "    DROP TABLE t;\n", "danger rule sql-drop (data): drops a table.\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("question lacks %q:\n%s", want, msg)
		}
	}
	q.hidden = true
	if msg := q.params().Message; strings.Contains(msg, "DROP") {
		t.Errorf("hidden input shown:\n%s", msg)
	}
}

// TestCloseWhileAPersonDecides: from 2026-07-28, closing the session while its
// question is open ends the typing; the answer that follows finds no question.
func TestCloseWhileAPersonDecides(t *testing.T) {
	p := &person{action: mcp.ElicitationResponseActionAccept}
	h, target, _ := elicitHarness(t, Config{}, mcp.ProtocolVersion20260728, p)
	id := h.bash()
	p.during = func() { h.callNoFail("close_session", map[string]any{"session_id": id}) }
	r := h.refused("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target})
	if !strings.Contains(r.Text, "no longer open") {
		t.Fatalf("the answer after close_session: %s", r.Text)
	}
	untouched(t, target)
}

// TestSessionGoesWhileAPersonDecides: a session that goes other than by close_session
// (the idle reaper, the server stopping) ends its open question as closing does.
func TestSessionGoesWhileAPersonDecides(t *testing.T) {
	p := &person{action: mcp.ElicitationResponseActionAccept}
	h, target, _ := elicitHarness(t, Config{}, mcp.ProtocolVersion20260728, p)
	id := h.bash()
	p.during = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := h.sessions.Close(ctx, id, 0); err != nil {
			t.Errorf("closing the session behind the tools: %v", err)
		}
	}
	r := h.refused("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target})
	if !strings.Contains(r.Text, "no longer open") {
		t.Fatalf("the answer after the session went: %s", r.Text)
	}
	untouched(t, target)
}

// TestPersonRefusalOfADeclinedLine: a line a person declined is refused for good,
// so the live view offers no confirmation that could never work (found by an
// independent probe: the page showed "Run it anyway").
func TestPersonRefusalOfADeclinedLine(t *testing.T) {
	for _, c := range []struct {
		err         *refusedInput
		confirmable bool
	}{
		{&refusedInput{line: "rm -rf x", why: "danger"}, true},
		{&refusedInput{line: "rm -rf x", why: "declined", person: true}, false},
		{&refusedInput{line: "curl x", why: "blocked", blocked: true}, false},
	} {
		line, _, ok := PersonRefusal(&session.Refusal{Line: c.err.line, Err: c.err})
		if ok != c.confirmable || line != c.err.line {
			t.Errorf("%+v: line %q, confirmable %v, want %v", c.err, line, ok, c.confirmable)
		}
	}
}
