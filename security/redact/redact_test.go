package redact

import (
	"strings"
	"testing"
)

// Fake secrets are assembled at run time so the repository holds no string a
// secret scanner would report.
var (
	fakeGitHub    = "ghp_" + strings.Repeat("a1B2", 9)
	fakePAT       = "github_pat_" + strings.Repeat("11ABCDEFG", 4)
	fakeAWS       = "AKIA" + "IOSFODNN7EXAMPLE"
	fakeSlack     = "xox" + "b-123456789012-abcdefABCDEF"
	fakeStripe    = "sk_" + "live_" + strings.Repeat("4eC39HqLyjWDarjtT1zdp7dc", 1)
	fakeOpenAI    = "sk-" + "proj-" + strings.Repeat("Ab3dEf6hIj", 4)
	fakeAnth      = "sk-" + "ant-api03-" + strings.Repeat("Xy9Zw8Vu7T", 5)
	fakeGoogle    = "AIza" + "SyA1234567890abcdefghijklmnopqrstuv"
	fakeJWT       = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	fakeAWSSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	fakePEM       = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1\nq8fA2b3c4d5e6f7\n-----END RSA PRIVATE KEY-----"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"github", "token " + fakeGitHub + " ok", "token [REDACTED:github-token] ok"},
		{"github pat", fakePAT, "[REDACTED:github-token]"},
		{"aws", "key=" + fakeAWS, "key=[REDACTED:aws-access-key-id]"},
		{"slack", fakeSlack, "[REDACTED:slack-token]"},
		{"stripe", fakeStripe, "[REDACTED:stripe-key]"},
		{"openai", "OPENAI " + fakeOpenAI, "OPENAI [REDACTED:api-key]"},
		{"anthropic", fakeAnth, "[REDACTED:api-key]"},
		{"google", fakeGoogle, "[REDACTED:google-api-key]"},
		{"jwt", "Bearer " + fakeJWT, "Bearer [REDACTED:jwt]"},
		{"pem", "a\n" + fakePEM + "\nb", "a\n[REDACTED:private-key]\nb"},
		{"pem unterminated", "x\n-----BEGIN PRIVATE KEY-----\nMIIEv\nABCD", "x\n[REDACTED:private-key]"},
		{"url", "postgres://app:s3cr3t@db:5432/x", "postgres://app:[REDACTED:url-password]@db:5432/x"},
		{"token as a url's user", "https://" + fakeGitHub + ":x-oauth-basic@github.com/o/r", // the password's anchor comes first
			"https://[REDACTED:github-token]:[REDACTED:url-password]@github.com/o/r"},
		{"password=", "PGPASSWORD=hunter2 psql", "PGPASSWORD=[REDACTED:password] psql"},
		{"passwd:", "passwd: hunter2", "passwd: [REDACTED:password]"},
		{"secret json", `{"client_secret": "abc123"}`, `{"client_secret": "[REDACTED:secret]"}`},
		{"token", "--token=abc.def", "--token=[REDACTED:token]"},
		{"api_key", "api_key='k-123'", "api_key='[REDACTED:api_key]'"},
		{"pem tail", "MIIEowIBAAKCAQEA1x9Rk3bZ\nq8fA2b3c4d5e6f7g8h9i0jKL\n-----END PRIVATE KEY-----\n$ ", "[REDACTED:private-key]\n$ "},
		{"aws secret", "aws_secret_access_key = " + fakeAWSSecret, "aws_secret_access_key = [REDACTED:aws-secret-access-key]"},
		{"gitlab", "glpat-" + "xYz12AbC34dEf56GhI78jK", "[REDACTED:gitlab-token]"},
		{"npm", "//registry.npmjs.org/:_authToken=npm_" + strings.Repeat("a1B2", 9), "//registry.npmjs.org/:_authToken=[REDACTED:npm-token]"},
		{"huggingface", "hf_" + strings.Repeat("aB3", 12), "[REDACTED:huggingface-token]"},
		{"bearer", "Authorization: Bearer " + "abcDEF123ghiJKL456mno", "Authorization: Bearer [REDACTED:bearer-token]"},
		{"bearer jwt", "Authorization: Bearer " + fakeJWT, "Authorization: Bearer [REDACTED:jwt]"},
		{"url https", "https://deploy:" + "Xk9pQ2mZ" + "@git.example.com/r.git", "https://deploy:[REDACTED:url-password]@git.example.com/r.git"},
		{"secret yaml", "client_secret: 9f8e7d6c5b4a", "client_secret: [REDACTED:secret]"},
	}
	r := NewRedactor(true)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.Redact(tt.in)
			if got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactLeavesInnocentText(t *testing.T) {
	t.Parallel()
	r := NewRedactor(true)
	for _, in := range []string{
		"commit 3f786850e387550fdab836ed7e6dc881de23001b",
		"id 123e4567-e89b-12d3-a456-426614174000",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  file.tar.gz",
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx5m8t0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2 me@host",
		"password=${DB_PASSWORD}", "password=$DB_PASSWORD", "password=<your-password>", "password=***",
		"password=xxx", "password=", "Password: ", "max_tokens=100", "token_count: 5",
		"git@github.com:org/repo.git", "https://user@example.com/x", "sk-learn is not a key",
		"password = os.environ['DB_PASSWORD']", "ask-questions-about-the-thing-at-hand-please-now",
		"-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----",
		"secret: <your-secret>", "token: ${GITHUB_TOKEN}", "password: '***'", "Authorization: Bearer $TOKEN",
		"sha512-" + strings.Repeat("Ab3/", 21) + "==", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7" + strings.Repeat("x", 40) + " me@host",
		"docker pull ghcr.io/org/app@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"Merge: 3f78685 a1b2c3d", "request_id=6f1c2d3e-4b5a-6978-8c9d-0e1f2a3b4c5d",
	} {
		if got := r.Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want unchanged", in, got)
		}
	}
}

