package redact

import (
	"strings"
	"sync"
	"testing"
)

// pemBody are the secret lines of the key used below.
var pemBody = []string{"MIIEowIBAAKCAQEA1x9Rk3bZ", "q8fA2b3c4d5e6f7g8h9i0jKL", "Zm9vYmFyYmF6cXV4cXV1eA=="}

func pemText() string {
	return "$ cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\n" +
		strings.Join(pemBody, "\n") + "\n-----END RSA PRIVATE KEY-----\n$ echo after\nafter\n$ "
}

// leaks reports any 6-byte piece of a body line found in out.
func leaks(out string) string {
	for _, l := range pemBody {
		for i := 0; i+6 <= len(l); i++ {
			if strings.Contains(out, l[i:i+6]) {
				return l[i : i+6]
			}
		}
	}
	return ""
}

func streamAll(chunks []string) []string {
	s := NewRedactor(true).Stream()
	out := make([]string, len(chunks))
	for i, c := range chunks {
		out[i] = s.Redact(c)
	}
	return out
}

func checkStreamed(t *testing.T, how string, chunks []string) {
	t.Helper()
	out := strings.Join(streamAll(chunks), "\x00")
	if l := leaks(out); l != "" {
		t.Errorf("%s: body piece %q leaked in %q", how, l, out)
	}
	if !strings.Contains(out, "after") || !strings.Contains(out, "$ cat id_rsa") {
		t.Errorf("%s: ordinary output lost: %q", how, out)
	}
}

func TestStreamSplitAtLineBoundaries(t *testing.T) {
	t.Parallel()
	lines := strings.SplitAfter(pemText(), "\n")
	for i := 1; i < len(lines); i++ {
		checkStreamed(t, "split before line "+lines[i], []string{strings.Join(lines[:i], ""), strings.Join(lines[i:], "")})
	}
	checkStreamed(t, "one line per chunk", lines)
	for i := 1; i < len(lines); i++ { // every pair of split points
		for j := i + 1; j < len(lines); j++ {
			checkStreamed(t, "three chunks", []string{strings.Join(lines[:i], ""), strings.Join(lines[i:j], ""), strings.Join(lines[j:], "")})
		}
	}
}

func TestStreamSplitAnywhere(t *testing.T) {
	t.Parallel()
	text := pemText()
	for i := 1; i < len(text); i++ {
		out := strings.Join(streamAll([]string{text[:i], text[i:]}), "")
		if l := leaks(out); l != "" {
			t.Fatalf("split at byte %d: body piece %q leaked in %q", i, l, out)
		}
	}
}

func TestStreamScrolledScreens(t *testing.T) {
	t.Parallel()
	// Successive screens of a scrolling terminal: the BEGIN line is gone
	// from the second, the END line not yet on it.
	s := NewRedactor(true).Stream()
	first := s.Redact("$ cat key.pem\n-----BEGIN PRIVATE KEY-----\n" + pemBody[0])
	second := s.Redact(pemBody[1] + "\n" + pemBody[2])
	third := s.Redact(pemBody[2] + "\n-----END PRIVATE KEY-----\n$ ls\nmain.go\n")
	for i, out := range []string{first, second, third} {
		if l := leaks(out); l != "" {
			t.Errorf("screen %d leaked %q: %q", i+1, l, out)
		}
	}
	if !strings.Contains(third, "main.go") || !strings.Contains(second, "[REDACTED:private-key]") {
		t.Errorf("screens = %q, %q, %q", first, second, third)
	}
	if got := s.Redact("total 0\n"); got != "total 0\n" {
		t.Errorf("after the block: %q", got)
	}
}

func TestStreamTruncatedKeyEnds(t *testing.T) {
	t.Parallel()
	s := NewRedactor(true).Stream()
	s.Redact("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n")
	if got := s.Redact("$ git status\nOn branch main\n"); got != "$ git status\nOn branch main\n" {
		t.Errorf("a prompt after a truncated key was swallowed: %q", got)
	}
}

func TestStreamDisabledAndConcurrent(t *testing.T) {
	t.Parallel()
	if got := NewRedactor(false).Stream().Redact(pemText()); got != pemText() {
		t.Errorf("disabled stream changed text")
	}
	var nilR *Redactor
	if got := nilR.Stream().Redact("x"); got != "x" {
		t.Errorf("nil stream changed text")
	}
	s := NewRedactor(true).Stream()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, l := range strings.SplitAfter(pemText(), "\n") {
				s.Redact(l)
			}
		})
	}
	wg.Wait()
}

// TestStreamSecretSplitAnywhere: every secret of the corpus, cut between two
// chunks at every offset, shows no 6-byte piece of itself in either chunk.
func TestStreamSecretSplitAnywhere(t *testing.T) {
	t.Parallel()
	for _, c := range secretCorpus {
		text := "$ cat creds\n" + c.in + "\n$ "
		for i := 1; i < len(text); i++ {
			s := NewRedactor(true).Stream()
			out := s.Redact(text[:i]) + "\x00" + s.Redact(text[i:])
			from := 0
			if strings.HasPrefix(c.secret, "LS0tLS1CRUdJTi") {
				from = 48 // base64 of the armour line, public text
			}
			for j := from; j+6 <= len(c.secret); j++ {
				if piece := c.secret[j : j+6]; strings.Contains(out, piece) {
					t.Errorf("%s split at %d: %q leaked in %q", c.name, i, piece, out)
					break
				}
			}
		}
	}
}

// TestStreamAnswered: a chunk ending in a key's prompt ("Secret: ") is answered by
// input the terminal hides; what the program prints next is not that value.
func TestStreamAnswered(t *testing.T) {
	t.Parallel()
	s := NewRedactor(true).Stream()
	if out := s.Redact("read -s -p 'Secret: ' s; echo; echo got${#s}\nSecret: "); strings.Contains(out, "REDACTED") {
		t.Fatalf("prompt redacted: %q", out)
	}
	s.Answered()
	if out := s.Redact("got16\n$ "); out != "got16\n$ " {
		t.Fatalf("the output after a hidden answer was redacted: %q", out)
	}
}

// TestStreamReadsOfKeywordDenseText: a session's output arriving as PTY reads
// of any size, cut mid-line and mid-secret, shows none of its secrets, and
// keeps the clean lines that whole-text redaction keeps (the Stream's memo of
// key names, kept across reads, judges them as a fresh one does).
func TestStreamReadsOfKeywordDenseText(t *testing.T) {
	t.Parallel()
	text := fill(realisticLines())[:256<<10]
	whole := NewRedactor(true).Redact(text)
	for _, size := range []int{4096, 1000, 333, 61} {
		s := NewRedactor(true).Stream()
		var out strings.Builder
		for i := 0; i < len(text); i += size {
			out.WriteString(s.Redact(text[i:min(i+size, len(text))]))
		}
		for _, secret := range []string{hexSecret, b64Secret, pgPass} {
			if leaked(out.String(), secret) {
				t.Errorf("reads of %d bytes: a piece of %q leaked", size, secret)
			}
		}
		kept := map[string]bool{}
		for line := range strings.Lines(out.String()) {
			kept[line] = true
		}
		for line := range strings.Lines(whole) {
			if !strings.Contains(line, "[REDACTED:") && !kept[line] {
				t.Errorf("reads of %d bytes: the clean line %q was changed", size, line)
				break
			}
		}
	}
}
