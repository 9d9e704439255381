package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestBashColouredPrompt(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := s.call("create_session", map[string]any{
		"command": "bash", "args": []any{"--norc", "--noprofile"},
		"env": map[string]any{"PS1": `\[\e[1;32m\]\u@\h\[\e[0m\]:\[\e[34m\]\w\[\e[0m\]\$ `, "MCPT_TEST_MARK": s.mark},
	})
	if r.IsError || !r.boolean("ready") || r.str("reason") != "shell_mark" {
		t.Fatalf("create_session: %+v", r)
	}
	id := r.str("session_id")
	out := s.send(id, "echo hello", nil)
	complete(t, out, "shell_mark")
	lines := strings.Split(out.str("output"), "\n")
	if len(lines) != 2 || lines[0] != "hello" || !strings.HasSuffix(lines[1], ":"+mustCwd(t)+promptChar()+" ") {
		t.Fatalf("output %q: want the echo's output then the next prompt", out.str("output"))
	}
	if !strings.Contains(out.Text, "[complete: shell_mark · exit 0") {
		t.Fatalf("text item lacks the status line: %q", out.Text)
	}
}

func TestOutputSemantics(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	tests := []struct {
		name, input string
		want        func(out string) error
	}{
		{"300 lines all come back", "seq 1 300", func(out string) error {
			lines := strings.Split(out, "\n")
			if len(lines) != 301 {
				return fmt.Errorf("%d lines, want 300 and the prompt", len(lines))
			}
			for i := 0; i < 300; i++ {
				if lines[i] != fmt.Sprint(i+1) {
					return fmt.Errorf("line %d is %q", i, lines[i])
				}
			}
			return nil
		}},
		{"a 300-column line is one line", "printf 'x%.0s' {1..300}; echo", func(out string) error {
			if first := strings.Split(out, "\n")[0]; first != strings.Repeat("x", 300) {
				return fmt.Errorf("first line %q (%d chars)", first, len(first))
			}
			return nil
		}},
		{"carriage return overwrites", `printf 'progress 10%%\rprogress 100%%\n'`, firstLine("progress 100%")},
		{"colour leaves no escapes", `printf '\e[31mred\e[0m \e[1;4mbold\e[0m\n'`, firstLine("red bold")},
		{"unicode and emoji", `echo "héllo 你好 🎉 done"`, firstLine("héllo 你好 🎉 done")},
		{"no output", "true", func(out string) error {
			if out != "$ " {
				return fmt.Errorf("want only the prompt")
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.send(id, tt.input, nil)
			complete(t, r, "shell_mark")
			if err := tt.want(r.str("output")); err != nil {
				t.Fatalf("%v\noutput: %q", err, r.str("output"))
			}
		})
	}
}

func firstLine(want string) func(string) error {
	return func(out string) error {
		if got := strings.Split(out, "\n")[0]; got != want {
			return fmt.Errorf("first line %q, want %q", got, want)
		}
		return nil
	}
}

func TestTimeoutThenInterrupt(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, "sleep 30", map[string]any{"timeout_ms": 300})
	if r.boolean("is_complete") || r.str("reason") != "timeout" || !r.boolean("is_alive") {
		t.Fatalf("want a timeout with the session alive: %+v", r.S)
	}
	if w := r.str("warning"); !strings.Contains(w, "read_output") || !strings.Contains(w, "ctrl+c") {
		t.Fatalf("warning %q does not say what to do next", w)
	}
	c := s.control(id, "ctrl+c")
	complete(t, c, "shell_mark")
	if !strings.HasSuffix(c.str("output"), "$ ") {
		t.Fatalf("output after ctrl+c %q", c.str("output"))
	}
}

