package redact

import (
	"fmt"
	"strings"
	"testing"
)

// benchTexts are what the benchmarks redact, about 1 MiB each. "realistic" is
// keyword-dense terminal output: build logs, an env dump, JSON and YAML
// configs full of key names like token, secret and password, with a real
// secret every few dozen lines. The others are worst cases; "distinct-keys"
// names no key twice, so that each name is judged afresh (the memo of key
// names helps it not at all).
func benchTexts() map[string]string {
	return map[string]string{
		"realistic":     fill(realisticLines()),
		"keywords":      fill([]string{"password=token secret: key token=auth api_key: pass passwd=secret_key:token "}),
		"assignments":   fill([]string{`{"password": "p4ss", "token": "t0ken", "secret": "s3cr3t", "api_key": "k3y"},`}),
		"base64-wall":   fill([]string{strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2", 1)}),
		"base64-line":   strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVph", 1<<20/36),
		"prefixes":      fill([]string{"sk-learn ghp_ AKIA eyJ xoxb- hf_ npm_ glpat- AIza ya29. SG. ://x "}),
		"distinct-keys": distinctKeys(),
	}
}

func distinctKeys() string {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "SERVICE_%d_API_TOKEN_NAME=svc-%d\n  \"svc%dDbPasswordFile\": \"/run/secrets/db%d\",\nsvc_%d_secret_ref: vault:kv/app%d\nAPP%d_SECRET_KEY=%s\n",
			i, i, i, i, i, i, i, hexSecret)
	}
	return b.String()
}

func realisticLines() []string {
	var l []string
	for i := range 40 {
		l = append(l,
			fmt.Sprintf("[INFO] --- compiler:3.11.0:compile (default-compile) @ secret-manager-%d ---", i),
			fmt.Sprintf("#%d 12.3 go build -o bin/token-service ./cmd/token-service", i),
			"npm_config_cache=/home/dev/.npm",
			fmt.Sprintf("GITHUB_TOKEN_NAME=deploy-%d", i),
			"PASSWORD_FILE=/run/secrets/db_password",
			fmt.Sprintf(`  "api_key_header": "X-Api-Key", "token_ttl": %d, "secret_ref": "vault:kv/app",`, 3600+i),
			`  "password_min_length": 12, "max_tokens": 4096, "auth": true,`,
			"    - name: DB_PASSWORD",
			"      valueFrom:",
			"        secretKeyRef:",
			"          name: postgres-secret",
			"          key: password",
			fmt.Sprintf("2024-05-01 12:34:%02d INFO auth: token refreshed for user %d in 12ms", i%60, i),
			"main.go:12:5: undefined: TokenSource",
		)
		if i%4 == 0 {
			l = append(l, "export API_KEY="+hexSecret, `"SecretAccessKey": "`+b64Secret+`",`, "postgres://app:"+pgPass+"@db:5432/app")
		}
	}
	return l
}

func fill(lines []string) string {
	var b strings.Builder
	for b.Len() < 1<<20 {
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func BenchmarkRedact(b *testing.B) {
	r := NewRedactor(true)
	for name, text := range benchTexts() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				r.Redact(text)
			}
		})
	}
}

// BenchmarkRedactStream: a session's output arriving as 4 KiB reads.
func BenchmarkRedactStream(b *testing.B) {
	text := benchTexts()["realistic"]
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s := NewRedactor(true).Stream()
		for i := 0; i < len(text); i += 4096 {
			s.Redact(text[i:min(i+4096, len(text))])
		}
	}
}
