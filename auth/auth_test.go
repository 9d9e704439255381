package auth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeTokens(t *testing.T, mode os.FileMode, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadTokens(t *testing.T) {
	t.Parallel()
	const good = "# comment\n\nalice aaaaaaaaaaaaaaaa1\nbob   bbbbbbbbbbbbbbbb2\nalice aaaaaaaaaaaaaaaa3\n"
	tok, err := LoadTokens(writeTokens(t, 0o600, good))
	if err != nil {
		t.Fatal(err)
	}
	for token, want := range map[string]string{"aaaaaaaaaaaaaaaa1": "alice", "bbbbbbbbbbbbbbbb2": "bob", "aaaaaaaaaaaaaaaa3": "alice"} {
		if got, ok := tok.Lookup(token); !ok || got != want {
			t.Errorf("Lookup(%q) = %q, %v", token, got, ok)
		}
	}
	for _, bad := range []string{"", "aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaa1 ", "bbbbbbbbbbbbbbbb"} {
		if name, ok := tok.Lookup(bad); ok {
			t.Errorf("Lookup(%q) matched %q", bad, name)
		}
	}
	if got := strings.Join(tok.Principals(), ","); got != "alice,bob" {
		t.Errorf("principals %q", got)
	}
	tests := []struct {
		name string
		mode os.FileMode
		text string
		want string
	}{
		{"group readable", 0o640, good, "chmod 600"},
		{"world readable", 0o604, good, "chmod 600"},
		{"three fields", 0o600, "alice aaaaaaaaaaaaaaaa1 extra\n", "line 1"},
		{"short token", 0o600, "alice short\n", "shorter than"},
		{"token twice", 0o600, "alice aaaaaaaaaaaaaaaa1\nbob aaaaaaaaaaaaaaaa1\n", "twice"},
		{"empty", 0o600, "# nothing\n", "no \"principal token\""},
	}
	for _, tt := range tests {
		_, err := LoadTokens(writeTokens(t, tt.mode, tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want one saying %q", tt.name, err, tt.want)
		}
	}
	if _, err := LoadTokens(writeTokens(t, 0o644, good)); !errors.Is(err, ErrFileMode) {
		t.Errorf("mode error is not ErrFileMode: %v", err)
	}
}

func TestLimiterWindows(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	l := NewLimiter(3, time.Minute)
	l.Now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if l.Blocked("a") != 0 {
			t.Fatalf("blocked after %d failures", i)
		}
		l.Fail("a")
	}
	if w := l.Blocked("a"); w != time.Minute {
		t.Fatalf("after 3 failures: wait %v", w)
	}
	if l.Blocked("b") != 0 {
		t.Fatal("another source is blocked")
	}
	now = now.Add(time.Minute)
	if l.Blocked("a") != 0 {
		t.Fatal("still blocked once the window ended")
	}
	var none *Limiter
	none.Fail("a")
	if none.Blocked("a") != 0 {
		t.Fatal("a nil limiter blocks")
	}
}

// TestLimitKey: failed attempts from one IPv6 /64 count together (a host commonly
// holds all of it), IPv4 (mapped or not) per address (found by an independent
// probe reading the code: a /64 gave an attacker endless fresh sources).
func TestLimitKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ a, b string }{
		{"2001:db8::1", "2001:db8::ffff:1234"},
		{"2001:db8:0:0:1::1", "2001:db8::2"},
		{"fe80::1%eth0", "fe80::2"},
		{"192.0.2.7", "::ffff:192.0.2.7"},
	} {
		if LimitKey(tt.a) != LimitKey(tt.b) {
			t.Errorf("%s and %s count apart: %s, %s", tt.a, tt.b, LimitKey(tt.a), LimitKey(tt.b))
		}
	}
	for _, tt := range []struct{ a, b string }{
		{"2001:db8:0:1::1", "2001:db8:0:2::1"},
		{"192.0.2.7", "192.0.2.8"},
		{"unix", "192.0.2.8"},
	} {
		if LimitKey(tt.a) == LimitKey(tt.b) {
			t.Errorf("%s and %s count together: %s", tt.a, tt.b, LimitKey(tt.a))
		}
	}
}

func TestGuardChallenges(t *testing.T) {
	t.Parallel()
	tok, err := LoadTokens(writeTokens(t, 0o600, "alice aaaaaaaaaaaaaaaa1\n"))
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	g := &Guard{Tokens: tok, Scope: "terminal", PublicURL: "https://term.example/mcp",
		Failed: func(_ *http.Request, source, reason string) { failed = append(failed, source+" "+reason) }}
	var who Principal
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { who, _ = FromContext(r.Context()) }))
	tests := []struct {
		auth   string
		status int
		www    string
	}{
		{"", 401, `Bearer resource_metadata="https://term.example/.well-known/oauth-protected-resource/mcp", scope="terminal"`},
		{"Basic YWxpY2U6eA==", 401, `Bearer resource_metadata="https://term.example/.well-known/oauth-protected-resource/mcp", scope="terminal"`},
		{"Bearer wrong-token-000000000", 401, `error="invalid_token"`},
		{"bearer aaaaaaaaaaaaaaaa1", 200, ""},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.RemoteAddr = "192.0.2.7:5555"
		if tt.auth != "" {
			r.Header.Set("Authorization", tt.auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status || !strings.Contains(w.Header().Get("WWW-Authenticate"), tt.www) {
			t.Errorf("%q: %d %q", tt.auth, w.Code, w.Header().Get("WWW-Authenticate"))
		}
	}
	if who.Name != "alice" || who.Method != "token" {
		t.Errorf("principal %+v", who)
	}
	if len(failed) != 1 || !strings.HasPrefix(failed[0], "192.0.2.7 ") || strings.Contains(failed[0], "wrong-token") {
		t.Errorf("failures reported: %q", failed)
	}
}
