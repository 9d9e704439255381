package integration

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The HTTP transport serves both protocol eras on /mcp; terminal sessions belong to
// the principal, not to the MCP session or the connection.

const (
	aliceToken = "alice-token-0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef01"
)

func TestHTTPBothErasDriveBash(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken)})
	for _, era := range []string{modernEra, legacyEra} {
		t.Run(era, func(t *testing.T) {
			s := h.connect(t, aliceToken, era)
			id := s.bash(nil)
			r := s.send(id, "echo $((6*7)) from-$BASH_VERSINFO", nil)
			complete(t, r, "")
			if !strings.Contains(r.str("output"), "42 from-") {
				t.Fatalf("output %q", r.str("output"))
			}
			// A new connection (and, in the legacy era, a new MCP session once the
			// first has ended) finds the session still there: it belongs to alice.
			s.close()
			again := h.connect(t, aliceToken, era)
			if !listed(again, id) {
				t.Fatalf("session %s gone after reconnecting", id)
			}
			r = again.send(id, "echo still-$((1+1))", nil)
			if !strings.Contains(r.str("output"), "still-2") {
				t.Fatalf("after reconnect: %q", r.str("output"))
			}
			again.must("close_session", map[string]any{"session_id": id}, nil)
		})
	}
}

// listed reports whether list_sessions shows id.
func listed(s *server, id string) bool {
	r := s.must("list_sessions", map[string]any{}, nil)
	list, _ := r.S["sessions"].([]any)
	for _, e := range list {
		if m, _ := e.(map[string]any); m["session_id"] == id {
			return true
		}
	}
	return false
}

func TestHTTPPrincipalsCannotReachEachOthersSessions(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken, "bob", bobToken),
		"--allow-shared-user", "--max-sessions-per-principal", "1"})
	alice := h.connect(t, aliceToken, modernEra)
	bob := h.connect(t, bobToken, legacyEra)
	id := alice.bash(nil)

	// Every tool answers bob about alice's session exactly as about an id that
	// never existed: same error, nothing typed, nothing closed.
	const unknown = "0badf00d"
	calls := map[string]map[string]any{
		"send_command":              {"input": "echo bob-was-here"},
		"send_control":              {"control": "ctrl+c"},
		"read_output":               {},
		"confirm_dangerous_command": {"input": "echo bob-was-here", "justification": "trying to reach a session of alice"},
		"close_session":             {},
	}
	for tool, args := range calls {
		try := func(sid string) string {
			a := map[string]any{"session_id": sid}
			for k, v := range args {
				a[k] = v
			}
			r := bob.call(tool, a)
			if !r.IsError {
				t.Fatalf("%s on %s by bob succeeded: %q", tool, sid, r.Text)
			}
			return strings.ReplaceAll(r.Text, sid, "ID")
		}
		if got, want := try(id), try(unknown); got != want {
			t.Errorf("%s: bob told apart alice's session from an unknown one:\n%q\n%q", tool, got, want)
		}
	}
	if listed(bob, id) {
		t.Error("bob's list_sessions shows alice's session")
	}
	r := alice.send(id, "echo alive-$((2+3))", nil)
	if !strings.Contains(r.str("output"), "alive-5") || strings.Contains(r.str("output"), "bob-was-here") {
		t.Fatalf("alice's session after bob's attempts: %q", r.str("output"))
	}

	// The per-principal limit is per principal: alice is at hers, bob is not.
	if r := alice.call("create_session", map[string]any{"command": "bash"}); !r.IsError || !strings.Contains(r.Text, "limit") {
		t.Fatalf("alice's second session: %v %q", r.IsError, r.Text)
	}
	bob.bash(nil)
}

