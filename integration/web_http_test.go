package integration

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The live view over HTTP at /ui/: each principal signs in with their own bearer
// token and sees and controls only their own sessions.

// uiClient is a browser-like client with its own cookies.
type uiClient struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newUIClient(t *testing.T, base string) *uiClient {
	jar, _ := cookiejar.New(nil)
	return &uiClient{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
}

// do sends a request as a same-origin page would, and returns the status and body.
func (u *uiClient) do(method, path, contentType, body string, origin string) (int, string, *http.Response) {
	u.t.Helper()
	req, err := http.NewRequest(method, u.base+path, strings.NewReader(body))
	if err != nil {
		u.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := u.c.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp
}

func (u *uiClient) signIn(token string) int {
	u.t.Helper()
	st, _, _ := u.do("POST", "/ui/login", "application/x-www-form-urlencoded", url.Values{"token": {token}}.Encode(), u.base)
	return st
}

func TestWebOverHTTPPerPrincipal(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken, "bob", bobToken), "--allow-shared-user"})
	alice := h.connect(t, aliceToken, modernEra)
	created := alice.createResult("bash", map[string]any{"args": []any{"--norc", "--noprofile"}, "env": map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null"}})
	id := created.str("session_id")
	if watch := created.str("watch_url"); !strings.HasPrefix(watch, h.base+"/ui/s/"+id+"?view=") {
		t.Fatalf("watch_url %q", watch)
	}

	a, b := newUIClient(t, h.base), newUIClient(t, h.base)
	if st := a.signIn("wrong-token-0123456789"); st != http.StatusUnauthorized {
		t.Errorf("wrong token: %d, want 401", st)
	}
	if st, _, resp := a.do("POST", "/ui/login", "application/x-www-form-urlencoded", "token="+aliceToken, h.base); st != http.StatusOK {
		t.Fatalf("alice signs in: %d", st)
	} else if c := resp.Request.Response; c == nil || !strings.Contains(c.Header.Get("Set-Cookie"), "HttpOnly") || !strings.Contains(c.Header.Get("Set-Cookie"), "SameSite=Strict") {
		t.Errorf("sign-in cookie is not HttpOnly and SameSite=Strict: %v", c)
	}
	if st := b.signIn(bobToken); st != http.StatusOK {
		t.Fatalf("bob signs in: %d", st)
	}
	if _, page, _ := a.do("GET", "/ui/", "", "", ""); !strings.Contains(page, id) {
		t.Errorf("alice's list does not show her session %s", id)
	}
	if _, page, _ := b.do("GET", "/ui/", "", "", ""); strings.Contains(page, id) {
		t.Errorf("bob's list shows alice's session %s", id)
	}
	for _, p := range []string{"/ui/s/" + id, "/ui/s/" + id + "/events"} {
		if st, _, _ := b.do("GET", p, "", "", ""); st != http.StatusNotFound {
			t.Errorf("bob GET %s: %d, want 404", p, st)
		}
	}
	if st, _, _ := b.do("POST", "/ui/s/"+id+"/take", "application/json", "{}", h.base); st != http.StatusNotFound {
		t.Errorf("bob takes alice's session: %d, want 404", st)
	}
	if st, _, _ := a.do("POST", "/ui/s/"+id+"/take", "application/json", "{}", "http://evil.example"); st != http.StatusForbidden {
		t.Errorf("cross-origin take: %d, want 403", st)
	}

	if st, body, _ := a.do("POST", "/ui/s/"+id+"/take", "application/json", "{}", h.base); st != http.StatusOK {
		t.Fatalf("alice takes control: %d %s", st, body)
	}
	if r := alice.call("send_command", map[string]any{"session_id": id, "input": "echo agent"}); !r.IsError || !strings.Contains(r.Text, "a person has control") {
		t.Errorf("agent typing while alice holds the session: %q", r.Text)
	}
	if st, body, _ := a.do("POST", "/ui/s/"+id+"/keys", "application/json", `{"keys":"e c h o space h i - w e b enter"}`, h.base); st != http.StatusOK || strings.Contains(body, "error") {
		t.Fatalf("alice types: %d %s", st, body)
	}
	eventually(t, 10*time.Second, "the person's command output", func() bool {
		return strings.Count(alice.call("read_output", map[string]any{"session_id": id}).Text, "hi-web") >= 2
	})
	if st, _, _ := a.do("POST", "/ui/s/"+id+"/give", "application/json", "{}", h.base); st != http.StatusOK {
		t.Fatalf("give back: %d", st)
	}
	complete(t, alice.send(id, "echo agent-again", nil), "")
	// The view shows no more than the agent's results: secrets are redacted there too.
	secret := "ghp_" + strings.Repeat("aB3x", 9)
	alice.send(id, "echo "+strings.Replace(secret, "_", "''_", 1), nil) // the typed line holds no token
	// Secrets that run over rows: a token wrapped at the screen's edge, and a private
	// key whose lines are each plain base64 on their own.
	alice.send(id, "printf '%110s' ''; echo ghp''_$(printf 'Qz7k%.0s' {1..9})", nil) // ghp_Qz7kQz7k…, from 110 columns on
	alice.send(id, "echo '-----BEGIN RSA ''PRIVATE KEY-----'; head -c 900 /dev/urandom | base64 -w 64; echo '-----END RSA ''PRIVATE KEY-----'", nil)
	// A secret typed at a password prompt, printed later: no known format, but the
	// agent's results hide it, and so must the view (found by an independent probe).
	const typed = "Plumtree-Quasar-4417"
	alice.send(id, "read -s -p 'Password: ' PW; echo", nil)
	alice.send(id, typed, nil)
	if r := alice.send(id, `echo "the pw is $PW"`, nil); strings.Contains(r.str("output"), typed) {
		t.Fatalf("premise: the agent's result shows the typed secret: %q", r.str("output"))
	}

	// A person who closes the page gives the keyboard back: the agent is not locked out.
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, "GET", h.base+"/ui/s/"+id+"/events", nil)
	resp, err := a.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first, err := bufio.NewReader(resp.Body).ReadString('\n') // the first frame: the page is open
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(first, typed) {
		t.Errorf("the live view shows a secret typed at a password prompt: %s", first)
	}
	if strings.Contains(first, secret) || !strings.Contains(first, "[REDACTED") {
		t.Errorf("the live view shows a secret the agent's results redact: %s", first)
	}
	if strings.Contains(first, "ghp_Qz") || strings.Contains(first, "Qz7kQz7k") {
		t.Errorf("the live view shows part of a token wrapped over two rows: %s", first)
	}
	if keyLine := regexp.MustCompile(`"[A-Za-z0-9+/]{64}"`); keyLine.MatchString(first) {
		t.Errorf("the live view shows a private key's line: %s", keyLine.FindString(first))
	}
	if st, _, _ := a.do("POST", "/ui/s/"+id+"/take", "application/json", "{}", h.base); st != http.StatusOK {
		t.Fatalf("take again: %d", st)
	}
	if r := alice.call("send_command", map[string]any{"session_id": id, "input": "echo agent"}); !r.IsError {
		t.Fatalf("agent typed while a person holds the session: %q", r.Text)
	}
	cancel()
	resp.Body.Close()
	eventually(t, 10*time.Second, "the keyboard to come back when the page closed", func() bool {
		return !alice.call("send_command", map[string]any{"session_id": id, "input": "echo agent-after-close"}).IsError
	})
}

