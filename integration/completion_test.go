package integration

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestSilentAndPausedOutput(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	start := time.Now()
	r := s.send(id, "sleep 2; echo done", nil)
	complete(t, r, "shell_mark")
	if took := time.Since(start); took < 2*time.Second || r.str("output") != "done\n$ " {
		t.Fatalf("after %s: %q", took, r.str("output"))
	}
	r = s.send(id, "echo a; sleep 1; echo b", nil)
	complete(t, r, "shell_mark")
	if r.str("output") != "a\nb\n$ " {
		t.Fatalf("paused output %q", r.str("output"))
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	for input, want := range map[string]float64{"true": 0, "false": 1, "(exit 3)": 3, "ls /no/such/dir 2>/dev/null": 2} {
		r := s.send(id, input, nil)
		complete(t, r, "shell_mark")
		if code, ok := r.num("exit_code"); !ok || code != want {
			t.Errorf("%s: exit_code %v, want %v", input, r.S["exit_code"], want)
		}
	}
}

func TestQuestionsWithoutPrompts(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, `read -p "Continue? [y/N] " ans`, nil)
	complete(t, r, "input_wait")
	if r.str("output") != "Continue? [y/N] " {
		t.Fatalf("question: %q", r.str("output"))
	}
	r = s.send(id, "y", nil)
	complete(t, r, "shell_mark")
	if got := s.send(id, `echo "answer=$ans"`, nil).str("output"); got != "answer=y\n$ " {
		t.Fatalf("answer: %q", got)
	}

	r = s.send(id, "cat", nil)
	complete(t, r, "input_wait")
	r = s.send(id, "hello cat", nil)
	complete(t, r, "input_wait")
	if r.str("output") != "hello cat\n" {
		t.Fatalf("cat echo: %q", r.str("output"))
	}
	complete(t, s.control(id, "ctrl+d"), "shell_mark")
}

func TestBc(t *testing.T) {
	need(t, "bc")
	s := startServer(t)
	r := s.call("create_session", map[string]any{"command": "bc", "args": []any{"-q"}, "env": map[string]any{"MCPT_TEST_MARK": s.mark}})
	if r.IsError || !r.boolean("ready") || r.str("reason") != "input_wait" {
		t.Fatalf("bc startup: %+v", r.S)
	}
	id := r.str("session_id")
	out := s.send(id, "2^10 + 1", nil)
	complete(t, out, "input_wait")
	if out.str("output") != "1025\n" {
		t.Fatalf("bc: %q", out.str("output"))
	}
}

func TestHiddenInputStaysSecret(t *testing.T) {
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	s := startServer(t, "MCP_TERMINAL_AUDIT_LOG="+audit, "MCP_TERMINAL_LOG_INPUTS=true")
	id := s.bash(nil)
	r := s.send(id, `read -s -p "Password: " pw; echo; echo "got ${#pw} characters"`, nil)
	complete(t, r, "input_wait")
	if !r.boolean("input_hidden") || r.str("output") != "Password: " {
		t.Fatalf("password prompt: %+v", r.S)
	}
	const secret = "correct-horse-battery-staple"
	r = s.send(id, secret, nil)
	complete(t, r, "shell_mark")
	if r.boolean("input_hidden") || !strings.Contains(r.str("output"), "got 28 characters") {
		t.Fatalf("after the password: %+v", r.S)
	}
	if echo := s.send(id, "echo $pw", nil); strings.Contains(echo.Text, secret) {
		t.Errorf("a result shows the secret: %q", echo.Text) // the program printed it; results still hide it
	}
	// A secret asked for by an earlier line of the same input is hidden too.
	const second = "another-secret-value"
	r = s.send(id, "read -s -p 'Again: ' pw2; echo\n"+second, nil)
	complete(t, r, "shell_mark")
	if strings.Contains(r.Text, second) {
		t.Errorf("multi-line result shows the secret: %q", r.Text)
	}
	s.close()
	logged, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"audit log": string(logged), "server log": s.stderr.String()} {
		if strings.Contains(text, secret) || strings.Contains(text, second) {
			t.Errorf("a secret appears in the %s", what)
		}
	}
	if !strings.Contains(string(logged), `"hidden":true`) {
		t.Errorf("the audit log does not record the hidden input as hidden:\n%s", logged)
	}
}

