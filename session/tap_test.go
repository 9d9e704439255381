package session

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTap keeps what a session gives its tap.
type fakeTap struct {
	mu      sync.Mutex
	out     strings.Builder
	in      []string
	resizes []string
	marks   []string
	closed  int
}

func (f *fakeTap) Output(b []byte) { f.mu.Lock(); f.out.Write(b); f.mu.Unlock() }
func (f *fakeTap) Input(b []byte)  { f.mu.Lock(); f.in = append(f.in, string(b)); f.mu.Unlock() }
func (f *fakeTap) Mark(l string)   { f.mu.Lock(); f.marks = append(f.marks, l); f.mu.Unlock() }
func (f *fakeTap) Resize(c, r int) {
	f.mu.Lock()
	f.resizes = append(f.resizes, fmt.Sprintf("%dx%d", c, r))
	f.mu.Unlock()
}
func (f *fakeTap) Close() error { f.mu.Lock(); f.closed++; f.mu.Unlock(); return nil }

// TestTap: a session gives its tap the raw output, resizes and typed input, except
// input typed at a hidden prompt, and closes it once its output has ended.
func TestTap(t *testing.T) {
	tap := &fakeTap{}
	var info TapInfo
	m := newManager(t, Config{Tap: func(i TapInfo) Tap { info = i; return tap }})
	s := bash(t, m)
	if info.ID != s.ID || info.Command != "bash" || info.Cols != 120 || info.Rows != 40 || info.Term != "xterm-256color" {
		t.Errorf("tap info %+v", info)
	}
	send(t, s, "printf '\\033[1mbold\\033[0m\\n'")
	if r, err := s.Send(t.Context(), Input{Cols: 3, Rows: 2, Timeout: 5 * time.Second}); err != nil || !r.Alive {
		t.Fatalf("resize: %v %+v", err, r)
	}
	send(t, s, "read -s pw")
	send(t, s, "hunter2-secret")
	s.Mark("a label")
	ctx := t.Context()
	if _, err := m.Close(ctx, s.ID, 0); err != nil {
		t.Fatal(err)
	}
	tap.mu.Lock()
	defer tap.mu.Unlock()
	if !strings.Contains(tap.out.String(), "\x1b[1mbold\x1b[0m\r\n") {
		t.Errorf("raw output not tapped: %q", tap.out.String())
	}
	if len(tap.resizes) != 1 || tap.resizes[0] != "3x2" {
		t.Errorf("resizes %q", tap.resizes)
	}
	in := strings.Join(tap.in, "")
	if !strings.Contains(in, "read -s pw\r") || strings.Contains(in, "hunter2") {
		t.Errorf("input %q: want the command, never the hidden secret", in)
	}
	if len(tap.marks) != 1 || tap.closed != 1 {
		t.Errorf("marks %q, closed %d times", tap.marks, tap.closed)
	}
}