func TestHTTPRefusesUnsafeConfigurations(t *testing.T) {
	t.Parallel()
	loose := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(loose, []byte("alice "+aliceToken+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"every interface without auth", []string{"--http", "0.0.0.0:0"}, nil, "without authentication"},
		{"empty host without auth", nil, []string{"MCP_TERMINAL_HTTP=:0"}, "--insecure-no-auth"},
		{"two principals on one Unix user, not isolated", []string{"--http", "127.0.0.1:0", "--isolation", "off", "--auth-tokens-file", tokensFile(t, "alice", aliceToken, "bob", bobToken)}, nil, "--allow-shared-user"},
		{"tokens file others can read", []string{"--http", "127.0.0.1:0", "--auth-tokens-file", loose}, nil, "chmod 600"},
		{"issuer without public URL", []string{"--http", "127.0.0.1:0", "--oauth-issuer", "https://issuer.example"}, nil, "--public-url"},
		{"certificate without key", []string{"--http", "127.0.0.1:0", "--tls-cert", loose}, nil, "--tls-key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if out := failStart(t, tt.args, tt.env...); !strings.Contains(out, tt.want) {
				t.Fatalf("refusal does not say %q:\n%s", tt.want, out)
			}
		})
	}
	// The explicit override serves every interface without auth.
	startHTTP(t, []string{"--http", "0.0.0.0:0", "--insecure-no-auth"})
}

func TestHTTPStaticTokenAuth(t *testing.T) {
	t.Parallel()
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken), "--audit-log", audit})

	resp, _ := h.post(t, nil, "")
	www := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != 401 || !strings.HasPrefix(www, "Bearer ") ||
		!strings.Contains(www, `resource_metadata="`+h.base+`/.well-known/oauth-protected-resource/mcp"`) ||
		!strings.Contains(www, `scope="terminal"`) || strings.Contains(www, "error=") {
		t.Fatalf("no token: %d %q", resp.StatusCode, www)
	}
	wrong := "alice-token-0123456789abcdeX"
	resp, _ = h.post(t, map[string]string{"Authorization": "Bearer " + wrong}, "")
	if www := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || !strings.Contains(www, `error="invalid_token"`) {
		t.Fatalf("wrong token: %d %q", resp.StatusCode, www)
	}
	if resp, _ = h.post(t, map[string]string{"Authorization": "Bearer " + aliceToken}, ""); resp.StatusCode != 200 {
		t.Fatalf("right token: %d", resp.StatusCode)
	}
	// /healthz and the metadata answer without a token.
	var meta map[string]any
	getJSON(t, h.base+"/.well-known/oauth-protected-resource/mcp", &meta)
	if meta["resource"] != h.url || fmt.Sprint(meta["scopes_supported"]) != "[terminal]" || fmt.Sprint(meta["bearer_methods_supported"]) != "[header]" {
		t.Fatalf("metadata %v", meta)
	}
	if body := get(t, h.base+"/healthz", 200); body != "ok\n" {
		t.Fatalf("/healthz says %q", body)
	}

	// A source that keeps failing is turned away, even with the right token, and
	// every failure is audited with its source but never the token.
	for i := 0; i < 12; i++ {
		resp, _ = h.post(t, map[string]string{"Authorization": "Bearer " + wrong}, "")
	}
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("after 13 failures: %d", resp.StatusCode)
	}
	if resp, _ = h.post(t, map[string]string{"Authorization": "Bearer " + aliceToken}, ""); resp.StatusCode != 429 {
		t.Fatalf("right token from a blocked source: %d", resp.StatusCode)
	}
	h.stop()
	log, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), wrong) || strings.Contains(string(log), aliceToken) {
		t.Fatal("a token reached the audit log")
	}
	if n := strings.Count(string(log), `"event":"auth_failed"`); n < 10 || !strings.Contains(string(log), `"remote_addr":"127.0.0.1:`) {
		t.Fatalf("%d auth_failed records, or without remote_addr:\n%s", n, log)
	}
}

func TestHTTPAuditNamesThePrincipal(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken), "--audit-log", audit})
	s := h.connect(t, aliceToken, legacyEra)
	id := s.bash(nil)
	s.send(id, "echo audited", nil)
	h.stop()
	log, _ := os.ReadFile(audit)
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		switch e["event"] {
		case "session_create", "input":
			if e["principal"] != "alice" || !strings.HasPrefix(fmt.Sprint(e["remote_addr"]), "127.0.0.1:") {
				t.Errorf("record without principal or remote_addr: %s", line)
			}
		}
	}
}