func TestRedactDisabled(t *testing.T) {
	t.Parallel()
	in := "token " + fakeGitHub
	var nilR *Redactor
	if got := nilR.Redact(in); got != in {
		t.Errorf("nil Redactor changed input: %q", got)
	}
	if got := NewRedactor(false).Redact(in); got != in {
		t.Errorf("disabled Redactor changed input: %q", got)
	}
}

// TestPlaceholderWordsFitLookup: placeholder looks a value up only when it is
// no longer than maxPlaceholderWord.
func TestPlaceholderWordsFitLookup(t *testing.T) {
	t.Parallel()
	for _, set := range []map[string]bool{placeholderWords, selfNamed} {
		for w := range set {
			if len(w) > maxPlaceholderWord {
				t.Errorf("%q is longer than maxPlaceholderWord (%d)", w, maxPlaceholderWord)
			}
		}
	}
}

// TestRedactTextMatchesSpans: the Redactor's one-pass writer gives what
// sorting and merging every span gives, on every corpus line.
func TestRedactTextMatchesSpans(t *testing.T) {
	t.Parallel()
	var lines []string
	for _, c := range secretCorpus {
		lines = append(lines, c.in, c.in+"\n"+fakePEM+"\n"+c.in)
	}
	lines = append(lines, cleanCorpus...)
	lines = append(lines, "MIIEowIBAAKCAQEA1x9Rk3bZ\nq8fA2b3c4d5e6f7g8h9i0jKL\npassword=hunter22\n-----END PRIVATE KEY-----")
	for _, in := range lines {
		if got, want := redactText(in), apply(in, findSecrets(in, false, nil)); got != want {
			t.Errorf("redactText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSecretsPlaceWhatRedactReplaces: writing a marker over each span Secrets
// returns gives what Redact gives, on every corpus line and on a key split over lines.
func TestSecretsPlaceWhatRedactReplaces(t *testing.T) {
	t.Parallel()
	r := NewRedactor(true)
	ins := []string{fakePEM, "before\n" + fakePEM + "\nafter"}
	for _, c := range secretCorpus {
		ins = append(ins, c.in)
	}
	ins = append(ins, cleanCorpus...)
	for _, in := range ins {
		var b strings.Builder
		last := 0
		for _, sp := range r.Secrets(in) {
			b.WriteString(in[last:sp.Start])
			b.WriteString("[REDACTED:" + sp.Kind + "]")
			last = sp.End
		}
		b.WriteString(in[last:])
		if got, want := b.String(), r.Redact(in); got != want {
			t.Errorf("Secrets(%q) rebuilt %q, Redact gives %q", in, got, want)
		}
	}
	if sp := NewRedactor(false).Secrets(fakePEM); sp != nil {
		t.Errorf("a disabled Redactor found %v", sp)
	}
	if sp := r.Secrets(fakePEM); len(sp) != 1 || strings.Count(fakePEM[sp[0].Start:sp[0].End], "\n") < 2 {
		t.Errorf("a private key is not one span across its lines: %v", sp)
	}
}
