package session

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A shell that exec'd a program, or runs a builtin that reads (a while read -e
// loop), reads its terminal in the middle of a command: its marks stopped at
// that command's start (C) and no prompt is coming. Every input after it used to
// wait promptFlight for one first (27 ms a line after exec python3). The reply
// that shows the shell reading there now records it, until the next mark.
func TestShellReadingMidCommandIsNotItsLineEditor(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	m := newManager(t, Config{})
	leader := func(s *Session) bool { return s.markedShell(s.proc.Pid()) }

	s := bash(t, m)
	r := send(t, s, "exec python3 -q")
	if r.Reason != "input_wait" || !strings.HasSuffix(r.Output, ">>> ") {
		t.Fatalf("exec python3: %+v", r)
	}
	if leader(s) {
		t.Fatal("after exec python3 the leader still counts as the shell at its line editor")
	}
	if r = send(t, s, "6*7"); r.Reason != "input_wait" || !strings.Contains(r.Output, "42") {
		t.Fatalf("6*7 in the exec'd python: %+v", r)
	}

	s = bash(t, m)
	r = send(t, s, "while read -e l; do echo got $l; done")
	if r.Reason != "input_wait" || leader(s) {
		t.Fatalf("read -e loop: %+v (marked shell: %v)", r, leader(s))
	}
	if r = send(t, s, "x"); !strings.Contains(r.Output, "got x") || leader(s) {
		t.Fatalf("a line for read -e: %+v (marked shell: %v)", r, leader(s))
	}
	// ctrl+d ends the loop: its prompt's marks make the shell the marked one again.
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+d", Timeout: 10 * time.Second})
	if err != nil || r.Reason != "shell_mark" {
		t.Fatalf("ctrl+d: %+v, %v", r, err)
	}
	if r = send(t, s, "echo back; false"); r.Reason != "shell_mark" || r.Code == nil || *r.Code != 1 || !strings.Contains(r.Output, "back") {
		t.Fatalf("after the loop: %+v", r)
	}
}

// bash's prompt carries the time it was expanded (n=), so a resize need not wait
// for a redraw of it: each one waited out redrawGrace, 250 ms, for a redraw bash
// does not draw. zsh, whose prompt has no n=, redraws with new marks and is
// waited for.
func TestResizeWaitsOnlyForARedrawWithMarks(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	seq := s.scr.Counters().MarkSeq
	if s.lastMark(seq) != 'B' || !s.promptNonced(seq) {
		t.Fatalf("bash's prompt: last mark %q, n= %v", s.lastMark(seq), s.promptNonced(seq))
	}
	r, err := s.Send(t.Context(), Input{Cols: 100, Rows: 30, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("resize: %+v, %v", r, err)
	}
	if r = send(t, s, "echo $COLUMNS; false"); r.Code == nil || *r.Code != 1 || !strings.Contains(r.Output, "100") {
		t.Fatalf("after the resize: %+v", r)
	}
}