// A program may ask for a secret in the open: read -p 'Password: ' echoes what is
// typed. The screen's redaction caught "Password: <it>" in results, but the input
// itself went to the audit log and the server log as typed. A line typed at a
// prompt that asks for a secret is now hidden input, echoed or not. And the command
// that asks is logged whole: its "passphrase: '" ended the prompt's quoted text,
// and was taken for a secret's start that ran to the end of the line.
func TestSecretAskedInTheOpenStaysSecret(t *testing.T) {
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	s := startServer(t, "MCP_TERMINAL_AUDIT_LOG="+audit, "MCP_TERMINAL_LOG_INPUTS=true")
	id := s.bash(nil)
	r := s.send(id, `read -p 'Enter passphrase: ' pw; echo "got ${#pw} characters"`, nil)
	complete(t, r, "input_wait")
	const secret = "visible-horse-battery-staple"
	r = s.send(id, secret, nil)
	complete(t, r, "shell_mark")
	if !strings.Contains(r.str("output"), "got 28 characters") || strings.Contains(r.Text, secret) {
		t.Fatalf("after the passphrase: %q", r.Text)
	}
	if echo := s.send(id, "echo $pw", nil); strings.Contains(echo.Text, secret) {
		t.Errorf("a later result shows the secret: %q", echo.Text)
	}
	// Typed as keys, the same (found by an independent probe: the audit log's
	// control event held them).
	complete(t, s.send(id, `read -p 'Password: ' pw2; echo "got ${#pw2}"`, nil), "input_wait")
	s.control(id, "K e y S e c r 3 t enter")
	s.close()
	logged, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"audit log": string(logged), "server log": s.stderr.String()} {
		if strings.Contains(text, secret) || strings.Contains(text, "S e c r 3 t") {
			t.Errorf("the secret appears in the %s", what)
		}
		if !strings.Contains(text, `pw; echo \"got ${#pw} characters\"`) {
			t.Errorf("the %s does not show the command whole:\n%s", what, text)
		}
	}
}

func TestPromptChangesAndNestedShells(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, "PS1='changed> '", nil)
	complete(t, r, "shell_mark")
	if r.str("output") != "changed> " {
		t.Fatalf("new prompt: %q", r.str("output"))
	}
	// A shell started by hand has no marks: prompts and input-wait take over.
	r = s.send(id, "bash --norc --noprofile", map[string]any{})
	if !r.boolean("is_complete") {
		t.Fatalf("nested bash: %+v", r.S)
	}
	r = s.send(id, "PS1='inner% '; echo in-nested", nil)
	if !r.boolean("is_complete") || r.str("output") != "in-nested\ninner% " {
		t.Fatalf("nested: %+v", r.S)
	}
	r = s.send(id, "exit", nil)
	complete(t, r, "shell_mark")
	if r.str("output") != "exit\nchanged> " {
		t.Fatalf("back out: %q", r.str("output"))
	}
}

func TestZsh(t *testing.T) {
	t.Parallel()
	need(t, "zsh")
	s := startServer(t)
	r := s.call("create_session", map[string]any{"command": "zsh", "env": map[string]any{"MCPT_TEST_MARK": s.mark, "HOME": t.TempDir(), "PS1": "%# "}})
	if r.IsError || r.str("reason") != "shell_mark" {
		t.Fatalf("zsh startup: %+v", r.S)
	}
	id := r.str("session_id")
	out := s.send(id, "echo hello from zsh", nil)
	complete(t, out, "shell_mark")
	if !strings.HasPrefix(out.str("output"), "hello from zsh\n") {
		t.Fatalf("zsh output %q", out.str("output"))
	}
	f := s.send(id, "false", nil)
	if code, _ := f.num("exit_code"); code != 1 {
		t.Fatalf("zsh false: %+v", f.S)
	}
	// Output without a final newline: zsh's end-of-line mark and the blanks it
	// pads the row with are not output, and the prompt is a line of its own.
	if got := s.send(id, "printf key=value", nil).str("output"); got != "key=value\n# " && got != "key=value\n% " {
		t.Fatalf("zsh output without a newline %q", got)
	}
}

func TestWaitForBackgroundJob(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, "(sleep 0.5; echo job-finished) &", map[string]any{"wait_for": "job-finished"})
	complete(t, r, "pattern")
	r2 := s.send(id, "(sleep 0.5; echo second-job) &", nil)
	complete(t, r2, "shell_mark")
	read := s.call("read_output", map[string]any{"session_id": id, "wait_for": "second-job", "timeout_ms": 5000})
	if read.IsError || !read.boolean("matched") {
		t.Fatalf("read_output wait_for: %+v", read.S)
	}
	miss := s.call("read_output", map[string]any{"session_id": id, "wait_for": "never-printed", "timeout_ms": 200})
	if miss.boolean("matched") {
		t.Fatal("matched a pattern nobody printed")
	}
}

