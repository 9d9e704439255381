package tools

import (
	"testing"
	"time"

	"github.com/mcp-terminal/mcp-terminal/session"
)

// A session's guard (its redaction stream and the secrets typed into it) goes as soon
// as the session does, idle reaping included, not at the next create_session.
func TestGuardForgottenWhenSessionGoes(t *testing.T) {
	sm := newManagerWith(t, session.Config{IdleTimeout: 100 * time.Millisecond})
	srv := New(Config{}, sm)
	sess, err := sm.Create(session.CreateOptions{Command: "cat"})
	if err != nil {
		t.Fatal(err)
	}
	srv.guards.get(sess.ID, srv.cfg.Redactor).remember("hunter2-secret")
	deadline := time.Now().Add(10 * time.Second)
	for {
		srv.guards.mu.Lock()
		_, kept := srv.guards.m[sess.ID]
		srv.guards.mu.Unlock()
		if !kept {
			break
		}
		if time.Now().After(deadline) {
			_, err := sm.Get(sess.ID)
			t.Fatalf("guard of session %s kept after it was reaped (Get: %v)", sess.ID, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
