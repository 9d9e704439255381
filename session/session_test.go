package session

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func newManager(t *testing.T, cfg Config) *Manager {
	t.Helper()
	m := NewManager(cfg)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		m.Shutdown(ctx)
	})
	return m
}

func bash(t *testing.T, m *Manager) *Session {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	s, err := m.Create(CreateOptions{
		Command: "bash", Args: []string{"--norc", "--noprofile"},
		Env: map[string]string{"PS1": "$ ", "HISTFILE": "/dev/null"},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Startup(t.Context(), 5*time.Second)
	if !r.Complete || r.Reason != "shell_mark" || r.Output != "$ " {
		t.Fatalf("startup: %+v", r)
	}
	return s
}

func send(t *testing.T, s *Session, text string) Result {
	t.Helper()
	r, err := s.Send(t.Context(), Input{Text: text, AppendNewline: true, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSendReturnsOnlyNewOutput(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	tests := []struct{ input, want string }{
		{"echo hello", "hello\n$ "},
		{"echo one; echo two", "one\ntwo\n$ "},
		{"true", "$ "},
		{"echo a\necho b", "a\nb\n$ "},
		{"printf 'no newline'", "no newline$ "},
	}
	for _, tt := range tests {
		r := send(t, s, tt.input)
		if !r.Complete || r.Reason != "shell_mark" {
			t.Fatalf("%q: not complete: %+v", tt.input, r)
		}
		if r.Output != tt.want {
			t.Errorf("%q: output %q, want %q", tt.input, r.Output, tt.want)
		}
	}
}

func TestSendWaitFor(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	r, err := s.Send(t.Context(), Input{
		Text: "(sleep 0.2; echo job-finished) &", AppendNewline: true,
		WaitFor: re(t, `job-finished`), Timeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.Reason != "pattern" || !strings.Contains(r.Output, "job-finished") {
		t.Fatalf("wait_for: %+v", r)
	}
}

func TestReadWaitForSeesOnlyUndeliveredOutput(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	send(t, s, "echo marker-old")
	r := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "marker-old"), Timeout: 200 * time.Millisecond})
	if r.Matched || !r.New || strings.Contains(r.Output, "marker-old") {
		t.Fatalf("wait_for matched or returned output a reply already gave: %+v", r)
	}
	if !strings.Contains(s.Read(t.Context(), ReadOptions{}).Output, "marker-old") {
		t.Fatal("the visible screen lacks earlier output")
	}
}

// Output that arrives between a timed-out reply and the read is the agent's to wait
// for: it was never given.
func TestReadWaitForSeesOutputBetweenCalls(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	r, err := s.Send(t.Context(), Input{Text: "sleep 0.3; echo tk$((1+1))A", AppendNewline: true, Timeout: 50 * time.Millisecond})
	if err != nil || r.Complete {
		t.Fatalf("send: %+v %v", r, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.Read(t.Context(), ReadOptions{}).Output, "tk2A") && time.Now().Before(deadline) {
		<-time.After(10 * time.Millisecond)
	}
	began := time.Now()
	got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "tk2A"), Timeout: 3 * time.Second})
	if !got.Matched || !strings.Contains(got.Output, "tk2A") || strings.Contains(got.Output, "tk$((") {
		t.Fatalf("read after the output arrived: %+v", got)
	}
	if waited := time.Since(began); waited > 2*time.Second {
		t.Fatalf("read waited %s for output already there", waited)
	}
	again := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "tk2A"), Timeout: 100 * time.Millisecond})
	if again.Matched {
		t.Fatalf("the same output matched twice: %+v", again)
	}
}

func TestTimeoutKeepsSessionAlive(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	r, err := s.Send(t.Context(), Input{Text: "sleep 5", AppendNewline: true, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Reason != "timeout" || !r.Alive {
		t.Fatalf("want timeout: %+v", r)
	}
	c, err := s.Send(t.Context(), Input{Keys: "ctrl+c", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Complete || c.Reason != "shell_mark" {
		t.Fatalf("ctrl+c: %+v", c)
	}
}

func TestLimitCountsLiveSessions(t *testing.T) {
	m := newManager(t, Config{MaxSessions: 1})
	s := bash(t, m)
	if _, err := m.Create(CreateOptions{Command: "bash"}); !errors.Is(err, ErrLimit) {
		t.Fatalf("second session: %v, want ErrLimit", err)
	}
	r := send(t, s, "exit")
	if r.Reason != "exit" || r.Alive {
		t.Fatalf("exit: %+v", r)
	}
	if _, err := m.Create(CreateOptions{Command: "true"}); err != nil {
		t.Fatalf("an exited session still counted against the limit: %v", err)
	}
}

func TestIdleSessionsAreReaped(t *testing.T) {
	m := newManager(t, Config{IdleTimeout: 150 * time.Millisecond})
	s := bash(t, m)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := m.Get(s.ID); errors.Is(err, ErrUnknown) && !s.Alive() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("idle session was not reaped")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStripEchoes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text   string
		echoes []string
		want   string
	}{
		{"echo hi\nhi\n$ ", []string{"echo hi"}, "hi\n$ "},
		{"\n>>> ", []string{"secret"}, ">>> "},                          // echo off: the blank line goes
		{"oops\necho hi\nhi", []string{"echo hi"}, "oops\necho hi\nhi"}, // output before the echo: keep all
		{"def f():\n...     return 1\n... \n>>> ", []string{"def f():", "    return 1", ""}, ">>> "},
		{"echo a\na\n$ echo b\nb\n$ ", []string{"echo a", "echo b"}, "a\nb\n$ "},
		{"typed", []string{"typed"}, ""},
		{"user@host:~$ echo hi\nhi\nuser@host:~$ ", []string{"echo hi"}, "hi\nuser@host:~$ "}, // prompt arrived late
	}
	for _, tt := range tests {
		if got := stripEchoes(tt.text, tt.echoes); got != tt.want {
			t.Errorf("stripEchoes(%q, %q) = %q, want %q", tt.text, tt.echoes, got, tt.want)
		}
	}
}

// TestCloseDuringSend: the terminal goes away under a waiting call (its reads fail,
// its process dies); the call returns at once with the session dead, nothing hangs.
func TestCloseDuringSend(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	done := make(chan Result, 1)
	go func() {
		r, err := s.Send(t.Context(), Input{Text: "sleep 100", AppendNewline: true, Timeout: 30 * time.Second})
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	deadline := time.Now().Add(5 * time.Second)
	for s.Foreground() != "sleep" {
		if time.Now().After(deadline) {
			t.Fatal("sleep never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := m.Close(t.Context(), s.ID, 0); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.Alive || r.Reason != "exit" {
			t.Fatalf("result after close: %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting call did not return after its session closed")
	}
}