func TestExit(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, "exit 3", nil)
	complete(t, r, "exit")
	if r.boolean("is_alive") {
		t.Fatal("session still alive after exit")
	}
	if code, ok := r.num("exit_code"); !ok || code != 3 {
		t.Fatalf("exit_code %v, want 3", r.S["exit_code"])
	}
	again := s.call("send_command", map[string]any{"session_id": id, "input": "echo hi"})
	if !again.IsError || !strings.Contains(again.Text, "exited") {
		t.Fatalf("typing into an exited session: %+v", again)
	}
	list := s.call("list_sessions", nil)
	if !strings.Contains(list.Text, id) {
		t.Fatalf("exited session missing from list: %s", list.Text)
	}
	closed := s.call("close_session", map[string]any{"session_id": id})
	if closed.IsError || !closed.boolean("success") {
		t.Fatalf("close: %+v", closed)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := s.call("send_command", map[string]any{"session_id": "deadbeef", "input": "ls"})
	if !r.IsError || !strings.Contains(r.Text, "unknown session") || !strings.Contains(r.Text, "list_sessions") {
		t.Fatalf("unknown session: %+v", r)
	}
	r = s.call("create_session", map[string]any{"command": "no-such-program-xyz"})
	if !r.IsError || !strings.Contains(r.Text, "command not found") {
		t.Fatalf("missing command: %+v", r)
	}
	r = s.call("create_session", map[string]any{"command": "bash", "cwd": "/no/such/dir"})
	if !r.IsError || !strings.Contains(r.Text, "cwd") {
		t.Fatalf("bad cwd: %+v", r)
	}
	if l := s.call("list_sessions", nil); len(l.S["sessions"].([]any)) != 0 {
		t.Fatalf("failed creates left sessions behind: %s", l.Text)
	}
	id := s.bash(nil)
	for _, bad := range []map[string]any{
		{"session_id": id, "input": "ls", "timeout_ms": -5},
		{"session_id": id, "input": "ls", "timeout_ms": 1e12},
		{"session_id": id, "input": "ls", "max_output_chars": "many"},
		{"session_id": id, "input": 42},
		{"session_id": id, "input": strings.Repeat("a", 70000)},
		{"session_id": id, "input": "ls", "wait_for": "("},
	} {
		if r := s.call("send_command", bad); !r.IsError {
			t.Errorf("send_command %v: want a tool error, got %q", bad, r.Text)
		}
	}
	r = s.call("send_control", map[string]any{"session_id": id, "control": "ctrl+shift+meta"})
	if !r.IsError || !strings.Contains(r.Text, "valid keys") {
		t.Fatalf("unknown key: %+v", r)
	}
	// The session survived all of it.
	complete(t, s.send(id, "echo still here", nil), "shell_mark")
}

func TestConcurrentCallsOnOneSession(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	var wg sync.WaitGroup
	results := make([]result, 2)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = s.send(id, fmt.Sprintf("sleep 0.2; echo call-%d", i), nil)
		}()
	}
	wg.Wait()
	for i, r := range results {
		complete(t, r, "shell_mark")
		out := r.str("output")
		if !strings.HasPrefix(out, fmt.Sprintf("call-%d\n", i)) || strings.Contains(out, fmt.Sprintf("call-%d", 1-i)) {
			t.Fatalf("call %d output %q: calls were not serialised", i, out)
		}
	}
}