func TestProgressAndCancellation(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	var mu sync.Mutex
	var messages []string
	s.c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			defer mu.Unlock()
			if m, ok := n.Params.AdditionalFields["message"].(string); ok {
				messages = append(messages, m)
			}
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "send_command"
	req.Params.Arguments = map[string]any{"session_id": id, "input": "echo working; sleep 2.5; echo finished"}
	req.Params.Meta = &mcp.Meta{ProgressToken: "job-1"}
	res, err := s.c.CallTool(s.ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if r := decode(t, res); !strings.Contains(r.str("output"), "finished") {
		t.Fatalf("result %+v", r.S)
	}
	mu.Lock()
	got := append([]string(nil), messages...)
	mu.Unlock()
	if len(got) < 2 || got[0] != "working" {
		t.Fatalf("progress messages %q: want about one a second with the last line", got)
	}

	// Cancelling a call ends the wait; the program keeps running.
	ctx, cancel := context.WithTimeout(s.ctx, 300*time.Millisecond)
	defer cancel()
	req.Params.Arguments = map[string]any{"session_id": id, "input": "sleep 30"}
	req.Params.Meta = nil
	if _, err := s.c.CallTool(ctx, req); err == nil {
		t.Fatal("cancelled call returned a result")
	}
	eventually(t, 5*time.Second, "the session to be free again", func() bool {
		r := s.call("send_control", map[string]any{"session_id": id, "control": "ctrl+c", "timeout_ms": 2000})
		return !r.IsError && r.boolean("is_complete")
	})
}

// TestPromptLikeOutputWhileTheShellWaits: in a shell without integration (dash), a
// line that prints a prompt-like "$ " and then runs a job is at work until the
// shell's own prompt: the reply waits for it. setsid -w holds the job in front
// waiting for a child outside the foreground group, the state every job passes
// through between its fork and being handed the terminal, and every shell after
// its job ends and before it takes the terminal back (where probe 9 caught it, 4
// runs in 10, with (sleep 1.5; true)).
func TestPromptLikeOutputWhileTheShellWaits(t *testing.T) {
	t.Parallel()
	need(t, "sh", "setsid")
	s := startServer(t)
	id := s.create("sh", map[string]any{"env": map[string]any{"PS1": "$ "}})
	r := s.send(id, `printf 'x\n$ '; setsid -w sleep 1; echo done`, map[string]any{"timeout_ms": 10000})
	if out := r.str("output"); !strings.Contains(out, "done\n") {
		t.Fatalf("replied before the command ended: reason %q, output %q", r.str("reason"), out)
	}
}

// TestLocalRelay: a program that runs another on a pseudo-terminal of its own (apt
// running dpkg, script, expect, Python's pty.spawn) forwards input like ssh, but
// its far side is on this machine: the reply waits for the command to end, with
// its exit status, and a question asked behind it is answered as input_wait. It
// used to settle, incomplete, after half a second of quiet, and the next line was
// typed into the relay (probe 8: apt install settled at 1.7 s).
func TestLocalRelay(t *testing.T) {
	t.Parallel()
	need(t, "python3")
	s := startServer(t)
	id := s.bash(nil)
	spawn := func(script string) string {
		return `python3 -c 'import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(["sh", "-c", "` + script + `"])))'`
	}
	r := s.send(id, spawn("sleep 0.8; echo done; exit 3"), map[string]any{"timeout_ms": 10000})
	complete(t, r, "shell_mark")
	if code, _ := r.num("exit_code"); r.str("output") != "done\n$ " || code != 3 {
		t.Fatalf("behind the relay: output %q, exit %v", r.str("output"), r.S["exit_code"])
	}
	r = s.send(id, spawn(`sleep 0.3; printf \"Continue? \"; read x; echo got $x`), map[string]any{"timeout_ms": 10000})
	complete(t, r, "input_wait")
	if r.str("output") != "Continue? " {
		t.Fatalf("the question behind the relay: %q", r.str("output"))
	}
	if r := s.send(id, "yes", nil); r.str("output") != "got yes\n$ " {
		t.Fatalf("the answer: %q", r.str("output"))
	}
}

// TestZshCompletionListBelowTheLine: zsh lists a tab's candidates under the
// command line and puts the cursor back on it; the reply shows the list, as the
// screen does (probe 8: the reply was the line alone).
func TestZshCompletionListBelowTheLine(t *testing.T) {
	t.Parallel()
	need(t, "zsh")
	home, dir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte("autoload -Uz compinit && compinit -u\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"bag-one", "bat-two", "bay-three"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := startServer(t)
	id := s.create("zsh", map[string]any{"cwd": dir, "env": map[string]any{"HOME": home, "PS1": "%# "}})
	s.send(id, "ls ba", map[string]any{"append_newline": false})
	if out := s.control(id, "tab").str("output"); !strings.Contains(out, "bag-one") || !strings.Contains(out, "bay-three") {
		t.Fatalf("the reply to tab lacks the list zsh drew: %q", out)
	}
}