func TestHTTPOriginHostAndBodyChecks(t *testing.T) {
	t.Parallel()
	h := startHTTP(t, []string{"--allowed-origins", "https://app.example"})
	if resp, _ := h.post(t, map[string]string{"Origin": "https://evil.example"}, ""); resp.StatusCode != 403 {
		t.Errorf("foreign origin: %d", resp.StatusCode)
	}
	if resp, _ := h.post(t, map[string]string{"Origin": "https://app.example"}, ""); resp.StatusCode != 200 {
		t.Errorf("allowed origin: %d", resp.StatusCode)
	}
	// DNS rebinding: a loopback connection naming another host.
	if resp, _ := h.post(t, map[string]string{"Host": "evil.example:80"}, ""); resp.StatusCode != 403 {
		t.Errorf("rebound Host: %d", resp.StatusCode)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2<<20) + `"}}`
	if resp, _ := h.post(t, nil, big); resp.StatusCode != 413 {
		t.Errorf("2 MiB body: %d", resp.StatusCode)
	}
	// Sent in chunks, its length unsaid (found by an independent probe: 400).
	if resp := h.request(t, http.MethodPost, nil, io.MultiReader(strings.NewReader(big))); resp.StatusCode != 413 {
		t.Errorf("2 MiB body in chunks: %d", resp.StatusCode)
	}
	if resp := h.request(t, http.MethodPost, nil, io.MultiReader(strings.NewReader(initialize))); resp.StatusCode != 200 {
		t.Errorf("a small body in chunks: %d", resp.StatusCode)
	}
}

// TestHTTPCORSWithAuth: with tokens, a browser page on an allowed origin can call
// the server: its preflight (which never carries credentials) is answered before
// authentication, and every response to it, a 401's challenge included, can be
// read; the allowed origins are compared as origins (case, a trailing slash).
// Found by an independent probe: the preflight got 401 and a browser's fetch failed.
func TestHTTPCORSWithAuth(t *testing.T) {
	t.Parallel()
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken),
		"--allowed-origins", "http://localhost:3000/,https://App.example.com"})
	preflight := map[string]string{"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version"}
	resp := h.request(t, http.MethodOptions, preflight, nil)
	if resp.StatusCode/100 != 2 || resp.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = h.post(t, map[string]string{"Origin": "https://app.example.com"}, "")
	if resp.StatusCode != 401 || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "WWW-Authenticate") {
		t.Errorf("no token from an allowed origin: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = h.post(t, map[string]string{"Origin": "http://localhost:3000", "Authorization": "Bearer " + aliceToken}, "")
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" ||
		!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "Mcp-Session-Id") {
		t.Errorf("a token from an allowed origin: %d %v", resp.StatusCode, resp.Header)
	}
	for _, method := range []string{http.MethodOptions, http.MethodPost} {
		resp := h.request(t, method, map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, nil)
		if resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s from a foreign origin: %d %v", method, resp.StatusCode, resp.Header)
		}
	}
}

// TestHTTPMCPSessionsBelongToTheirPrincipal: in the session-based era an MCP
// session id works only for the principal that initialized it, only once issued,
// and not after DELETE ended it: 404 otherwise, so that a client initializes
// again (found by an independent probe: any well-formed id worked, for anyone,
// and went on working after DELETE).
func TestHTTPMCPSessionsBelongToTheirPrincipal(t *testing.T) {
	t.Parallel()
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken, "bob", bobToken)})
	as := func(token, sid string) map[string]string {
		m := map[string]string{"Authorization": "Bearer " + token, "Mcp-Protocol-Version": legacyEra}
		if sid != "" {
			m["Mcp-Session-Id"] = sid
		}
		return m
	}
	resp, _ := h.post(t, as(aliceToken, ""), "")
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" {
		t.Fatalf("alice's initialize: %d, session %q", resp.StatusCode, sid)
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, c := range []struct {
		what, token, sid string
		want             int
	}{
		{"alice, her session", aliceToken, sid, 200},
		{"bob, alice's session", bobToken, sid, 404},
		{"alice, an id never issued", aliceToken, "mcp-session-00000000-0000-4000-8000-000000000000", 404},
	} {
		if resp, body := h.post(t, as(c.token, c.sid), list); resp.StatusCode != c.want {
			t.Errorf("%s: %d, want %d: %.200s", c.what, resp.StatusCode, c.want, body)
		}
	}
	if resp := h.request(t, http.MethodDelete, as(bobToken, sid), nil); resp.StatusCode != 404 {
		t.Errorf("bob ends alice's session: %d", resp.StatusCode)
	}
	if resp := h.request(t, http.MethodDelete, as(aliceToken, sid), nil); resp.StatusCode != 200 {
		t.Errorf("alice ends her session: %d", resp.StatusCode)
	}
	if resp, _ := h.post(t, as(aliceToken, sid), list); resp.StatusCode != 404 {
		t.Errorf("alice, her ended session: %d", resp.StatusCode)
	}
}

