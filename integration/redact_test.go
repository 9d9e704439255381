package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSecretsAreRedacted(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	token := "ghp_" + strings.Repeat("aB3dE5fG7h", 3) + "123456"
	sha := "9fceb02d0ae598e95dc970b74767f19372d61af8"
	r := s.send(id, "echo token="+token+" commit="+sha, nil)
	if strings.Contains(r.Text, token) || !strings.Contains(r.Text, "[REDACTED:github-token]") {
		t.Fatalf("token not redacted: %q", r.Text)
	}
	if !strings.Contains(r.Text, sha) {
		t.Fatalf("a git SHA was redacted: %q", r.Text)
	}
	// A private key printed over two calls: every body line stays hidden.
	dir := t.TempDir()
	body := []string{
		"MIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aumjnbXdJxYxPJD9Wu3ZtzN7yk",
		"Hq5Y3e0vS1q3FZmM0BwZb1n7Yv2Ykxq4sO3l5Jq9bTgS8nK2v9Zx0ZQ7yN4mP3Lk",
		"c2Vjb25kIGhhbGYgb2YgdGhlIGtleSB3aGljaCBtdXN0IHN0YXkgaGlkZGVuISEh",
	}
	first := "-----BEGIN RSA PRIVATE KEY-----\n" + body[0] + "\n" + body[1] + "\n"
	second := body[2] + "\n-----END RSA PRIVATE KEY-----\n"
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte(first), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b"), []byte(second), 0o600); err != nil {
		t.Fatal(err)
	}
	one := s.send(id, "cat "+filepath.Join(dir, "a"), nil)
	two := s.send(id, "cat "+filepath.Join(dir, "b"), nil)
	screen := s.call("read_output", map[string]any{"session_id": id, "full_screen": true})
	for _, text := range []string{one.Text, two.Text, screen.Text} {
		for _, line := range body {
			if strings.Contains(text, line) {
				t.Fatalf("private key line visible: %q", text)
			}
		}
	}
}
