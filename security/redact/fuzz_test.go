package redact

import (
	"strings"
	"testing"
)

// FuzzRedact: no panic, and redaction is idempotent.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{fakeGitHub, fakeAWS, fakeJWT, fakePEM, fakeOpenAI, fakeAnth, fakeGoogle, fakeSlack, fakeStripe,
		"postgres://u:p@h/db", "password=hunter2", `"api_key": "abc"`, "sk-", "token=[REDACTED:token]"} {
		f.Add(s)
	}
	r := NewRedactor(true)
	f.Fuzz(func(t *testing.T, s string) {
		once := r.Redact(s)
		if twice := r.Redact(once); twice != once {
			t.Errorf("Redact not idempotent:\n in:    %q\n once:  %q\n twice: %q", s, once, twice)
		}
	})
}

// FuzzStream: no panic, and a private key split into two chunks anywhere
// never shows a body line, whatever text surrounds it.
func FuzzStream(f *testing.F) {
	f.Add("before\n", "after\n$ ", uint16(10))
	f.Add("", "", uint16(0))
	f.Add("-----BEGIN RSA PRIV", "x\n", uint16(3))
	f.Fuzz(func(t *testing.T, before, after string, cut uint16) {
		text := before + pemText() + after
		i := int(cut) % (len(text) + 1)
		s := NewRedactor(true).Stream()
		out := s.Redact(text[:i]) + s.Redact(text[i:])
		if strings.Contains(before+after, "PRIVATE KEY") || leaks(before+after) != "" {
			return // the surrounding text itself opens or closes blocks
		}
		if l := leaks(out); l != "" {
			t.Errorf("body piece %q leaked: %q", l, out)
		}
	})
}
