package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-terminal/mcp-terminal/security/danger"
	"github.com/mcp-terminal/mcp-terminal/security/policy"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// The gate's tests: each structural route around the danger rules, taken for real
// against real programs. The dangerous input is always `chmod -R 777 <dir>` on a
// directory of the test's own (what it did is visible in the directory's mode), or a
// deletion aimed at a HOME the test made.

// gateHarness is a harness with danger detection and an audit log, and a directory
// whose mode shows whether the dangerous input ran.
func gateHarness(t *testing.T) (*harness, string, string) {
	t.Helper()
	audit, auditPath := openAudit(t)
	h := newHarness(t, Config{DangerDetection: true, Audit: audit})
	target := filepath.Join(h.dir, "tree")
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	return h, target, auditPath
}

func untouched(t *testing.T, target string) {
	t.Helper()
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("the refused input ran: %v %v", fi.Mode(), err)
	}
}

func need(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed", p)
		}
	}
}

// Route 1: input the terminal does not echo is still judged; only its text is kept
// out of the reply and the audit log.
func TestGateHiddenInputIsChecked(t *testing.T) {
	t.Parallel()
	h, target, auditPath := gateHarness(t)
	danger := "chmod -R 777 " + target
	for _, start := range []map[string]any{
		{"command": "sh", "env": map[string]any{"PS1": "$ "}},
		{"command": "bash", "args": []any{"--noediting", "--norc"}, "env": map[string]any{"PS1": "$ "}},
		{"command": "bash", "args": []any{"--norc"}, "env": map[string]any{"PS1": "$ "}},
	} {
		start["cwd"] = h.dir
		id := h.must("create_session", start).str("session_id")
		if start["command"] == "bash" {
			h.send(id, "set +o emacs +o vi", nil)
		}
		h.send(id, "stty -echo", nil)
		r := h.refused("send_command", map[string]any{"session_id": id, "input": danger})
		if !strings.Contains(r.Text, "hidden input") || strings.Contains(r.Text, target) {
			t.Fatalf("%v: refusal of hidden input: %s", start, r.Text)
		}
		untouched(t, target)
		h.must("close_session", map[string]any{"session_id": id})
	}
	lines := auditLines(t, auditPath)
	if strings.Contains(lines, target) {
		t.Fatalf("hidden input reached the audit log:\n%s", lines)
	}
	if strings.Count(lines, "| chmod-recursive-777 | hidden") != 3 {
		t.Fatalf("hidden refusals not audited:\n%s", lines)
	}
}