// TestHTTPSighupReadsTheTokensAgain: SIGHUP makes the server read its tokens file
// again, so a token is revoked (and another added) without a restart that would
// end every session; a file that would not be accepted at startup (readable by
// others) is not taken, and the tokens read before still hold (found by an
// independent probe: SIGHUP stopped the server, and nothing re-read the file).
func TestHTTPSighupReadsTheTokensAgain(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	const carolToken = "carol-token-0123456789abcdef"
	path := tokensFile(t, "alice", aliceToken, "bob", bobToken)
	h := startHTTP(t, []string{"--auth-tokens-file", path})
	alice := h.connect(t, aliceToken, legacyEra)
	id := alice.bash(nil)
	status := func(token string) int {
		resp, _ := h.post(t, map[string]string{"Authorization": "Bearer " + token}, "")
		return resp.StatusCode
	}
	rewrite := func(mode os.FileMode, content string) {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		if err := h.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}
	ui := newUIClient(t, h.base)
	if st := ui.signIn(bobToken); st != http.StatusOK {
		t.Fatalf("bob's sign-in to the live view: %d", st)
	}
	bobsID := h.connect(t, bobToken, legacyEra).bash(nil)
	rewrite(0o600, "alice "+aliceToken+"\ncarol "+carolToken+"\n")
	eventually(t, 5*time.Second, "bob's token to be refused", func() bool { return status(bobToken) == 401 })
	// His sign-in to the live view ends with it (found by an independent probe: the
	// cookie still took his session and typed into it for its 12 hours).
	if st, _, _ := ui.do("POST", "/ui/s/"+bobsID+"/take", "application/json", "{}", h.base); st != http.StatusNotFound {
		t.Errorf("bob's live view after his token was revoked: take answered %d", st)
	}
	if a, c := status(aliceToken), status(carolToken); a != 200 || c != 200 {
		t.Errorf("after SIGHUP: alice %d, carol %d", a, c)
	}
	if r := alice.send(id, "echo st$((1))ill", nil); !strings.Contains(r.str("output"), "st1ill") {
		t.Errorf("alice's session after SIGHUP: %+v", r)
	}
	rewrite(0o644, "alice "+aliceToken+"\nbob "+bobToken+"\n")
	time.Sleep(300 * time.Millisecond)
	if b, c := status(bobToken), status(carolToken); b != 401 || c != 200 {
		t.Errorf("after SIGHUP with a file others may read: bob %d, carol %d", b, c)
	}
	if !strings.Contains(h.stderr.String(), "the tokens file was not taken") {
		t.Errorf("the refused file was not reported:\n%s", h.stderr.String())
	}
}

