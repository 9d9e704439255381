package security

import (
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