// TestTakeOverWhileTheAgentWaits: a person takes the keyboard while an agent's
// call runs a long command and another call waits for its turn. The waiting call
// types nothing once its turn comes (it gets the "a person has control" error),
// and the person's ctrl+c goes in at once, not after the running call: it is how
// a runaway command is stopped (found by an independent probe: the queued call
// typed into the taken session, and the person's ctrl+c waited 10 s for a 409).
func TestTakeOverWhileTheAgentWaits(t *testing.T) {
	t.Parallel()
	need(t, "bash", "sleep")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken)})
	alice := h.connect(t, aliceToken, legacyEra)
	id := alice.bash(nil)
	marker := filepath.Join(t.TempDir(), "typed")
	running, queued := make(chan result, 1), make(chan result, 1)
	go func() {
		running <- alice.call("send_command", map[string]any{"session_id": id, "input": "sleep 25; echo slept", "timeout_ms": 30000})
	}()
	time.Sleep(300 * time.Millisecond)
	go func() {
		queued <- alice.call("send_command", map[string]any{"session_id": id, "input": "touch " + marker, "timeout_ms": 30000})
	}()
	time.Sleep(300 * time.Millisecond)
	ui := newUIClient(t, h.base)
	if st := ui.signIn(aliceToken); st != http.StatusOK {
		t.Fatalf("sign-in: %d", st)
	}
	if st, body, _ := ui.do("POST", "/ui/s/"+id+"/take", "application/json", "{}", h.base); st != http.StatusOK {
		t.Fatalf("take: %d %s", st, body)
	}
	began := time.Now()
	if st, body, _ := ui.do("POST", "/ui/s/"+id+"/keys", "application/json", `{"keys":"ctrl+c"}`, h.base); st != http.StatusOK {
		t.Fatalf("the person's ctrl+c: %d %s after %v", st, body, time.Since(began))
	}
	select {
	case r := <-running:
		if code, _ := r.num("exit_code"); code != 130 || strings.Contains(r.str("output"), "slept") {
			t.Errorf("the running call after the person's ctrl+c: %q", r.Text)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the person's ctrl+c did not end the running command")
	}
	if r := <-queued; !r.IsError || !strings.Contains(r.Text, "a person has control") {
		t.Errorf("the queued call: %q", r.Text)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the queued call typed into the session the person had taken")
	}
	// No page of theirs is open on the session: the keyboard comes back after a
	// grace period, a take without a page does not lock the agent out for good.
	eventually(t, 15*time.Second, "the keyboard to come back with no page open", func() bool {
		return !alice.call("send_command", map[string]any{"session_id": id, "input": "echo back"}).IsError
	})
}