// Route 2: each line of a multi-line input is judged when it is about to be typed, by
// the rules of the program the lines before it started.
func TestGateMultiLineJudgedInContext(t *testing.T) {
	t.Parallel()
	need(t, "sqlite3", "python3")
	h, _, _ := gateHarness(t)
	db := filepath.Join(h.dir, "app.db")
	if out, err := exec.Command("sqlite3", db, "CREATE TABLE users(id int); INSERT INTO users VALUES (1);").CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v %s", err, out)
	}
	id := h.bash()
	r := h.call("send_command", map[string]any{"session_id": id, "input": "sqlite3 " + db + "\nDROP TABLE users;"})
	if !r.IsError || !strings.Contains(r.Text, "Line 2 of the input was not typed") || !strings.Contains(r.Text, "sqlite>") {
		t.Fatalf("DROP TABLE typed into sqlite3 after starting it: %s", r.Text)
	}
	if out, _ := exec.Command("sqlite3", db, "SELECT count(*) FROM users;").CombinedOutput(); strings.TrimSpace(string(out)) != "1" {
		t.Fatalf("the table is gone: %s", out)
	}
	h.send(id, ".quit", nil)

	home := filepath.Join(h.dir, "home")
	if err := os.MkdirAll(filepath.Join(home, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.send(id, "export HOME="+home, nil)
	r = h.call("send_command", map[string]any{"session_id": id, "input": "python3 -q\nimport shutil,os; shutil.rmtree(os.path.expanduser('~'))"})
	if !r.IsError || !strings.Contains(r.Text, "Line 2") {
		t.Fatalf("rmtree of home typed into python3: %s", r.Text)
	}
	if _, err := os.Stat(filepath.Join(home, "work")); err != nil {
		t.Fatalf("home is gone: %v", err)
	}
}

// Route 3: a command line built over several calls, or edited or recalled at the
// prompt, is judged as the prompt shows it when Enter is pressed.
func TestGateLineAtEnter(t *testing.T) {
	t.Parallel()
	h, target, auditPath := gateHarness(t)
	id := h.bash()
	danger := "chmod -R 777 " + target

	// Finished by send_command.
	h.send(id, "chmod -R 7", map[string]any{"append_newline": false})
	r := h.refused("send_command", map[string]any{"session_id": id, "input": "77 " + target})
	if !strings.Contains(r.Text, "nothing ran") || !strings.Contains(r.Text, danger) {
		t.Fatalf("split line: %s", r.Text)
	}
	untouched(t, target)
	if out := h.send(id, "echo clean", nil).str("output"); out != "clean\n$ " {
		t.Fatalf("the refused line was left at the prompt: %q", out)
	}

	// Finished by send_control enter.
	h.send(id, "chmod -R 777 "+target, map[string]any{"append_newline": false})
	r = h.refused("send_control", map[string]any{"session_id": id, "control": "enter"})
	if !strings.Contains(r.Text, danger) {
		t.Fatalf("line submitted by send_control: %s", r.Text)
	}
	untouched(t, target)

	// Edited at the prompt with keys: the typed text alone is harmless.
	h.send(id, "chmod -R 777 "+target+"X", map[string]any{"append_newline": false})
	h.refused("send_control", map[string]any{"session_id": id, "control": "backspace enter"})
	untouched(t, target)

	// Recalled from history: confirmed once, it is judged again when recalled.
	h.refused("send_command", map[string]any{"session_id": id, "input": danger})
	h.must("confirm_dangerous_command", map[string]any{"session_id": id, "input": danger, "justification": "the fixture must be world-writable"})
	if err := os.Chmod(target, 0o755); err != nil {
		t.Fatal(err)
	}
	h.send(id, "echo between", nil)
	r = h.refused("send_control", map[string]any{"session_id": id, "control": "up up enter"})
	if !strings.Contains(r.Text, danger) {
		t.Fatalf("recalled line: %s", r.Text)
	}
	untouched(t, target)
	if lines := auditLines(t, auditPath); strings.Count(lines, "| chmod-recursive-777 | "+danger+"\n") < 4 {
		t.Fatalf("the judged lines are not in the audit log:\n%s", lines)
	}
}

// Route 4: a session's argv is judged as argv: the script of bash -c is a script.
// Route 5: variables that make a shell or interpreter run code at start-up are judged
// as that code, and the dynamic loader's are refused outright.
func TestGateSessionStart(t *testing.T) {
	t.Parallel()
	h, target, _ := gateHarness(t)
	danger := "chmod -R 777 " + target
	startup := filepath.Join(h.dir, "startup.py")
	if err := os.WriteFile(startup, []byte("import os\nos.system('"+danger+"')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"command": "bash", "args": []any{"-c", danger}}, "chmod-recursive-777"},
		{map[string]any{"command": "env", "args": []any{"bash", "-c", danger}}, "chmod-recursive-777"},
		{map[string]any{"command": "bash", "env": map[string]any{"LD_PRELOAD": "/tmp/x.so"}}, "LD_PRELOAD"},
		{map[string]any{"command": "bash", "env": map[string]any{"LD_AUDIT": "/tmp/x.so"}}, "LD_AUDIT"},
		{map[string]any{"command": "bash", "env": map[string]any{"PROMPT_COMMAND": danger}}, "env PROMPT_COMMAND"},
		{map[string]any{"command": "bash", "env": map[string]any{"PS1": "$(" + danger + ") $ "}}, "env PS1"},
		{map[string]any{"command": "sh", "env": map[string]any{"ENV": "$(" + danger + ")"}}, "env ENV"},
		{map[string]any{"command": "python3", "env": map[string]any{"PYTHONSTARTUP": startup}}, "env PYTHONSTARTUP"},
	} {
		r := h.refused("create_session", c.args)
		if !strings.Contains(r.Text, c.want) {
			t.Fatalf("%v: %s", c.args, r.Text)
		}
		untouched(t, target)
	}
	// Ordinary argv and variables start.
	id := h.must("create_session", map[string]any{"command": "bash", "args": []any{"-c", "echo hi; sleep 5"},
		"env": map[string]any{"PROMPT_COMMAND": "history -a", "PAGER": "less -R"}}).str("session_id")
	h.must("close_session", map[string]any{"session_id": id})
}

// Route 6: a confirmation lifts only the refusal it answers.
func TestGateConfirmationBoundToRefusal(t *testing.T) {
	t.Parallel()
	h, target, auditPath := gateHarness(t)
	other := filepath.Join(h.dir, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	danger := "chmod -R 777 " + target
	confirm := func(id, input string) reply {
		return h.call("confirm_dangerous_command", map[string]any{"session_id": id, "input": input, "justification": "needed for this test fixture"})
	}
	a, b := h.bash(), h.bash()

	// Never refused: judged like send_command, and now refused.
	if r := confirm(a, danger); !r.IsError {
		t.Fatalf("an unrefused dangerous input ran as confirmed: %s", r.Text)
	}
	untouched(t, target)
	// Refused in session a: no confirmation in session b lifts it.
	if r := confirm(b, danger); !r.IsError {
		t.Fatalf("confirmed in another session: %s", r.Text)
	}
	untouched(t, target)
	// A second command appended to the refused one is judged afresh.
	if r := confirm(a, danger+"\nchmod -R 777 "+other); !r.IsError || !strings.Contains(r.Text, "Line 2") {
		t.Fatalf("appended line: %s", r.Text)
	}
	if fi, _ := os.Stat(other); fi.Mode().Perm() != 0o755 {
		t.Fatal("the appended line ran")
	}
	// The first line did run: it answered the refusal.
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o777 {
		t.Fatal("the confirmed line did not run")
	}
	// A refusal is lifted once.
	if err := os.Chmod(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := confirm(a, danger); !r.IsError {
		t.Fatalf("one refusal confirmed twice: %s", r.Text)
	}
	untouched(t, target)
	// Ordinary input sent to the confirm tool runs, audited as ordinary input.
	if r := confirm(a, "echo plain"); r.IsError || !strings.Contains(r.Text, "plain") {
		t.Fatalf("ordinary input through confirm: %s", r.Text)
	}
	lines := auditLines(t, auditPath)
	for _, l := range strings.Split(lines, "\n") {
		if strings.HasSuffix(l, "| echo plain") && !strings.HasPrefix(l, "input |") {
			t.Fatalf("ordinary input audited as %s", l)
		}
	}
	if strings.Count(lines, "confirmed |") != 1 {
		t.Fatalf("want exactly one confirmation:\n%s", lines)
	}
}

// Route 7: the check runs inside the session's turn. The seam runs another call that
// starts sqlite3 after this call's arguments were checked and before it types: the
// line must be judged as SQL, by what is in front when it is typed.
func TestGateJudgesInsideTheTurn(t *testing.T) {
	need(t, "sqlite3")
	h, _, _ := gateHarness(t)
	db := filepath.Join(h.dir, "app.db")
	if out, err := exec.Command("sqlite3", db, "CREATE TABLE t(id int);").CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v %s", err, out)
	}
	id := h.bash()
	testHookBeforeTurn = func(sess *session.Session) {
		testHookBeforeTurn = nil
		if _, err := sess.Send(t.Context(), session.Input{Text: "sqlite3 " + db, AppendNewline: true, Timeout: 5 * time.Second}); err != nil {
			t.Error(err)
		}
	}
	defer func() { testHookBeforeTurn = nil }()
	r := h.call("send_command", map[string]any{"session_id": id, "input": "DROP TABLE t;"})
	if !r.IsError || !strings.Contains(r.Text, "DROP TABLE") {
		t.Fatalf("DROP TABLE typed into sqlite3 started between check and typing: %s", r.Text)
	}
	if out, _ := exec.Command("sqlite3", db, ".tables").CombinedOutput(); !strings.Contains(string(out), "t") {
		t.Fatalf("the table is gone: %s", out)
	}
}

// Route 8: behind a proxy, the prompt at the cursor picks the rules.
func TestContextBehindProxy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		program, prompt string
		want            danger.Context
	}{
		{"ssh", "deploy@web-1:~$ ", danger.Shell},
		{"ssh", "root@db:/var/lib# ", danger.Shell},
		{"ssh", "app=# ", danger.SQL},
		{"ssh", "app=> ", danger.SQL},
		{"docker", "mysql> ", danger.SQL},
		{"kubectl", "MariaDB [shop]> ", danger.SQL},
		{"ssh", "sqlite> ", danger.SQL},
		{"docker", ">>> ", danger.Python},
		{"ssh", "In [3]: ", danger.Python},
		{"ssh", "", danger.Shell},
		{"sudo", "# ", danger.Shell},
		{"python3", "$ ", danger.Python}, // not a proxy: the program decides
		{"", "$ ", danger.Shell},         // unknown: the session's own program
	} {
		if got := contextFor(c.program, c.prompt, "bash"); got != c.want {
			t.Errorf("%s at %q: %v, want %v", c.program, c.prompt, got, c.want)
		}
	}
}

// Route 3, continued: a history expansion, an alias or a function the session defined
// earlier is judged as the command it stands for.
func TestGateExpandsHistoryAliasesAndFunctions(t *testing.T) {
	t.Parallel()
	h, target, _ := gateHarness(t)
	danger := "chmod -R 777 " + target
	id := h.bash()
	h.send(id, "set -o history", nil)
	// Defining them is refused already; confirmed, what they stand for is still judged
	// each time they are used.
	define := func(line string) {
		h.refused("send_command", map[string]any{"session_id": id, "input": line})
		h.must("confirm_dangerous_command", map[string]any{"session_id": id, "input": line, "justification": "defining a helper for this test"})
	}
	define("alias fixperms='" + danger + "'")
	if r := h.call("send_command", map[string]any{"session_id": id, "input": "fixperms"}); !r.IsError {
		t.Fatalf("an alias of a dangerous command ran: %s", r.Text)
	}
	define("opened() { " + danger + "; }")
	if r := h.call("send_command", map[string]any{"session_id": id, "input": "opened"}); !r.IsError {
		t.Fatalf("a function running a dangerous command ran: %s", r.Text)
	}
	untouched(t, target)
	h.refused("send_command", map[string]any{"session_id": id, "input": danger})
	h.must("confirm_dangerous_command", map[string]any{"session_id": id, "input": danger, "justification": "the fixture must be world-writable"})
	if err := os.Chmod(target, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, again := range []string{"!!", "fc -s", "!chmod"} {
		if r := h.call("send_command", map[string]any{"session_id": id, "input": again}); !r.IsError {
			t.Fatalf("%s repeated a confirmed dangerous command: %s", again, r.Text)
		}
		untouched(t, target)
	}
}

// A command continued over several lines at the prompt: the continuation prompt the
// screen shows is not part of it, and the line typed is judged on its own too.
func TestGateContinuedCommand(t *testing.T) {
	t.Parallel()
	h, target, _ := gateHarness(t)
	id := h.bash()
	h.send(id, "for d in "+target+"; do", nil)
	if r := h.call("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 \"$d\"; done"}); !r.IsError {
		t.Fatalf("the body of a loop continued at the prompt ran: %s", r.Text)
	}
	untouched(t, target)
}

// Route: control characters inside send_command's text. A carriage return, or
// ctrl+o, in the middle of the text made a line editor run the line at that byte,
// before or without the gate, and the refusal then named the text after it
// ("nothing ran") while the first line had run (found by an independent probe).
// A carriage return now ends a line that is judged like any other; other control
// characters are refused in text (keys go through send_control, judged there).
func TestGateControlCharactersInText(t *testing.T) {
	t.Parallel()
	h, target, auditPath := gateHarness(t)
	danger := "chmod -R 777 " + target
	for _, sh := range []map[string]any{
		{"command": "bash", "args": []any{"--norc", "--noprofile"}},
		{"command": "bash", "args": []any{"-i"}},
		{"command": "sh"},
	} {
		sh["cwd"], sh["env"] = h.dir, map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null", "HOME": h.dir}
		id := h.must("create_session", sh).str("session_id")
		for _, in := range []map[string]any{
			{"input": danger + "\x0f", "append_newline": false},
			{"input": danger + "\rx", "append_newline": false},
			{"input": danger + "\recho hi"},
			{"input": danger + "\r"},
			{"input": "echo hi\r" + danger},
			{"input": danger + "\x7f\x7f7"},
		} {
			in["session_id"] = id
			r := h.refused("send_command", in)
			time.Sleep(100 * time.Millisecond) // what was typed would have run by now
			untouched(t, target)
			if strings.Contains(r.Text, `refused: "echo hi"`) || strings.Contains(r.Text, `refused: ""`) {
				t.Errorf("%q: the refusal names another line: %s", in["input"], r.Text)
			}
		}
		// The session is as it was: the next line runs alone.
		if r := h.must("send_command", map[string]any{"session_id": id, "input": "echo ne$((1))xt"}); !strings.Contains(r.str("output"), "ne1xt") {
			t.Errorf("after: %s", r.Text)
		}
	}
	if lines := auditLines(t, auditPath); !strings.Contains(lines, "refused | ") {
		t.Errorf("no refusal audited:\n%s", lines)
	}
}

// Route: a line typed ahead while a program that is not reading is in front (a
// python3 script that sleeps). The shell reads it once the program ends, so it is
// judged as the shell would take it too, not only with the rules of the program
// then in front (found by an independent probe: judged as Python, it passed, and
// bash ran it).
func TestGateTypedAheadBehindAProgram(t *testing.T) {
	t.Parallel()
	need(t, "python3")
	h, target, _ := gateHarness(t)
	id := h.bash()
	r := h.must("send_command", map[string]any{"session_id": id, "input": "python3 -c 'import time; time.sleep(1.5)'", "timeout_ms": 300})
	if r.boolean("is_complete") {
		t.Fatalf("the script: %s", r.Text)
	}
	h.refused("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target, "timeout_ms": 5000})
	// At python's own prompt, reading, the line is Python's: its rules alone.
	h.must("send_command", map[string]any{"session_id": id, "input": "python3 -q", "timeout_ms": 10000})
	if r := h.must("send_command", map[string]any{"session_id": id, "input": "print('chmod -R 777 ' + 'x')"}); !strings.Contains(r.str("output"), "chmod -R 777 x") {
		t.Errorf("python's line: %s", r.Text)
	}
	time.Sleep(200 * time.Millisecond)
	untouched(t, target)
}

// What earlier calls did at the prompt changes what a line does: after cd ~, "rm
// .bashrc" is refused as "cd ~ && rm .bashrc" typed at once is, and after F=.bashrc
// so is rm "$F"; each refusal says why. Below the home directory, in a project,
// removing its build directory is not refused.
func TestGateJudgesInTheShellsState(t *testing.T) {
	t.Parallel()
	h, _, _ := gateHarness(t)
	home := t.TempDir()
	rc, build := filepath.Join(home, ".bashrc"), filepath.Join(home, "proj", "build")
	if err := os.MkdirAll(build, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rc, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := h.must("create_session", map[string]any{"command": "bash", "args": []any{"--norc", "--noprofile"}, "cwd": h.dir,
		"env": map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null", "HOME": home}}).str("session_id")
	h.send(id, "cd ~", nil)
	r := h.refused("send_command", map[string]any{"session_id": id, "input": "rm .bashrc"})
	if !strings.Contains(r.Text, "overwrite-protected") || !strings.Contains(r.Text, "(typed in ~)") {
		t.Errorf("refusal: %s", r.Text)
	}
	h.send(id, "F=.bashrc", nil)
	r = h.refused("send_command", map[string]any{"session_id": id, "input": `rm -f "$F"`})
	if !strings.Contains(r.Text, "(typed in ~, with $F as set earlier)") {
		t.Errorf("refusal: %s", r.Text)
	}
	if _, err := os.Stat(rc); err != nil {
		t.Fatalf("a refused line ran: %v", err)
	}
	h.send(id, "cd proj", nil)
	h.send(id, "rm -rf build", nil)
	if _, err := os.Stat(build); !os.IsNotExist(err) {
		t.Fatalf("rm -rf build in ~/proj did not run: %v", err)
	}
}

// TestGateConfirmationStaysWhereItWasRefused: a confirmation lifts a refusal in the
// directory the line was refused in. After a cd, the same text means another thing
// (rm -rf .git in the parent, not the project): it is refused again, to be judged
// there (found by an independent probe: the home directory's .git went).
func TestGateConfirmationStaysWhereItWasRefused(t *testing.T) {
	t.Parallel()
	h, _, _ := gateHarness(t)
	for _, d := range []string{"proj/.git", ".git"} {
		if err := os.MkdirAll(filepath.Join(h.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	id := h.bash()
	h.send(id, "cd proj", nil)
	h.refused("send_command", map[string]any{"session_id": id, "input": "rm -rf .git"})
	h.send(id, "cd ..", nil)
	confirm := map[string]any{"session_id": id, "input": "rm -rf .git", "justification": "dropping the project's history"}
	h.refused("confirm_dangerous_command", confirm)
	if _, err := os.Stat(filepath.Join(h.dir, ".git")); err != nil {
		t.Fatalf("the confirmation ran in another directory: %v", err)
	}
	h.send(id, "cd proj", nil)
	h.refused("send_command", map[string]any{"session_id": id, "input": "rm -rf .git"})
	h.must("confirm_dangerous_command", confirm)
	if _, err := os.Stat(filepath.Join(h.dir, "proj", ".git")); !os.IsNotExist(err) {
		t.Fatalf("confirmed where it was refused, it did not run: %v", err)
	}
}

// TestGateRepositoryOnDisk: a recursive deletion of a path the rules pass by its
// name is judged by what is on disk: a git repository there is a project (found
// by an independent probe: rm -rf of a project's absolute path ran, while
// rm -rf ../proj was refused). Scratch by name or place is not looked at.
func TestGateRepositoryOnDisk(t *testing.T) {
	t.Parallel()
	h, _, _ := gateHarness(t)
	// Not under /tmp, which the rules take for scratch: beside the test's package,
	// or in HOME.
	var root string
	home, _ := os.UserHomeDir()
	for _, dir := range []string{".", home} {
		if abs, err := filepath.Abs(dir); err == nil && dir != "" && !strings.HasPrefix(abs, "/tmp/") && !strings.HasPrefix(abs, "/var/tmp/") {
			if root, err = os.MkdirTemp(abs, ".gate-repo-"); err == nil {
				break
			}
		}
	}
	if root == "" {
		t.Skip("no writable directory outside /tmp for the repository")
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	repo, plain := filepath.Join(root, "app"), filepath.Join(root, "notes")
	for _, d := range []string{filepath.Join(repo, ".git"), plain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	id := h.bash()
	r := h.refused("send_command", map[string]any{"session_id": id, "input": "rm -rf " + repo})
	if !strings.Contains(r.Text, "delete-protected-tree") || !strings.Contains(r.Text, "git repository on disk") {
		t.Errorf("refusal: %s", r.Text)
	}
	if _, err := os.Stat(repo); err != nil {
		t.Fatalf("the repository went: %v", err)
	}
	h.send(id, "rm -rf "+plain, nil)
	if _, err := os.Stat(plain); !os.IsNotExist(err) {
		t.Fatalf("a plain directory was not removed: %v", err)
	}
}

// TestGateBlockListFollowsAliases: the block list judges a line as the shell's
// aliases (and hash -p names) make it, not only as typed: an alias defined in one
// call and used in the next ran the blocked program (found by an independent
// probe).
func TestGateBlockListFollowsAliases(t *testing.T) {
	t.Parallel()
	need(t, "id")
	h := newHarness(t, Config{Policy: policy.Policy{Blocked: []string{"id"}}})
	id := h.bash()
	for _, c := range []struct{ define, use string }{
		{"alias who2=id", "who2 -u"},
		{"hash -p " + mustLookPath(t, "id") + " ident", "ident -u"},
	} {
		h.send(id, c.define, nil)
		if r := h.refused("send_command", map[string]any{"session_id": id, "input": c.use}); !strings.Contains(r.Text, "blocked") {
			t.Errorf("%s, then %s: %s", c.define, c.use, r.Text)
		}
	}
}

func mustLookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
