package tools

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-terminal/mcp-terminal/security/redact"
)

// keyBody is the body of a fake private key, built at run time so the repository
// holds nothing a secret scanner would report.
func keyBody(lines int) []string {
	body := make([]string, lines)
	for i := range body {
		body[i] = strings.Repeat(fmt.Sprintf("Qk%02dx9Zr", i), 8)
	}
	return body
}

// TestRenderRedactsOnlyWhatIsReturned: long output is cut before it is redacted,
// yet no secret crossing a cut shows, the marker counts the whole output and the
// reply stays within its limit.
func TestRenderRedactsOnlyWhatIsReturned(t *testing.T) {
	t.Parallel()
	token := "ghp_" + strings.Repeat("a1B2", 9)
	body := keyBody(40)
	var b strings.Builder
	b.WriteString("password=" + "hunter2hunter2\n-----BEGIN RSA PRIVATE KEY-----\n")
	b.WriteString(strings.Join(body, "\n") + "\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "line %d token=%s\n", i, token)
	}
	b.WriteString(strings.Join(body, "\n") + "\n-----END RSA PRIVATE KEY-----\n$ ")
	output := b.String()
	for _, limit := range []int{200, 1000, 3000, 20000} {
		s := New(Config{Redactor: redact.NewRedactor(true)}, nil)
		out, truncated := s.render("s1", output, limit)
		if !truncated || utf8.RuneCountInString(out) > limit {
			t.Fatalf("limit %d: truncated %v, %d characters", limit, truncated, utf8.RuneCountInString(out))
		}
		for _, secret := range append([]string{"hunter2", token[4:16]}, body...) {
			if strings.Contains(out, secret[:min(len(secret), 12)]) {
				t.Errorf("limit %d: %q shown in %q", limit, secret, out)
			}
		}
		if !strings.Contains(out, "lines (") || !strings.HasSuffix(out, "$ ") {
			t.Errorf("limit %d: no marker or no prompt: %q", limit, out)
		}
	}
}

// TestRenderMarkerNeverPastLimit: redaction markers longer than what they replace
// do not push a reply that fitted past its limit.
func TestRenderMarkerNeverPastLimit(t *testing.T) {
	t.Parallel()
	output := strings.Repeat("pw=aB3\npassword=x1y2\n", 50)
	limit := utf8.RuneCountInString(output)
	s := New(Config{Redactor: redact.NewRedactor(true)}, nil)
	out, truncated := s.render("s1", output, limit)
	if !truncated || utf8.RuneCountInString(out) > limit || strings.Contains(out, "x1y2") {
		t.Fatalf("truncated %v, %d > %d characters, or secret shown: %q", truncated, utf8.RuneCountInString(out), limit, out)
	}
}

// TestProgressRedactsKeys: progress messages go through the session's redaction; a
// key's body line, even with its BEGIN line scrolled off the screen, never shows.
// Not parallel: see progressMessages.
func TestProgressRedactsKeys(t *testing.T) {
	h := newHarness(t, Config{Redactor: redact.NewRedactor(true)})
	id := h.bash()
	body := keyBody(40)
	script := "printf '%s\\n' '-----BEGIN RSA PRIVATE KEY-----' " + strings.Join(body, " ") + "; sleep 2.5; echo done"
	messages := h.progressMessages(id, script)
	for _, m := range messages {
		for _, l := range body {
			if strings.Contains(m, l[:12]) {
				t.Fatalf("progress message shows a key line: %q", m)
			}
		}
	}
	if !strings.Contains(messages[0], "[REDACTED:private-key]") {
		t.Errorf("progress messages %q, want the redacted key", messages)
	}
}

// BenchmarkRender: a 1.25 MB build log rendered into a 20000-character reply.
func BenchmarkRender(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 1250000; i++ {
		fmt.Fprintf(&sb, "[INFO] step %d: token_ttl=3600 password_file=/run/secrets/db secret-manager ok\n", i)
	}
	output := sb.String()
	s := New(Config{Redactor: redact.NewRedactor(true)}, nil)
	b.SetBytes(int64(len(output)))
	b.ReportAllocs()
	for b.Loop() {
		s.render("s1", output, 20000)
	}
}