func TestDangerousInputNeedsConfirmation(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "tree")
	if err := os.MkdirAll(filepath.Join(target, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	id := s.bash(nil)
	input := "chmod -R 777 " + target
	r := s.call("send_command", map[string]any{"session_id": id, "input": input})
	if !r.IsError || !strings.Contains(r.Text, "confirm_dangerous_command") {
		t.Fatalf("dangerous input not refused: %+v", r)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() == 0o777 {
		t.Fatal("refused input ran anyway")
	}
	short := s.call("confirm_dangerous_command", map[string]any{"session_id": id, "input": input, "justification": "because"})
	if !short.IsError {
		t.Fatal("a justification under 10 characters was accepted")
	}
	ok := s.call("confirm_dangerous_command", map[string]any{"session_id": id, "input": input,
		"justification": "test fixture directory that must be world-writable"})
	if ok.IsError {
		t.Fatalf("confirm: %s", ok.Text)
	}
	complete(t, ok, "shell_mark")
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o777 {
		t.Fatalf("confirmed input did not run: mode %v", fi.Mode())
	}
	notRefused(t, s, id, "rm -f build.log", "grep 'DROP TABLE' /dev/null", "kill 999999 2>/dev/null")
}

// notRefused types each input and fails the test for each one refused.
func notRefused(t *testing.T, s *server, id string, inputs ...string) {
	t.Helper()
	for _, input := range inputs {
		if r := s.call("send_command", map[string]any{"session_id": id, "input": input}); r.IsError {
			t.Errorf("%q was refused: %s", input, r.Text)
		}
	}
}

func TestNoProcessOutlivesTheClient(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	a := s.bash(nil)
	s.send(a, "sleep 1000 &", nil)
	s.send(a, "trap '' HUP TERM; (sleep 1001 &)", nil)
	b := s.bash(nil)
	s.send(b, "sleep 1002", map[string]any{"timeout_ms": 100})
	waitForProcesses(t, s, 5)
	s.close() // closes the server's stdin and waits for it to exit
	if st := s.cmd.ProcessState; st == nil || st.ExitCode() != 0 {
		t.Fatalf("server did not exit cleanly on stdin EOF: %v", st)
	}
	eventually(t, 5*time.Second, "every session process to be gone", func() bool {
		return len(markedProcesses(s.mark)) == 0
	})
}

func mustCwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// promptChar is what bash's \$ shows: # for root.
func promptChar() string {
	if os.Geteuid() == 0 {
		return "#"
	}
	return "$"
}

func TestSIGTERMEndsEverySession(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	s.send(id, "sleep 1000 &", nil)
	s.send(id, "sleep 1001", map[string]any{"timeout_ms": 100})
	s.create("sleep", map[string]any{"args": []any{"1002"}})
	waitForProcesses(t, s, 4)
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "every session process to be gone", func() bool {
		return len(markedProcesses(s.mark)) == 0
	})
	s.close()
	if st := s.cmd.ProcessState; st == nil || st.ExitCode() != 0 {
		t.Fatalf("server did not exit cleanly on SIGTERM: %v", st)
	}
}

func TestPolicyFromConfiguration(t *testing.T) {
	t.Parallel()
	allowed := t.TempDir()
	s := startServer(t, "MCP_TERMINAL_BLOCKED_COMMANDS=python3,nc", "MCP_TERMINAL_ALLOWED_PATHS="+allowed)
	r := s.call("create_session", map[string]any{"command": "python3", "cwd": allowed})
	if !r.IsError || !strings.Contains(r.Text, "python3") {
		t.Fatalf("blocked program started: %+v", r)
	}
	r = s.call("create_session", map[string]any{"command": "bash", "cwd": "/"})
	if !r.IsError {
		t.Fatalf("cwd outside the allowed paths accepted: %+v", r)
	}
	id := s.create("bash", map[string]any{"args": []any{"--norc", "--noprofile"}, "cwd": allowed,
		"env": map[string]any{"PS1": "$ "}})
	for _, input := range []string{"python3 -c 'print(1)'", "cat /home/nobody-of-this-test/notes", "echo x > /etc/hostname-copy"} {
		if r := s.call("send_command", map[string]any{"session_id": id, "input": input}); !r.IsError {
			t.Errorf("%q was not refused: %s", input, r.Text)
		}
	}
	// Confirmation does not skip these checks.
	r = s.call("confirm_dangerous_command", map[string]any{"session_id": id, "input": "python3",
		"justification": "I really need the interpreter here"})
	if !r.IsError {
		t.Fatalf("confirm ran a blocked program: %s", r.Text)
	}
	complete(t, s.send(id, "echo inside > ok.txt; cat ok.txt", nil), "shell_mark")
	// What the sandbox lets a session read or write is not refused by the text
	// check either: the system trees read, the terminal devices, a shared /tmp.
	notRefused(t, s, id, "cat /etc/hostname", "ls nothing-here 2>/dev/null; echo done", `echo "$PATH" | tr : '\n' | head -1`, `ls "$PWD"`)
}

// TestTerminalAnswersLeftToTheShell: a program that asks the terminal something and
// ends without reading the answer (printf here; binary output does it by accident)
// leaves the answer to bash's line editor, where it would run with the next line
// ("bash: 62: command not found"). It is cleared first, and the reply says so. An
// answer the program read leaves nothing to clear.
func TestTerminalAnswersLeftToTheShell(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	s.send(id, `printf '\e[c'; echo END`, nil)
	r := s.send(id, "echo ok", nil)
	if r.str("output") != "ok\n$ " || !strings.Contains(r.str("warning"), "which no input typed") {
		t.Fatalf("after an unread answer: output %q, warning %q", r.str("output"), r.str("warning"))
	}
	s.send(id, `printf '\e[6n'; read -rsdR pos; echo read`, nil)
	if r := s.send(id, "echo ok", nil); r.str("output") != "ok\n$ " || r.str("warning") != "" {
		t.Fatalf("after an answer read: output %q, warning %q", r.str("output"), r.str("warning"))
	}
}

// TestCompletionListingLeavesTheLineAlone: bash lists the candidates of a double
// tab below its prompt and draws the prompt again under them. The command line is
// the redrawn one: the reply says it holds what was typed, not the listing, and
// after ctrl+u clears it, nothing is said to have been added to.
func TestCompletionListingLeavesTheLineAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"bag-one", "bat-two", "bay-three"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := startServer(t)
	id := s.create("bash", map[string]any{"args": []any{"--norc", "--noprofile"}, "cwd": dir, "env": map[string]any{"PS1": "$ "}})
	s.send(id, "ls ba", map[string]any{"append_newline": false})
	r := s.control(id, "tab tab")
	if !strings.Contains(r.str("output"), "bat-two") || !strings.Contains(r.str("warning"), `holds "ls ba"`) {
		t.Fatalf("after tab tab: output %q, warning %q", r.str("output"), r.str("warning"))
	}
	if w := s.control(id, "ctrl+u").str("warning"); w != "" {
		t.Fatalf("after ctrl+u: %q", w)
	}
	if r := s.send(id, "echo ok", nil); r.str("output") != "ok\n$ " || r.str("warning") != "" {
		t.Fatalf("echo ok: output %q, warning %q", r.str("output"), r.str("warning"))
	}
}

