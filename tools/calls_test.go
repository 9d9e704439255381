package tools

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-terminal/mcp-terminal/security/policy"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// TestShellSession walks one shell through every tool that needs no special program,
// comparing each whole result with its golden file.
func TestShellSession(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	created := h.must("create_session", map[string]any{"command": "bash", "args": []any{"--norc", "--noprofile"}, "name": "work",
		"cwd": h.dir, "env": map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null"}, "cols": 80, "rows": 24})
	h.golden("create_session", created)
	id := created.str("session_id")

	h.golden("send_command", h.send(id, "echo one; echo two", nil))
	h.golden("send_command_exit_code", h.send(id, "false", nil))
	h.golden("send_command_lines", h.send(id, "x=4\necho $((x * 2))", nil))
	h.golden("send_command_wait_for", h.send(id, "echo ready; read answer; echo got $answer", map[string]any{"wait_for": "(?m)^ready$", "timeout_ms": 5000}))
	h.golden("send_command_answer", h.send(id, "yes", nil))
	h.golden("send_command_no_newline", h.send(id, "echo typed", map[string]any{"append_newline": false}))
	h.must("send_control", map[string]any{"session_id": id, "control": "ctrl+u"})
	h.golden("send_command_truncated", h.send(id, "seq 1 2000", map[string]any{"max_output_chars": 300}))
	h.golden("read_output", h.must("read_output", map[string]any{"session_id": id, "max_output_chars": 200}))
	h.golden("list_sessions", h.must("list_sessions", nil))
	// bash ends on the hang-up, unless a loaded machine keeps it past the grace
	// period; then it is killed. Either way the session is gone.
	closed := h.must("close_session", map[string]any{"session_id": id})
	if _, ok := closed.S["exit_code"].(float64); !closed.boolean("success") || !ok || !strings.HasPrefix(closed.Text, "[session "+id+" closed · killed by SIG") {
		t.Fatalf("close_session: %s %v", closed.Text, closed.S)
	}
	if r := h.must("list_sessions", nil); r.Text != "[0 sessions]" {
		t.Fatalf("closed session still listed: %s", r.Text)
	}
}

// TestExitedSession: a program that exits says so, its session refuses input but
// still shows its screen, and close_session removes it.
func TestExitedSession(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.bash()
	h.golden("exit", h.send(id, "echo bye; exit 3", nil))
	h.golden("exited_send", h.refused("send_command", map[string]any{"session_id": id, "input": "echo hi"}))
	h.golden("exited_read", h.must("read_output", map[string]any{"session_id": id}))
	if r := h.must("list_sessions", nil); !strings.Contains(r.Text, "exited: exit code 3") {
		t.Fatalf("list_sessions: %s", r.Text)
	}
	r := h.must("close_session", map[string]any{"session_id": id})
	if code, _ := r.S["exit_code"].(float64); !r.boolean("success") || code != 3 {
		t.Fatalf("close_session: %s", r.Text)
	}
	// A program that exits at once says so at create_session.
	h.golden("create_exits_at_once", h.must("create_session", map[string]any{"command": "sh", "args": []any{"-c", "echo gone; exit 7"}}))
}

// TestTimeoutThenWait: a command that outlasts timeout_ms comes back incomplete with
// a warning saying what to do, and read_output wait_for is the way to wait for it.
func TestTimeoutThenWait(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.bash()
	h.golden("timeout", h.send(id, "sleep 0.5; echo done", map[string]any{"timeout_ms": 100}))
	r := h.must("read_output", map[string]any{"session_id": id, "wait_for": `done\n\$ $`, "timeout_ms": 5000})
	if !r.boolean("matched") || !r.boolean("new_output") || r.str("output") != "done\n$ " {
		t.Fatalf("read_output wait_for: %s", r.Text)
	}
	h.golden("read_output_no_match", h.must("read_output", map[string]any{"session_id": id, "wait_for": "never", "timeout_ms": 50}))

	// A line that does not finish keeps the later ones from being typed.
	r = h.send(id, "sleep 5\necho after", map[string]any{"timeout_ms": 200})
	if r.boolean("is_complete") || !strings.Contains(r.str("warning"), "1 later input line(s) were not typed") {
		t.Fatalf("unsent line: %s", r.Text)
	}
	// Whether the reply to ctrl+c includes the next prompt depends on how soon bash
	// draws it; that it is complete does not.
	if r := h.must("send_control", map[string]any{"session_id": id, "control": "ctrl+c"}); !r.boolean("is_complete") || !strings.HasPrefix(r.str("output"), "^C") {
		t.Fatalf("ctrl+c: %s", r.Text)
	}
}

// TestControl: keys, the scrollback, and a resize alone.
func TestControl(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.bash()
	if r := h.must("send_control", map[string]any{"session_id": id, "control": "e c h o space k e y s enter"}); r.str("output") != "keys\n$ " {
		t.Fatalf("keys: %s", r.Text)
	}
	h.send(id, "seq 101 200", nil)
	if full := h.must("read_output", map[string]any{"session_id": id, "full_screen": true}); !strings.Contains(full.str("output"), "\n101\n") {
		t.Fatalf("full_screen lacks the scrollback: %s", full.Text)
	}
	// Last: a command typed just after a resize can be cut short (the shell's redraw
	// for the resize races with it), which is the session's to fix, not this test's.
	h.must("send_control", map[string]any{"session_id": id, "cols": 100, "rows": 30})
	read := h.must("read_output", map[string]any{"session_id": id})
	if read.S["cols"] != 100.0 || read.S["rows"] != 30.0 || strings.Contains(read.str("output"), "\n101\n") {
		t.Fatalf("after the resize: %s", read.Text)
	}
}

// TestFullScreenProgram: a program holding the alternate screen gets its screen as
// the reply, and read_output says so and shows its title.
func TestFullScreenProgram(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.bash()
	h.golden("alt_screen", h.send(id, `printf '\033]0;my title\007\033[?1049h\033[Hfull screen\n'`, nil))
	h.golden("read_output_alt_screen", h.must("read_output", map[string]any{"session_id": id}))
}

// TestDangerousInput: dangerous input is refused with the rule it matched and runs
// only when confirmed with a justification; the audit log records each step.
func TestDangerousInput(t *testing.T) {
	t.Parallel()
	audit, auditPath := openAudit(t)
	h := newHarness(t, Config{DangerDetection: true, Audit: audit})
	target := filepath.Join(h.dir, "tree")
	if err := os.MkdirAll(filepath.Join(target, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	id := h.bash()
	input := "chmod -R 777 " + target
	h.golden("refused", h.refused("send_command", map[string]any{"session_id": id, "input": input}))
	if fi, _ := os.Stat(target); fi.Mode().Perm() == 0o777 {
		t.Fatal("refused input ran")
	}
	h.golden("confirmed", h.must("confirm_dangerous_command", map[string]any{"session_id": id, "input": input,
		"justification": "a test fixture that must be world-writable"}))
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o777 {
		t.Fatalf("confirmed input did not run: %v", fi.Mode())
	}
	h.golden("refused_to_start", h.refused("create_session", map[string]any{"command": "rm", "args": []any{"-rf", "/"}}))
	h.must("close_session", map[string]any{"session_id": id})
	h.goldenText("dangerous_audit", auditLines(t, auditPath))
}

// TestPolicy: the allow and block lists and the allowed paths refuse programs,
// directories and input, and confirmation does not get past them.
func TestPolicy(t *testing.T) {
	t.Parallel()
	audit, auditPath := openAudit(t)
	dir := t.TempDir()
	h := newHarness(t, Config{DangerDetection: true, Audit: audit,
		Policy: policy.Policy{Blocked: []string{"python3"}, AllowedPaths: []string{dir}}})
	h.dir = dir
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	h.paths = append(h.paths, python)
	h.golden("blocked_program", h.refused("create_session", map[string]any{"command": "python3", "cwd": dir}))
	h.golden("blocked_cwd", h.refused("create_session", map[string]any{"command": "bash", "cwd": "/"}))
	id := h.bash()
	h.golden("blocked_input", h.refused("send_command", map[string]any{"session_id": id, "input": "python3 -c 'print(1)'"}))
	h.refused("confirm_dangerous_command", map[string]any{"session_id": id, "input": "python3",
		"justification": "I really need the interpreter here"})
	if r := h.send(id, "echo inside > ok.txt; cat ok.txt", nil); r.str("output") != "inside\n$ " {
		t.Fatalf("allowed input: %s", r.Text)
	}
	h.goldenText("policy_audit", auditLines(t, auditPath))
}

// TestStartErrors: each way a program cannot start is a tool error that says what to
// do, and leaves no session behind.
func TestStartErrors(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, Config{}, session.Config{MaxSessions: 1, Settle: 100 * time.Millisecond})
	plain := filepath.Join(h.dir, "plain.txt")
	if err := os.WriteFile(plain, []byte("not a program\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, create := range []map[string]any{
		{"command": "no-such-program-xyz"},
		{"command": plain},
		{"command": "bash", "cwd": filepath.Join(h.dir, "missing")},
	} {
		b.WriteString(h.refused("create_session", create).Text + "\n\n")
	}
	if r := h.must("list_sessions", nil); r.Text != "[0 sessions]" {
		t.Fatalf("failed starts left sessions: %s", r.Text)
	}
	h.bash()
	b.WriteString(h.refused("create_session", map[string]any{"command": "bash"}).Text + "\n")
	h.goldenText("start_errors", b.String())
}

// TestHiddenInput: what is typed at a password prompt is never shown, logged or
// audited, even when the program prints it back.
func TestHiddenInput(t *testing.T) {
	t.Parallel()
	audit, auditPath := openAudit(t)
	var logs syncBuffer
	h := newHarness(t, Config{DangerDetection: true, Audit: audit, LogInputs: true,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	id := h.bash()
	h.golden("password_prompt", h.send(id, `python3 -c 'import getpass; s = getpass.getpass("Password: "); print("you typed", s)'`, nil))
	h.golden("password_typed", h.send(id, "hunter2-secret", nil))
	lines := auditLines(t, auditPath)
	if strings.Contains(lines, "hunter2") || strings.Contains(logs.String(), "hunter2") {
		t.Fatalf("the secret was recorded:\n%s\n%s", lines, logs.String())
	}
	h.goldenText("hidden_audit", lines)
	if !strings.Contains(logs.String(), "getpass") {
		t.Fatalf("visible input not logged: %s", logs.String())
	}
	// The session remembers the secret: printed later, it is still hidden.
	if r := h.send(id, "printf '%s\\n' hunter2-; printf '%s\\n' secret | sed 's/^/hunter2-/'", nil); r.str("output") != "hunter2-\n[REDACTED:typed-secret]\n$ " {
		t.Fatalf("the secret came back: %s", r.Text)
	}
}

// TestLineMode: a program reading whole lines is not sent a line longer than the
// kernel keeps.
func TestLineMode(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	r := h.must("create_session", map[string]any{"command": "cat"})
	id := r.str("session_id")
	eventually(t, 5*time.Second, "cat to read its terminal", func() bool {
		s, err := h.sessions.Get(id)
		return err == nil && s.LineMode()
	})
	r = h.refused("send_command", map[string]any{"session_id": id, "input": strings.Repeat("x", session.MaxLine+1)})
	if !strings.Contains(r.Text, "line mode") {
		t.Fatalf("long line: %s", r.Text)
	}
	if r := h.send(id, "short line", nil); !strings.HasPrefix(r.str("output"), "short line") {
		t.Fatalf("short line: %s", r.Text)
	}
}

// TestProgress: a call that waits reports the last line of output as progress to a
// client that asked for it. The command outlasts the first report (after a second)
// by a margin a loaded machine needs. Not parallel: see progressMessages.
func TestProgress(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.bash()
	if messages := h.progressMessages(id, "echo started; sleep 2.5; echo done"); messages[0] != "started" {
		t.Fatalf("progress messages %q, want the last line, \"started\"", messages)
	}
}

// progressMessages runs input with a progress token, which must outlast the first
// report, and returns the progress messages the client got (at least one).
//
// A test calling it must not run beside another harness: mcp-go's stdio servers
// share one package-level session, so every live server in this process reads
// notifications from one channel, and a notification can reach another test's
// client (seen in CI: two parallel tests each got the other's messages). A
// test that is not parallel runs with no parallel test started.
func (h *harness) progressMessages(id, input string) []string {
	h.t.Helper()
	var mu sync.Mutex
	var messages []string
	h.c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != string(mcp.MethodNotificationProgress) || n.Params.AdditionalFields["progressToken"] != "call-1" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		msg, _ := n.Params.AdditionalFields["message"].(string)
		messages = append(messages, msg)
	})
	r := h.callWith("send_command", map[string]any{"session_id": id, "input": input}, &mcp.Meta{ProgressToken: "call-1"})
	if !r.boolean("is_complete") {
		h.t.Fatalf("send_command: %s", r.Text)
	}
	eventually(h.t, 5*time.Second, "a progress notification", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(messages) > 0
	})
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(messages)
}

// openAudit opens an audit log that the test's end closes.
func openAudit(t *testing.T) (*redact.Audit, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.log")
	audit, err := redact.OpenAudit(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := audit.Close(); err != nil {
			t.Error(err)
		}
	})
	return audit, path
}

// auditLines renders an audit log as "event session rule hidden input" lines, in
// order, for a golden file.
func auditLines(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e redact.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		b.WriteString(string(e.Kind))
		for _, f := range []string{e.Session, e.Command, e.Rule, e.Input, e.Justification, e.Detail} {
			if f != "" {
				b.WriteString(" | " + f)
			}
		}
		if e.ConfirmedBy != "" {
			b.WriteString(" | by " + e.ConfirmedBy)
		}
		if e.Hidden {
			b.WriteString(" | hidden")
		}
		b.WriteString("\n")
	}
	return b.String()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestWarnings: each way a reply can fall short of complete is explained, with what
// to do next; a complete reply needs no warning.
func TestWarnings(t *testing.T) {
	code := 2
	exited := session.ExitStatus{Code: 2}
	cases := []struct {
		name string
		r    session.Result
	}{
		{"complete", session.Result{Complete: true, Alive: true, Reason: "shell_mark"}},
		{"timeout", session.Result{Alive: true, Reason: "timeout"}},
		{"settled", session.Result{Alive: true, Reason: "settled"}},
		{"reading", session.Result{Alive: true, Reason: "timeout", Reading: true}},
		{"type-ahead", session.Result{Alive: true, Reason: "timeout", Owed: true}},
		{"unseen, lost", session.Result{Complete: true, Alive: true, Reason: "prompt", Unseen: true, Lost: true}},
		{"unsent", session.Result{Alive: true, Reason: "timeout", Unsent: 2}},
		{"exited", session.Result{Complete: true, Reason: "exit", Code: &code, Exit: &exited}},
	}
	var b strings.Builder
	for _, c := range cases {
		b.WriteString(c.name + ":\n  " + warning(c.r, 1500*time.Millisecond, time.Minute) + "\n")
	}
	golden(t, "warnings", b.String())
}

// A create_session whose startup panics (a bug, as a tracing .bashrc once found)
// closes the session it started: the caller never learns its id, and it would run
// on, counted against the limits, out of everyone's reach.
func TestCreateSessionPanicLeavesNoSession(t *testing.T) {
	h := newHarness(t, Config{})
	srv := New(Config{}, h.sessions)
	testHookBeforeStartup = func(*session.Session) { panic("startup bug") }
	defer func() { testHookBeforeStartup = nil }()
	func() {
		defer func() {
			if p := recover(); p != "startup bug" {
				t.Errorf("recovered %v, want the panic passed on", p)
			}
		}()
		_, _ = srv.createSession(t.Context(), mcp.CallToolRequest{}, CreateArgs{Command: "bash", Args: []string{"--norc"}})
	}()
	if live := h.sessions.List(); len(live) != 0 {
		t.Fatalf("sessions left behind: %+v", live)
	}
}

// list_sessions shows a session's arguments; secrets among them are redacted as
// they would be in output.
func TestListSessionsRedactsArguments(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Redactor: redact.NewRedactor(true)})
	h.must("create_session", map[string]any{"command": "sh", "args": []any{"-c", "read x", "mysql", "--password=Hunter2SuperSecret", "-pAnotherSecret99", "plain"}})
	r := h.must("list_sessions", nil)
	got := fmt.Sprint(r.S["sessions"])
	for _, secret := range []string{"Hunter2SuperSecret", "AnotherSecret99"} {
		if strings.Contains(got, secret) {
			t.Errorf("list_sessions shows %q: %s", secret, got)
		}
	}
	if !strings.Contains(got, "plain") || !strings.Contains(got, "--password=[REDACTED:") {
		t.Errorf("list_sessions args: %s", got)
	}
}