// TestHTTPStatelessCancelStaysWithItsCaller: in the stateless era a
// notifications/cancelled names a request id with no MCP session to scope it, so
// another principal (or client) cannot end a call with it by guessing the id
// (found by an independent probe: bob's cancel of id 7 ended alice's call).
func TestHTTPStatelessCancelStaysWithItsCaller(t *testing.T) {
	t.Parallel()
	need(t, "bash", "sleep")
	h := startHTTP(t, []string{"--auth-tokens-file", tokensFile(t, "alice", aliceToken, "bob", bobToken)})
	alice := h.connect(t, aliceToken, modernEra)
	id := alice.bash(nil)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modernEra + `","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	modern := func(token, method string) map[string]string {
		return map[string]string{"Authorization": "Bearer " + token, "Mcp-Protocol-Version": modernEra, "Mcp-Method": method}
	}
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"send_command","arguments":{"session_id":"` + id +
		`","input":"sleep 2; echo sl$((1))ept","timeout_ms":20000},` + meta + `}}`
	headers := modern(aliceToken, "tools/call")
	headers["Mcp-Name"] = "send_command"
	done := make(chan string, 1)
	go func() {
		_, body := h.post(t, headers, call)
		done <- body
	}()
	time.Sleep(500 * time.Millisecond)
	cancel := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"mine now",` + meta + `}}`
	if resp, body := h.post(t, modern(bobToken, "notifications/cancelled"), cancel); resp.StatusCode/100 != 2 {
		t.Errorf("bob's cancel: %d %s", resp.StatusCode, body)
	}
	if body := <-done; !strings.Contains(body, "sl1ept") || strings.Contains(body, "cancelled") {
		t.Errorf("alice's call after bob's cancel: %s", body)
	}
}

// SIGTERM stops accepting and lets in-flight calls finish; those still waiting
// near the end of the drain period get a reply (their session closed as the
// server stops), not a dropped response, in both eras and whether the reply is
// plain JSON or an event stream (a call with a progress token); a call that ends
// during the drain gets its output; every session's processes end (found by an
// independent probe: such calls got an empty 200, EOF, or nothing until the
// client's own timeout).
func TestHTTPSigtermDrains(t *testing.T) {
	t.Parallel()
	need(t, "bash", "sleep")
	h := startHTTP(t, nil)
	type call struct {
		name, input string
		progress    bool
		want        string // in the reply's text
	}
	calls := []call{
		{"quick", "sleep 2; echo qu$((1))ick", false, "qu1ick"},
		{"plain", "sleep 120", false, "The server is stopping"},
		{"stream", "sleep 120", true, "The server is stopping"},
	}
	type reply struct {
		name, text string
		err        error
	}
	replies := make(chan reply, 2*len(calls))
	procs := 0
	var last *server
	for _, era := range []string{legacyEra, modernEra} {
		for _, c := range calls {
			s := h.connect(t, "", era)
			id := s.bash(nil)
			req := toolRequest("send_command", map[string]any{"session_id": id, "input": c.input, "timeout_ms": 120000})
			if c.progress {
				req.Params.Meta = &mcp.Meta{ProgressToken: "p-" + c.name}
			}
			go func() {
				res, err := s.c.CallTool(s.ctx, req)
				r := reply{name: era + " " + c.name, err: err}
				if err == nil {
					r.text = text(res)
				}
				replies <- r
			}()
			procs += 2
			last = s
		}
	}
	waitForProcesses(t, last, procs)
	began := time.Now()
	h.stop()
	if d := time.Since(began); d > 15*time.Second {
		t.Errorf("server took %s to stop after SIGTERM", d)
	}
	for range 2 * len(calls) {
		r := <-replies
		want := calls[0].want
		for _, c := range calls {
			if strings.HasSuffix(r.name, " "+c.name) {
				want = c.want
			}
		}
		if r.err != nil || !strings.Contains(r.text, want) {
			t.Errorf("%s: %v, reply %q, want %q in it", r.name, r.err, r.text, want)
		}
	}
	if left := markedProcesses(h.mark); len(left) > 0 {
		t.Fatalf("processes outlived the server: %v", left)
	}
}

// With a certificate the server speaks HTTPS only.
func TestHTTPServesTLS(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	certPEM, keyPEM := selfSigned(t)
	dir := t.TempDir()
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHTTP(t, []string{"--tls-cert", cert, "--tls-key", key})
	if !strings.HasPrefix(h.url, "https://127.0.0.1:") {
		t.Fatalf("serving %s", h.url)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	s := h.connect(t, "", legacyEra, transport.WithHTTPBasicClient(hc))
	id := s.bash(nil)
	if r := s.send(id, "echo over-$((40+3))", nil); !strings.Contains(r.str("output"), "over-43") {
		t.Fatalf("over TLS: %q", r.str("output"))
	}
	// Plain HTTP to the TLS port gets nowhere.
	if resp, err := http.Get(strings.Replace(h.base, "https:", "http:", 1) + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Fatal("plain HTTP answered on the TLS port")
		}
	}
}

// selfSigned returns a certificate and key for 127.0.0.1, PEM encoded.
func selfSigned(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mcp-terminal test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder})
}