// TestRecordingShowsThePerson: with input recorded, what a person types in the live
// view is in the recording as an agent's typing is ("i" events), and markers say
// when they took the keyboard, what line they ran, and when they gave it back
// (found by an independent probe: the person's line was only echoed output).
func TestRecordingShowsThePerson(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	dir := t.TempDir()
	auditLog := filepath.Join(t.TempDir(), "audit.jsonl")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken)}, "MCP_TERMINAL_RECORD_DIR="+dir, "MCP_TERMINAL_RECORD_INPUT=true", "MCP_TERMINAL_AUDIT_LOG="+auditLog)
	alice := h.connect(t, aliceToken, legacyEra)
	id := alice.bash(nil)
	ui := newUIClient(t, h.base)
	if st := ui.signIn(aliceToken); st != http.StatusOK {
		t.Fatalf("sign-in: %d", st)
	}
	for _, step := range []struct{ path, body string }{
		{"/take", "{}"}, {"/keys", `{"keys":"e c h o space p e r s o n - $ ( ( 2 + 2 ) ) enter"}`}, {"/give", "{}"},
	} {
		if st, body, _ := ui.do("POST", "/ui/s/"+id+step.path, "application/json", step.body, h.base); st != http.StatusOK {
			t.Fatalf("%s: %d %s", step.path, st, body)
		}
	}
	eventually(t, 10*time.Second, "the person's command to run", func() bool {
		return strings.Contains(alice.call("read_output", map[string]any{"session_id": id}).Text, "person-4")
	})
	alice.must("close_session", map[string]any{"session_id": id}, nil)
	c := readCast(t, castFile(t, dir))
	if in := c.of("i"); !strings.Contains(in, "echo person-$((2+2))") {
		t.Errorf("the person's typing is not in the recording's input: %q", in)
	}
	labels := strings.Join(c.labels(), "|")
	for _, want := range []string{"person: take_over", "person: echo person-$((2+2))", "person: give_back"} {
		if !strings.Contains(labels, want) {
			t.Errorf("no %q marker: %q", want, labels)
		}
	}
	// The audit log says where the person was, as for the agent over HTTP.
	for _, e := range readAudit(t, auditLog) {
		if e["actor"] == "web" && e["remote_addr"] == "" {
			t.Errorf("a person's %s event has no remote_addr: %v", e["event"], e)
		}
	}
}

// TestViewSaysTheSessionIsGone: a page watching a session that close_session ends
// is told at once that it is gone, not at the next heartbeat 15 s later (found by
// an independent probe: the page said "exited" meanwhile).
func TestViewSaysTheSessionIsGone(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken)})
	alice := h.connect(t, aliceToken, legacyEra)
	id := alice.bash(nil)
	ui := newUIClient(t, h.base)
	if st := ui.signIn(aliceToken); st != http.StatusOK {
		t.Fatalf("sign-in: %d", st)
	}
	req, _ := http.NewRequestWithContext(t.Context(), "GET", h.base+"/ui/s/"+id+"/events", nil)
	resp, err := ui.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	if _, err := events.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	alice.must("close_session", map[string]any{"session_id": id}, nil)
	gone := make(chan bool, 1)
	go func() { // ends when the stream does
		for {
			line, err := events.ReadString('\n')
			if strings.Contains(line, `"gone":true`) {
				gone <- true
				return
			}
			if err != nil {
				gone <- false
				return
			}
		}
	}()
	select {
	case ok := <-gone:
		if !ok {
			t.Fatal("the stream ended without saying the session is gone")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the page was not told within 5 s that the session is gone")
	}
}

// TestViewStreamsAreBounded: a watch URL opens at most so many streams of one
// session at once; one more is told so (429), and one can open once another
// closes (found by an independent probe: twenty watchers slowed a flood fifteen
// times, and nothing bounded them).
func TestViewStreamsAreBounded(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken)})
	alice := h.connect(t, aliceToken, legacyEra)
	created := alice.createResult("bash", map[string]any{"args": []any{"--norc", "--noprofile"}})
	id, watch := created.str("session_id"), created.str("watch_url")
	view := strings.SplitN(watch, "?", 2)[1]
	open := func(ctx context.Context) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, "GET", h.base+"/ui/s/"+id+"/events?"+view, nil)
		return http.DefaultClient.Do(req)
	}
	var cancels []context.CancelFunc
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	for i := range 16 {
		ctx, cancel := context.WithCancel(t.Context())
		cancels = append(cancels, cancel)
		resp, err := open(ctx)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %v %v", i, resp, err)
		}
	}
	resp, err := open(t.Context())
	if err != nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the 17th stream: %v %v, want 429", resp, err)
	}
	resp.Body.Close()
	cancels[0]()
	eventually(t, 5*time.Second, "a stream to open once another closed", func() bool {
		resp, err := open(t.Context())
		if err != nil {
			return false
		}
		ok := resp.StatusCode == http.StatusOK
		if !ok {
			resp.Body.Close()
		}
		return ok
	})
}
