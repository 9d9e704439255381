package security

import (
	"strings"
	"testing"
	"time"
)

// FuzzClassify: no input, in any context, panics or takes long.
func FuzzClassify(f *testing.F) {
	for _, r := range rules {
		for _, ex := range append(r.match, r.near...) {
			f.Add(uint8(ex.ctx), ex.in)
		}
	}
	f.Fuzz(func(t *testing.T, ctx uint8, input string) {
		start := time.Now()
		v := Classify(Context(ctx%4), input)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Classify took %v on %d bytes", d, len(input))
		}
		if v.Dangerous && (v.Rule == "" || v.Why == "") {
			t.Errorf("dangerous verdict without rule or why: %+v", v)
		}
	})
}

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