// A call waiting on a session that close_session ends says the session was
// closed, not that its program exited and close_session would remove it.
func TestCallWaitingWhenClosed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.bash()
	done := make(chan reply, 1)
	go func() { done <- h.send(id, "sleep 20", map[string]any{"timeout_ms": 15000}) }()
	time.Sleep(300 * time.Millisecond)
	h.must("close_session", map[string]any{"session_id": id})
	r := <-done
	if w := r.str("warning"); !strings.Contains(w, "was closed") || strings.Contains(w, "close_session removes") {
		t.Fatalf("warning: %q", w)
	}
}

// read_output wait_for on a full-screen program returns its screen, as every
// reply there does; it is not labelled as output no reply returned.
func TestReadFullScreenIsNotNewOutput(t *testing.T) {
	t.Parallel()
	need(t, "less")
	h := newHarness(t, Config{})
	id := h.bash()
	h.send(id, "seq 1 200 | less", map[string]any{"timeout_ms": 5000})
	r := h.must("read_output", map[string]any{"session_id": id, "wait_for": "never", "timeout_ms": 50})
	if strings.Contains(r.Text, "output not returned before") || !strings.Contains(r.Text, "full-screen program") {
		t.Fatalf("read_output on less: %s", r.Text[max(0, len(r.Text)-200):])
	}
}