// TestEnterInsideTheCommandLine: Enter pressed with the cursor inside the command
// line (ctrl+a, an arrow) ends the whole line; what is right of the cursor is the
// line, not output, also for a line that runs no command (a comment, a syntax
// error), where no C mark says where output begins (probe 8).
func TestEnterInsideTheCommandLine(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	for _, c := range []struct{ line, want string }{
		{"# a comment", "$ "},
		{"echo ) foo", "bash: syntax error near unexpected token `)'\n$ "},
		{"echo runs", "runs\n$ "},
	} {
		s.send(id, c.line, map[string]any{"append_newline": false})
		s.control(id, "ctrl+a")
		if got := s.control(id, "enter").str("output"); got != c.want {
			t.Errorf("%s, ctrl+a, enter: output %q, want %q", c.line, got, c.want)
		}
	}
}

// TestMultiLineEchoWithoutPrompts: a program that reads lines without a prompt of
// its own (cat, bc, ed, node's .editor) echoes each typed line bare: every one is
// removed, not only the first (probe 8). Where the echo follows a prompt, output
// that happens to read like a later line stays.
func TestMultiLineEchoWithoutPrompts(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	s.send(id, "cat -n", nil)
	if got := s.send(id, "alpha\nbeta\ngamma", nil).str("output"); got != "     1  alpha\n     2  beta\n     3  gamma\n" {
		t.Errorf("cat -n: %q", got)
	}
	s.control(id, "ctrl+d")
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	s.send(id, "python3 -q", nil)
	if got := s.send(id, "print('y')\ny = 2\ny", nil).str("output"); got != "y\n2\n>>> " {
		t.Errorf("python3: %q", got)
	}
}

// TestCursorEndsAboveTheOutput: a command that moves the cursor above where its
// output began (cursor addressing, a scroll region) left an empty reply, though
// the screen showed what it drew (probe 9). The reply is the whole screen then,
// and says so.
func TestCursorEndsAboveTheOutput(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	for i := range 4 {
		s.send(id, fmt.Sprintf("echo line-%d", i), nil)
	}
	r := s.send(id, `printf 'AAA\nBBB\n'; printf '\e[3;11H'; printf 'XY\n'`, nil)
	out := r.str("output")
	for _, want := range []string{"AAA", "BBB", "XY"} {
		if !strings.Contains(out, want) {
			t.Errorf("the reply lacks %q: %q", want, out)
		}
	}
	if !strings.Contains(r.str("warning"), "whole screen") {
		t.Errorf("warning %q", r.str("warning"))
	}
}

// TestWideCharactersWrapInTheEcho: a typed line of wide characters that wraps at
// the margin (python's readline leaves the last column blank for one that does
// not fit) is still recognised as the echo and left out (probe 9).
func TestWideCharactersWrapInTheEcho(t *testing.T) {
	t.Parallel()
	need(t, "python3")
	s := startServer(t)
	id := s.create("python3", map[string]any{"args": []any{"-q"}, "env": map[string]any{"LANG": "C.UTF-8"}})
	for _, n := range []int{57, 58} {
		line := `x="` + strings.Repeat("中", n) + `";print(len(x))`
		if got := s.send(id, line, nil).str("output"); got != fmt.Sprintf("%d\n>>> ", n) {
			t.Errorf("%d wide characters: output %q", n, got)
		}
	}
}

// TestMultiLineInputKeepsItsPrompt: a multi-line input with a blank line in it
// (whose echo is the prompt alone) keeps the prompt its reply ends on; a check
// that went on past echoes it did not find took that prompt for the blank line's
// echo (found by an independent probe after a change to echo removal).
func TestMultiLineInputKeepsItsPrompt(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, "printf 'A\nB\nC\n'; printf '\\033[2A'; printf 'X\n\n'; echo end", nil)
	if out := r.str("output"); !strings.HasSuffix(out, "end\n$ ") {
		t.Fatalf("output %q, want it to end with the prompt", out)
	}
}