// Output whose beginning scrolled out of the scrollback comes back truncated, with
// a warning that says how to keep all of it.
func TestScrolledOffOutputIsTruncated(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, Config{}, session.Config{Settle: 100 * time.Millisecond, Scrollback: 20})
	id := h.bash()
	r := h.send(id, "seq 1 500", map[string]any{"timeout_ms": 5000})
	if !r.boolean("truncated") || !strings.Contains(r.str("warning"), "redirect it to a file") {
		t.Fatalf("seq 1 500 with 20 lines of scrollback: truncated=%v warning=%q", r.S["truncated"], r.str("warning"))
	}
}

// TestReadEndedBySessionEnd: a read_output wait_for that the session's end cuts
// short says so, and when, not that it waited its whole timeout: its program
// exiting, or close_session.
func TestReadEndedBySessionEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	exits := h.must("create_session", map[string]any{"command": "sh", "args": []any{"-c", "sleep 0.3; exit 4"}}).str("session_id")
	r := h.must("read_output", map[string]any{"session_id": exits, "wait_for": "never", "timeout_ms": 20000})
	if !strings.Contains(r.Text, "wait_for did not match before the program ended") || strings.Contains(r.Text, "within 20") {
		t.Errorf("program exited during the wait: %s", r.Text)
	}
	id := h.bash()
	h.send(id, "sleep 30", map[string]any{"timeout_ms": 100})
	closed := make(chan reply)
	go func() { // ends with its call, which the test waits for
		time.Sleep(300 * time.Millisecond)
		closed <- h.callNoFail("close_session", map[string]any{"session_id": id})
	}()
	r = h.must("read_output", map[string]any{"session_id": id, "wait_for": "never", "timeout_ms": 20000})
	if c := <-closed; c.IsError {
		t.Fatalf("close_session: %s", c.Text)
	}
	if !strings.Contains(r.Text, "wait_for did not match: the session was closed after") || strings.Contains(r.Text, "within 20") {
		t.Errorf("closed during the wait: %s", r.Text)
	}
}
