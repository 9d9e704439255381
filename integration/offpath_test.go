package integration

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Off the happy path: failures seen in the field (clears, programs that read keys
// without Enter, debuggers, late prompts, startup), each written as the behaviour
// the README promises under "Tools" (which output is a reply's, and what each reason
// proves). Run them with
// go test -race -run OffPath ./integration/.

// opQuick bounds calls that must come back on evidence rather than at their timeout.
// It is generous on purpose: BenchmarkOffPath* measure the real latency.
const opQuick = 4 * time.Second

var opSeq atomic.Uint64

// opToken returns a word that no earlier output can contain (nor be a prefix of).
func opToken(prefix string) string {
	return fmt.Sprintf("%s-%d-%06x", prefix, opSeq.Add(1), rand.Uint32()&0xffffff)
}

// opSplit spells tok for the shell so that the typed line does not contain it: only
// the program's output does, and a match cannot come from the input's echo.
func opSplit(tok string) string { return tok[:2] + `""` + tok[2:] }

// opDump renders a whole reply for a failure message.
func opDump(r result) string {
	if r.IsError {
		return "tool error: " + r.Text
	}
	keys := make([]string, 0, len(r.S))
	for k := range r.S {
		if k != "output" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%v ", k, r.S[k])
	}
	fmt.Fprintf(&b, "\n--- output (%d chars) ---\n%s\n--- end ---", len(r.str("output")), r.str("output"))
	return b.String()
}

// opMust fails the test with the whole reply unless ok.
func opMust(t testing.TB, ok bool, r result, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Fatalf(format+"\n%s", append(args, opDump(r))...)
	}
}

// opDone asserts the reply is complete on one of the reasons.
func opDone(t testing.TB, r result, reasons ...string) {
	t.Helper()
	opMust(t, r.boolean("is_complete") && slices.Contains(reasons, r.str("reason")), r,
		"want is_complete with reason %v", reasons)
}

// opExit0 asserts shell integration reported exit status 0.
func opExit0(t testing.TB, r result) {
	t.Helper()
	code, ok := r.num("exit_code")
	opMust(t, ok && code == 0, r, "want exit_code 0")
}

// opFast asserts the server said it took less than within.
func opFast(t testing.TB, r result, within time.Duration) {
	t.Helper()
	ms, ok := r.num("duration_ms")
	opMust(t, ok && time.Duration(ms)*time.Millisecond < within, r, "want duration_ms < %d", within.Milliseconds())
}

// opLog records a step's outcome, so a -v run shows the figures.
func opLog(t testing.TB, step string, r result) {
	t.Helper()
	t.Logf("%s: is_complete=%v reason=%v duration_ms=%v", step, r.S["is_complete"], r.S["reason"], r.S["duration_ms"])
}

// opHasLine reports whether one line of out is exactly want (the screen trims
// trailing blanks).
func opHasLine(out, want string) bool {
	return slices.Contains(strings.Split(out, "\n"), want)
}

// opHasLinePrefix reports whether a line of out starts with prefix.
func opHasLinePrefix(out, prefix string) bool {
	return slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool { return strings.HasPrefix(l, prefix) })
}

// opKeys presses keys with send_control and any extra arguments; a tool error
// fails the test.
func opKeys(s *server, id, keys string, extra map[string]any) result {
	s.t.Helper()
	return s.must("send_control", map[string]any{"session_id": id, "control": keys}, extra)
}

// opCreate is s.createResult.
func opCreate(s *server, command string, args map[string]any) result {
	s.t.Helper()
	return s.createResult(command, args)
}

// opBashArgs are create_session arguments for the plain bash of s.bash.
func opBashArgs(extraEnv map[string]any) map[string]any {
	env := map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null"}
	for k, v := range extraEnv {
		env[k] = v
	}
	return map[string]any{"args": []any{"--norc", "--noprofile"}, "env": env}
}

// 1. A screen clear must not swallow the output that follows it, nor the next
// command's, and earlier commands' output must not come back.
func TestOffPathClearKeepsOutput(t *testing.T) {
	need(t, "tput")
	cases := []struct {
		name  string
		input string // %[1]s is the token
		want  string // the line that must come back
	}{
		{"clear", "clear; echo %[1]s", "%[1]s"},
		{"output before the clear", "echo x; clear; echo %[1]s", "%[1]s"},
		{"erase display and home", `printf '\033[2J\033[H'; echo %[1]s`, "%[1]s"},
		{"full reset", `printf '\033c'; echo %[1]s`, "%[1]s"},
		{"tput clear in a loop", "for i in 1 2 3; do tput clear; echo %[1]s-loop$i; done", "%[1]s-loop3"},
		{"clear scrollback", `printf '\033[3J'; echo %[1]s`, "%[1]s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := startServer(t)
			id := s.bash(nil)
			before := opToken("before")
			r := s.send(id, "echo "+before, nil)
			opDone(t, r, "shell_mark")

			tok := opToken("after")
			input := fmt.Sprintf(c.input, tok)
			r = s.send(id, input, map[string]any{"timeout_ms": 5000})
			opDone(t, r, "shell_mark")
			opExit0(t, r)
			out := r.str("output")
			opMust(t, opHasLine(out, fmt.Sprintf(c.want, tok)), r, "%q: the output after the clear is missing", input)
			opMust(t, strings.HasSuffix(out, "\n$ "), r, "%q: want the next prompt as the last line", input)
			opMust(t, !strings.Contains(out, before), r, "%q: the previous command's output came back", input)
			opMust(t, !strings.Contains(out, input), r, "%q: the input's echo came back", input)

			// The clear was done by the previous command: it must not hide this one.
			next := opToken("next")
			r = s.send(id, "echo "+next, map[string]any{"timeout_ms": 5000})
			opDone(t, r, "shell_mark")
			opExit0(t, r)
			opMust(t, r.str("output") == next+"\n$ ", r, "after %q: want exactly %q", input, next+"\n$ ")
		})
	}
}

// 2. top does not use the alternate screen: it clears and redraws the normal one.
func TestOffPathTopFromBash(t *testing.T) {
	need(t, "top")
	s := startServer(t)
	id := s.bash(nil)
	before := opToken("before")
	opDone(t, s.send(id, "echo "+before, nil), "shell_mark")

	r := s.send(id, "TERM=xterm top", map[string]any{"timeout_ms": 3000})
	opLog(t, "top", r)
	opMust(t, r.boolean("is_alive") && opHasLinePrefix(r.str("output"), "top - "), r, "top's header line is missing")
	opMust(t, !strings.Contains(r.str("output"), before), r, "the previous command's output came back")

	q := opKeys(s, id, "q", map[string]any{"timeout_ms": 5000})
	opLog(t, "q", q)
	opDone(t, q, "shell_mark")
	opMust(t, strings.HasSuffix(q.str("output"), "$ "), q, "q: want the shell prompt back")

	after := opToken("after-top")
	r = s.send(id, "echo "+after, nil)
	opDone(t, r, "shell_mark")
	opMust(t, r.str("output") == after+"\n$ ", r, "after top: want exactly %q", after+"\n$ ")
}

// 2 (control). top as the session's own program.
func TestOffPathTopDirect(t *testing.T) {
	need(t, "top")
	s := startServer(t)
	r := opCreate(s, "top", map[string]any{"env": map[string]any{"TERM": "xterm"}})
	opMust(t, opHasLinePrefix(r.str("output"), "top - "), r, "top's header line is missing from the startup screen")
	q := opKeys(s, r.str("session_id"), "q", map[string]any{"timeout_ms": 5000})
	opDone(t, q, "exit")
}

// 3. Keys typed without Enter into a full-screen program complete on input-wait as
// soon as the program has taken them, not at the timeout. A bare Escape (vim 9.0,
// measured): vim reads it, blocks in pselect6 for 25 ms, leaves insert mode (clears
// "-- INSERT --"), then blocks again for 'ttimeoutlen' (100 ms here; under -u NONE
// 'ttimeout' is off and 'ttimeoutlen' -1, so 'timeoutlen', 1000 ms), after which it
// only redraws the cursor. A reply taken at the first short wait still shows insert
// mode: it must show the screen after vim acted.
func TestOffPathVimKeysWithoutEnter(t *testing.T) {
	need(t, "vim")
	cases := []struct {
		name string
		opts []any
	}{
		{"ttimeoutlen 100", []any{"--cmd", "set ttimeout ttimeoutlen=100"}},
		{"key codes wait timeoutlen 1000", nil}, // -u NONE: nottimeout, ttimeoutlen=-1
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := startServer(t)
			file := filepath.Join(t.TempDir(), "note.txt")
			args := append(append([]any{"-u", "NONE", "-i", "NONE", "-N"}, c.opts...), file)
			id := opCreate(s, "vim", map[string]any{"args": args}).str("session_id")
			keys := map[string]any{"append_newline": false, "timeout_ms": 8000}

			r := s.send(id, "ixyz", keys)
			opLog(t, "ixyz", r)
			opDone(t, r, "input_wait")
			opFast(t, r, opQuick)
			opMust(t, strings.Contains(r.str("output"), "xyz") && strings.Contains(r.str("output"), "-- INSERT --"), r,
				"ixyz: want xyz and -- INSERT -- on the screen")

			r = opKeys(s, id, "escape", map[string]any{"timeout_ms": 8000})
			opLog(t, "escape", r)
			opDone(t, r, "input_wait")
			opFast(t, r, opQuick)
			opMust(t, strings.Contains(r.str("output"), "xyz") && !strings.Contains(r.str("output"), "-- INSERT --"), r,
				"escape: want the screen after vim left insert mode")

			r = s.send(id, "dd", keys)
			opLog(t, "dd", r)
			opDone(t, r, "input_wait")
			opFast(t, r, opQuick)
			opMust(t, !strings.Contains(r.str("output"), "xyz"), r, "dd: the line is still on the screen")

			r = s.send(id, "u", keys)
			opLog(t, "u", r)
			opDone(t, r, "input_wait")
			opFast(t, r, opQuick)
			opMust(t, opHasLine(r.str("output"), "xyz"), r, "u: the line did not come back")

			r = s.send(id, ":wq", map[string]any{"timeout_ms": 8000})
			opLog(t, ":wq", r)
			opDone(t, r, "exit")
			got, err := os.ReadFile(file)
			if err != nil || string(got) != "xyz\n" {
				t.Fatalf("file on disk %q, %v", got, err)
			}
		})
	}
}

// 3. less reads single keys from /dev/tty (read(2) on its own descriptor, not stdin,
// which is the pipe).
func TestOffPathLessKeysWithoutEnter(t *testing.T) {
	need(t, "less", "seq")
	s := startServer(t)
	id := s.bash(map[string]any{"LESS": ""})
	r := s.send(id, "seq 1 100000 | less", map[string]any{"timeout_ms": 8000})
	opLog(t, "less", r)
	opDone(t, r, "input_wait")
	opFast(t, r, opQuick)
	opMust(t, strings.HasPrefix(r.str("output"), "1\n2\n"), r, "less: want the first page")

	steps := []struct {
		input string
		enter bool
		want  string // a line the screen must show
	}{
		{"G", false, "100000"},
		{"g", false, "1"},
		{"/5000", true, "5000"},
		{"/99999", true, "99999"},
	}
	for _, st := range steps {
		r := s.send(id, st.input, map[string]any{"append_newline": st.enter, "timeout_ms": 8000})
		opLog(t, st.input, r)
		opDone(t, r, "input_wait")
		opFast(t, r, opQuick)
		opMust(t, opHasLine(r.str("output"), st.want), r, "%s: want line %q on the screen", st.input, st.want)
	}
	q := opKeys(s, id, "q", map[string]any{"timeout_ms": 8000})
	opLog(t, "q", q)
	opDone(t, q, "shell_mark")
	opFast(t, q, opQuick)
	opMust(t, strings.HasSuffix(q.str("output"), "$ "), q, "q: want the shell prompt back")
}

// 4. gdb's own prompt.
func TestOffPathGdbPrint(t *testing.T) {
	need(t, "gdb")
	s := startServer(t)
	id := opCreate(s, "gdb", map[string]any{"args": []any{"-q", "-nx"}}).str("session_id")
	r := s.send(id, "print 1+2", map[string]any{"timeout_ms": 8000})
	opLog(t, "print 1+2", r)
	opDone(t, r, "prompt", "input_wait")
	opFast(t, r, opQuick)
	opMust(t, r.str("output") == "$1 = 3\n(gdb) ", r, "print 1+2: want %q", "$1 = 3\n(gdb) ")
}

// 4. gdb's y/n question. gdb waits in poll(2) on the terminal and its own event
// pipes at once, so the terminal is not the only thing it waits on.
func TestOffPathGdbQuitQuestion(t *testing.T) {
	need(t, "gdb")
	s := startServer(t)
	id := opCreate(s, "gdb", map[string]any{"args": []any{"-q", "-nx", "--args", "/bin/sleep", "100"}}).str("session_id")
	// starti, not start: /bin/sleep is stripped and has no main to stop at.
	r := s.send(id, "starti", map[string]any{"timeout_ms": 10000})
	if out := r.str("output"); !strings.Contains(out, "Program stopped") {
		if strings.Contains(out, "ptrace") || strings.Contains(out, "not permitted") {
			t.Skipf("gdb cannot trace here:\n%s", opDump(r))
		}
		opMust(t, false, r, "starti: the program did not start")
	}
	opDone(t, r, "prompt", "input_wait")

	r = s.send(id, "quit", map[string]any{"timeout_ms": 8000})
	opLog(t, "quit", r)
	opDone(t, r, "input_wait", "prompt")
	opFast(t, r, opQuick)
	opMust(t, strings.Contains(r.str("output"), "Quit anyway? (y or n)"), r, "quit: want gdb's question")

	r = s.send(id, "y", map[string]any{"timeout_ms": 8000})
	opLog(t, "y", r)
	opDone(t, r, "exit")
	opFast(t, r, opQuick)
}

// 5. read_output wait_for must see output that arrived after the last reply, before
// this call began: the agent has not seen it yet.
func TestOffPathReadOutputSeesEarlierOutput(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	tok := opToken("tkA")
	r := s.send(id, "sleep 0.3; echo "+opSplit(tok), map[string]any{"timeout_ms": 100})
	opMust(t, !r.boolean("is_complete"), r, "premise: the command should have timed out")
	eventually(t, 5*time.Second, tok+" on the screen", func() bool {
		return opHasLine(s.call("read_output", map[string]any{"session_id": id}).str("output"), tok)
	})
	start := time.Now()
	rr := s.call("read_output", map[string]any{"session_id": id, "wait_for": regexp.QuoteMeta(tok), "timeout_ms": 3000})
	took := time.Since(start)
	t.Logf("read_output wait_for: matched=%v in %s", rr.S["matched"], took)
	opMust(t, !rr.IsError && rr.boolean("matched"), rr, "wait_for %q did not match output already on the screen (took %s)", tok, took)
	opMust(t, took < 1500*time.Millisecond, rr, "read_output took %s", took)
	opMust(t, strings.Contains(rr.str("output"), tok), rr, "output lacks %q", tok)
}

// 6. A prompt drawn late (a slow PROMPT_COMMAND) belongs to the command before it,
// not to the input typed while it was pending: its marks must not complete the next
// command, nor shift every later command's completion by one.
func TestOffPathLatePromptAttribution(t *testing.T) {
	cases := []struct {
		name  string
		env   map[string]any
		typed string
	}{
		{"PROMPT_COMMAND from the environment", map[string]any{"PROMPT_COMMAND": "sleep 0.2"}, ""},
		{"PROMPT_COMMAND typed in the session", nil, `PROMPT_COMMAND="sleep 0.2; $PROMPT_COMMAND"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := startServer(t)
			id := s.bash(c.env)
			if c.typed != "" {
				opDone(t, s.send(id, c.typed, nil), "shell_mark")
			}
			if pc := s.send(id, `echo "pc=$PROMPT_COMMAND"`, nil); !strings.Contains(pc.str("output"), "sleep 0.2") {
				t.Errorf("the user's PROMPT_COMMAND is not in effect (the server must wrap it, not replace it):\n%s", opDump(pc))
			}

			late := opToken("late")
			r := s.send(id, "sleep 2; echo "+opSplit(late), map[string]any{"timeout_ms": 500})
			opMust(t, !r.boolean("is_complete"), r, "premise: sleep 2 should have timed out")
			rr := s.call("read_output", map[string]any{"session_id": id, "wait_for": regexp.QuoteMeta(late), "timeout_ms": 5000})
			opMust(t, rr.boolean("matched"), rr, "premise: read_output did not see %q", late)

			next := opToken("next")
			r = s.send(id, "echo "+next, nil)
			opLog(t, "echo next", r)
			opDone(t, r, "shell_mark")
			opExit0(t, r)
			opMust(t, r.str("output") == next+"\n$ ", r, "want only %q (nothing of %q)", next, late)

			second := opToken("second")
			r = s.send(id, "echo "+second, nil)
			opLog(t, "echo second", r)
			opDone(t, r, "shell_mark")
			opExit0(t, r)
			opMust(t, r.str("output") == second+"\n$ ", r, "want only %q", second)

			r = s.send(id, "cat", map[string]any{"timeout_ms": 5000})
			opLog(t, "cat", r)
			opDone(t, r, "input_wait")
			_, hasCode := r.num("exit_code")
			opMust(t, !hasCode, r, "cat is running: there is no exit code yet")

			r = opKeys(s, id, "ctrl+d", nil)
			opDone(t, r, "shell_mark")
			opMust(t, strings.HasSuffix(r.str("output"), "$ "), r, "ctrl+d: want the prompt back")
		})
	}
}

// 7. create_session returns once the shell is ready; a command typed right after must
// not be completed by marks or a prompt left over from startup. Plain bash loads the
// system's and the user's rc files; a slow one (nvm, conda) draws its prompt late.
func TestOffPathStartupRace(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("sleep 0.3\nPS1='slow\\$ '\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   map[string]any
		prompt string // how the prompt ends
	}{
		{"bash --norc", opBashArgs(nil), "$ "},
		{"bash with rc files", map[string]any{"env": map[string]any{"HISTFILE": "/dev/null"}}, promptChar() + " "},
		{"bash with a slow rc file", map[string]any{"env": map[string]any{"HISTFILE": "/dev/null", "HOME": home}}, promptChar() + " "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // the load of the others makes the race likelier
			s := startServer(t)
			failed := 0
			for i := 0; i < 20; i++ {
				if !opStartupRound(t, s, i, c.args, c.prompt) {
					failed++
				}
			}
			if failed > 0 {
				t.Errorf("%d of 20 rounds failed", failed)
			}
		})
	}
}

// opStartupRound creates a shell, checks it came back ready at its prompt, and that
// sleep 30 then times out; it closes the session and reports success.
func opStartupRound(t *testing.T, s *server, round int, args map[string]any, prompt string) bool {
	t.Helper()
	start := time.Now()
	c := opCreate(s, "bash", maps.Clone(args))
	if took := time.Since(start); took > time.Second {
		t.Logf("round %d: create_session took %s", round, took)
	}
	id := c.str("session_id")
	defer func() {
		if cl := s.call("close_session", map[string]any{"session_id": id}); cl.IsError {
			t.Fatalf("round %d: close: %s", round, cl.Text)
		}
	}()
	ok := true
	if !c.boolean("ready") || !strings.HasSuffix(c.str("output"), prompt) {
		t.Errorf("round %d: create_session not ready with the prompt:\n%s", round, opDump(c))
		ok = false
	}
	r := s.send(id, "sleep 30", map[string]any{"timeout_ms": 1000})
	if r.boolean("is_complete") || r.str("reason") != "timeout" || !r.boolean("is_alive") {
		t.Errorf("round %d: sleep 30 must time out:\n%s", round, opDump(r))
		ok = false
	}
	return ok
}

// 8. A timed-out call whose program waits for input must not say it is still
// running. The wait_for never matches, so the call times out while python3 waits
// in input().
func TestOffPathTimeoutWarningWhileWaitingForInput(t *testing.T) {
	need(t, "python3")
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, `python3 -c 'input("first? "); input("second? ")'`, map[string]any{"timeout_ms": 8000})
	opDone(t, r, "input_wait")
	never := opToken("never")
	r = s.send(id, "answer", map[string]any{"wait_for": never, "timeout_ms": 300})
	opMust(t, !r.boolean("is_complete") && r.str("reason") == "timeout" && strings.Contains(r.str("output"), "second? "), r,
		"premise: want a timeout at python's second question")
	w := r.str("warning")
	t.Logf("warning: %s", w)
	opMust(t, w != "" && !strings.Contains(w, "still running"), r, "the warning must not claim the program is still running")
}

// 8. node's prompt is node's, not lua's.
func TestOffPathNodePromptName(t *testing.T) {
	need(t, "node")
	s := startServer(t)
	id := s.create("node", nil)
	r := s.send(id, "1+2", map[string]any{"timeout_ms": 8000})
	opDone(t, r, "prompt", "input_wait")
	t.Logf("detail: %q", r.str("detail"))
	opMust(t, !strings.Contains(strings.ToLower(r.str("detail")+r.Text), "lua"), r, "node's prompt is reported as lua")
}

// A line that leaves an integrated shell's command open (a heredoc, a quote, a
// loop typed over several lines) draws no mark: the shell shows its continuation
// prompt and reads again. That is the next line's turn at once; it used to wait a
// second per line for the marks to be taken for lost (a four-line heredoc took 3 s)
// and then answered a lone open quote as a "prompt". zsh's right prompt stands
// between the line and its break, which the echo check must allow.
func TestOffPathContinuedCommandLines(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	shells := map[string]string{"bash --norc": s.bash(nil),
		"bash -i": s.create("bash", map[string]any{"args": []any{"-i"}, "env": map[string]any{"HISTFILE": "/dev/null", "HOME": t.TempDir()}})}
	if _, err := exec.LookPath("zsh"); err == nil {
		shells["zsh"] = s.create("zsh", map[string]any{"env": map[string]any{"HOME": t.TempDir(), "PS1": "%# ", "RPROMPT": "[%?]"}}) // a right prompt stands between a line and its break
	} else {
		t.Log("zsh is not installed: bash only")
	}
	for name, id := range shells {
		r := s.send(id, "cat <<EOF\nline one\nline two\nEOF", map[string]any{"timeout_ms": 8000})
		opDone(t, r, "shell_mark")
		opMust(t, strings.HasPrefix(r.str("output"), "line one\nline two\n"), r, "%s: heredoc output", name)
		opFast(t, r, 2*time.Second) // each of its three open lines waited 1 s before
		r = s.send(id, "for w in a b; do\n  echo got-$w\ndone", map[string]any{"timeout_ms": 8000})
		opDone(t, r, "shell_mark")
		opMust(t, strings.Contains(r.str("output"), "got-a\ngot-b\n"), r, "%s: loop output", name)
		r = s.send(id, "echo 'open", map[string]any{"timeout_ms": 8000})
		opDone(t, r, "input_wait")
		r = s.send(id, "closed'", map[string]any{"timeout_ms": 8000})
		opDone(t, r, "shell_mark")
		opMust(t, strings.HasPrefix(r.str("output"), "open\nclosed\n"), r, "%s: quoted output", name)
	}
}

// Keys a line editor answers by redrawing its row from the start (readline's
// history search, and ctrl+g leaving it) reply with that row, not with what lies
// right of the column the cursor had: "everse-i-search)`': " before.
func TestOffPathKeysThatRedrawTheirRow(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	opDone(t, s.send(id, "echo needle-1", nil), "shell_mark")
	r := s.control(id, "ctrl+r")
	opMust(t, strings.Contains(r.str("output"), "(reverse-i-search)"), r, "ctrl+r: want the search's row")
	r = s.must("send_command", map[string]any{"session_id": id, "input": "needle", "append_newline": false}, nil)
	opMust(t, strings.Contains(r.str("output"), "(reverse-i-search)`needle': echo needle-1"), r, "typing the search: want its whole row")
	r = s.control(id, "ctrl+g")
	opMust(t, strings.HasPrefix(r.str("output"), "$ "), r, "ctrl+g: want the prompt's row back")
	r = s.control(id, "e c h o space k e p t") // ordinary typing still answers with what it added
	opMust(t, r.str("output") == "echo kept", r, "typing: want only the typed text")
}

// tmux's client hands its terminal to the tmux server and waits on its socket
// alone, so nobody in front seemed to read the terminal and every input typed into
// tmux waited for its full timeout. It is a proxy now: quiet output settles the
// reply (without claiming the far side is ready), and an input is not taken for
// one typed ahead of a running command.
func TestOffPathInsideTmux(t *testing.T) {
	t.Parallel()
	need(t, "tmux")
	s := startServer(t)
	name := fmt.Sprintf("mcpt-it-%d", os.Getpid())
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", name, "kill-server").Run() })
	id := s.bash(nil)
	r := s.send(id, "tmux -L "+name+" -f /dev/null new -s t", map[string]any{"timeout_ms": 8000})
	opMust(t, r.str("reason") == "settled" && r.boolean("is_alive"), r, "starting tmux: want a settled reply, not a timeout")
	r = s.send(id, "echo inside-$((6*7))", map[string]any{"timeout_ms": 8000})
	opMust(t, r.str("reason") == "settled", r, "inside tmux: want a settled reply, not a timeout")
	opMust(t, strings.Contains(r.str("output"), "inside-42"), r, "inside tmux: want the command's output")
	opMust(t, !strings.Contains(r.str("warning"), "type-ahead"), r, "inside tmux: the input is not typed ahead")
}

// readline redraws the prompt it expanded before when vi mode's indicator changes
// (show-mode-in-prompt) or on ctrl+l, and the prompt carries the integration's
// marks: the redraw looked like a command that ended, so keys that redrew and then
// pressed Enter were answered at once, complete with exit 0 and without the
// command's output (here behind a slow PROMPT_COMMAND, as a real bashrc has).
func TestOffPathRedrawnPromptEndsNoCommand(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	home := t.TempDir()
	rc := "set -o vi\nbind 'set show-mode-in-prompt on'\nPROMPT_COMMAND='sleep 0.3'\nPS1='\\u:\\w\\$ '\n"
	if err := os.WriteFile(home+"/.bashrc", []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	id := s.create("bash", map[string]any{"args": []any{"-i"}, "env": map[string]any{"HOME": home, "HISTFILE": "/dev/null"}})
	s.must("send_command", map[string]any{"session_id": id, "input": "echo typo", "append_newline": false}, nil)
	r := s.control(id, "escape b c w f i x e d escape enter")
	opDone(t, r, "shell_mark")
	opMust(t, strings.HasPrefix(r.str("output"), "fixed\n"), r, "vi edit then Enter: want the command's output")
	s.must("send_command", map[string]any{"session_id": id, "input": "echo $((40+2))", "append_newline": false}, nil)
	r = s.control(id, "ctrl+l enter")
	opDone(t, r, "shell_mark")
	opMust(t, strings.Contains(r.str("output"), "42\n"), r, "ctrl+l then Enter: want the command's output")
}

// A builtin that reads the terminal without line mode (bash's read -n 1 and read
// -e, zsh's read -k) runs with the shell itself in front, in the raw mode its line
// editor uses: it was taken for the shell editing its command line, whose marks are
// the only evidence, and answered only once they were taken for lost, a second
// later. Its command has started (C) and not ended (no D): its waiting is evidence.
func TestOffPathBuiltinReadsWithoutLineMode(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	reads := map[string]string{s.bash(nil): "read -n 1 -p 'Press any key ' k; echo; echo got=$k"}
	if _, err := exec.LookPath("zsh"); err == nil {
		reads[s.create("zsh", map[string]any{"env": map[string]any{"HOME": t.TempDir(), "PS1": "%# "}})] = "read -k 1 '?Press any key ' k; echo; echo got=$k"
	}
	for id, read := range reads {
		r := s.send(id, read, map[string]any{"timeout_ms": 8000})
		opDone(t, r, "input_wait")
		opMust(t, strings.Contains(r.str("output"), "Press any key"), r, "want the question")
		opFast(t, r, 900*time.Millisecond) // a second at least before
		r = s.control(id, "x")
		opDone(t, r, "shell_mark")
		opMust(t, strings.Contains(r.str("output"), "got=x"), r, "want the key read")
	}
	r := s.send(s.bash(nil), "read -e -p 'Edit: ' v; echo v=$v", map[string]any{"timeout_ms": 8000})
	opDone(t, r, "input_wait")
	opFast(t, r, 900*time.Millisecond)
}

// node's REPL reads its terminal even while it awaits (it takes keystrokes and holds
// them), so the kernel shows it waiting for input mid-await: the answer is its
// prompt, with the awaited value before it. It used to come back at once, complete
// by input_wait with no output. A node script's own question is still answered by
// the kernel's view, at once.
func TestOffPathNodeAwaitWaitsForThePrompt(t *testing.T) {
	need(t, "node")
	s := startServer(t)
	id := s.create("node", nil)
	for input, want := range map[string]string{
		"await new Promise(r => setTimeout(() => r(6*7), 400))":                                                                                 "42",
		"await new Promise(r => require('child_process').exec('sleep 0.4; echo kid', (e, out) => r(out.trim())))":                               "kid",
		"await new Promise(r => { const sv = require('net').createServer().listen(0, () => setTimeout(() => { sv.close(); r('srv') }, 400)) })": "srv",
	} {
		r := s.send(id, input, map[string]any{"timeout_ms": 8000})
		opDone(t, r, "prompt")
		opMust(t, strings.Contains(r.Text, want), r, "%q: want the awaited %q in the reply", input, want)
	}
	script := "require('readline').createInterface({input: process.stdin, output: process.stdout}).question('Name? ', a => { console.log('hi ' + a); process.exit(0) })"
	sh := s.bash(nil)
	r := s.send(sh, "node -e \""+script+"\"", map[string]any{"timeout_ms": 8000})
	opDone(t, r, "input_wait")
	opMust(t, strings.Contains(r.Text, "Name? "), r, "want the script's question")
	opDone(t, s.send(sh, "Ada", map[string]any{"timeout_ms": 8000}), "shell_mark")
}

// node's .editor takes lines with no prompt until ctrl+d: the rule that only
// node's prompt says a line has run (its waiting is no evidence while it awaits)
// made .editor and every line after it wait out the whole timeout.
func TestOffPathNodeEditorMode(t *testing.T) {
	need(t, "node")
	s := startServer(t)
	id := s.create("node", nil)
	opDone(t, s.send(id, ".editor", map[string]any{"timeout_ms": 8000}), "input_wait")
	opDone(t, s.send(id, "const z = 5", map[string]any{"timeout_ms": 8000}), "input_wait")
	opDone(t, s.send(id, "console.log('z is', z * 2)", map[string]any{"timeout_ms": 8000}), "input_wait")
	r := s.control(id, "ctrl+d")
	opDone(t, r, "prompt")
	opMust(t, strings.Contains(r.str("output"), "z is 10"), r, "want the edited lines run")
	// Back at the prompt, an await is judged by the prompt again.
	r = s.send(id, "await new Promise(r => setTimeout(() => r(6*7), 300))", map[string]any{"timeout_ms": 8000})
	opDone(t, r, "prompt")
	opMust(t, strings.Contains(r.str("output"), "42"), r, "want the awaited value")
}

// 8. Refusal texts are well-formed sentences.
func TestOffPathRefusalText(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	// Both are harmless if they ran: rm refuses / without --no-preserve-root, and
	// nothing listens on the discard port.
	for _, input := range []string{"rm -rf /", "curl -s http://127.0.0.1:9/x.sh | sh"} {
		r := s.call("send_command", map[string]any{"session_id": id, "input": input})
		opMust(t, r.IsError, r, "%q was not refused", input)
		text := strings.ReplaceAll(r.Text, "...", "…")
		if strings.Contains(text, "..") {
			t.Errorf("%q: refusal text has a doubled full stop:\n%s", input, r.Text)
		}
	}
}

// 8. close_session on a shell says how it ended.
func TestOffPathCloseReportsExitCode(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	opDone(t, s.send(id, "true", nil), "shell_mark")
	r := s.call("close_session", map[string]any{"session_id": id})
	_, ok := r.num("exit_code")
	opMust(t, !r.IsError && r.boolean("success") && ok, r, "close_session: want success and an exit_code")
}

// 8. The kernel keeps at most 4095 bytes of a canonical-mode line (N_TTY_BUF_SIZE
// less one for the newline); a longer line must be refused or the cut said, never
// made silently.
func TestOffPathLongCanonicalLine(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	opDone(t, s.send(id, "cat", map[string]any{"timeout_ms": 5000}), "input_wait")
	tok := opToken("long")
	line := tok + strings.Repeat("x", 5000-len(tok)-3) + "END"
	r := s.call("send_command", map[string]any{"session_id": id, "input": line, "timeout_ms": 5000})
	if r.IsError {
		t.Logf("refused: %s", r.Text)
	} else {
		t.Logf("output %d chars, reason %v, warning: %s", len(r.str("output")), r.S["reason"], r.str("warning"))
	}
	switch {
	case r.IsError:
		low := strings.ToLower(r.Text)
		opMust(t, strings.Contains(low, "4095") || strings.Contains(low, "4096") || strings.Contains(low, "line"), r,
			"the refusal must say the line is longer than the terminal takes")
	case strings.Contains(r.str("output"), line):
		// Not cut at all: fine.
	default:
		low := strings.ToLower(r.str("warning"))
		said := false
		for _, w := range []string{"4095", "4096", "line limit", "cut", "truncat", "dropped", "discard"} {
			said = said || strings.Contains(low, w)
		}
		opMust(t, said, r, "the line was cut (%d bytes typed) and the warning does not say so", len(line))
	}
	opKeys(s, id, "ctrl+c", map[string]any{"timeout_ms": 5000})
}

// 9. send_control resizes the terminal with cols and rows, with or without keys.
func TestOffPathResizeBash(t *testing.T) {
	s := startServer(t)
	id := s.bash(nil)
	for _, c := range []struct {
		keys       string
		cols, rows int
	}{
		{"", 100, 30},
		{"enter", 90, 25},
	} {
		r := s.call("send_control", map[string]any{"session_id": id, "control": c.keys, "cols": c.cols, "rows": c.rows, "timeout_ms": 5000})
		opMust(t, !r.IsError, r, "send_control %q with cols %d rows %d", c.keys, c.cols, c.rows)
		size := s.send(id, "stty size", nil)
		opDone(t, size, "shell_mark")
		want := fmt.Sprintf("%d %d", c.rows, c.cols)
		opMust(t, size.str("output") == want+"\n$ ", size, "stty size: want %q", want)
		read := s.call("read_output", map[string]any{"session_id": id})
		cols, _ := read.num("cols")
		rows, _ := read.num("rows")
		opMust(t, int(cols) == c.cols && int(rows) == c.rows, read, "read_output: want cols %d rows %d", c.cols, c.rows)
	}
}

func TestOffPathResizeVim(t *testing.T) {
	need(t, "vim")
	s := startServer(t)
	file := filepath.Join(t.TempDir(), "resize.txt")
	id := opCreate(s, "vim", map[string]any{"args": []any{"-u", "NONE", "-i", "NONE", "-N", file}}).str("session_id")
	r := s.call("send_control", map[string]any{"session_id": id, "control": "escape", "cols": 100, "rows": 30, "timeout_ms": 5000})
	opMust(t, !r.IsError, r, "send_control escape with cols 100 rows 30")
	read := s.call("read_output", map[string]any{"session_id": id})
	cols, _ := read.num("cols")
	rows, _ := read.num("rows")
	opMust(t, cols == 100 && rows == 30, read, "read_output: want cols 100 rows 30")
	// vim itself took the new size (SIGWINCH).
	r = s.send(id, ":echo &columns &lines", map[string]any{"timeout_ms": 5000})
	opMust(t, opHasLine(r.str("output"), "100 30"), r, "vim's own idea of the size")
}

// 17. Output printed after a clear, between two replies (the command timed out, the
// next line was typed ahead of its prompt and timed out too), belongs to no reply
// yet: a read waiting for it must find it, although the clear moved the cursor above
// where the last reply ended.
func TestOffPathTypedAheadAfterLateClear(t *testing.T) {
	s := startServer(t)
	// The prompt command's sleep is the window the next line is typed into: long enough
	// that a loaded machine (load 35 gave a 250 ms call 557 ms) still types inside it.
	id := s.bash(map[string]any{"PROMPT_COMMAND": "sleep 1.5"})
	cleared, ahead := opToken("cleared"), opToken("ahead")
	r := s.send(id, "sleep 0.5; clear; echo "+opSplit(cleared)+"; (exit 7)", map[string]any{"timeout_ms": 250})
	opMust(t, !r.boolean("is_complete"), r, "premise: the command should have timed out")
	// The agent looks at the screen (which gives nothing) while the clear and the echo
	// happen, and types the next line while PROMPT_COMMAND still runs.
	eventually(t, 5*time.Second, cleared+" on the screen", func() bool {
		return opHasLine(s.call("read_output", map[string]any{"session_id": id}).str("output"), cleared)
	})
	r = s.send(id, "sleep 0.02; echo "+opSplit(ahead)+"; sleep 0.3; (exit 3)", map[string]any{"timeout_ms": 250})
	opLog(t, "typed ahead", r)
	opMust(t, !strings.Contains(r.str("output"), ahead), r, "premise: the typed-ahead command cannot have printed yet")
	rr := s.call("read_output", map[string]any{"session_id": id, "wait_for": regexp.QuoteMeta(cleared), "timeout_ms": 3000})
	opLog(t, "read_output", rr)
	opMust(t, rr.boolean("matched"), rr, "read_output wait_for %q did not match output printed after the clear", cleared)
	opMust(t, opHasLine(rr.str("output"), cleared), rr, "output lacks %q", cleared)
}

// A program at work can print something that looks like a prompt ("Loading... # ",
// a row of python's "... ") and then sleep or compute. That was answered at once,
// complete by "prompt", and the rest of its output came with the next command's
// reply. The kernel shows such a program running or sleeping, not reading: the
// prompt at the cursor counts once it waits for input.
func TestOffPathPromptLookalikeWhileAtWork(t *testing.T) {
	t.Parallel()
	need(t, "python3", "dash")
	s := startServer(t)
	for _, c := range []struct {
		program string
		args    []any
		input   string
		want    string
	}{
		{"dash", nil, "printf 'Loading... # '; sleep 0.5; echo loaded", "loaded"},
		{"bash", []any{"--norc"}, "printf 'Working $ '; sleep 0.5; echo worked", "worked"},
		{"python3", []any{"-q"}, "import time; [(print('...', end=' ', flush=True), time.sleep(0.15)) for i in range(3)] and print('dotted')", "dotted"},
		{"python3", []any{"-q"}, "print('>>> ', end='', flush=True); n = sum(range(20_000_000)); print('summed', n > 0)", "summed True"},
	} {
		id := s.create(c.program, map[string]any{"args": c.args, "env": map[string]any{"PS1": "$ "}})
		r := s.send(id, c.input, map[string]any{"timeout_ms": 8000})
		opLog(t, c.program, r)
		opDone(t, r, "prompt", "shell_mark", "input_wait")
		opMust(t, strings.Contains(r.str("output"), c.want), r, "%s: want %q in the reply, the program's last word", c.program, c.want)
		r = s.send(id, "print('next')", map[string]any{"timeout_ms": 8000})
		opMust(t, !strings.Contains(r.str("output"), c.want), r, "%s: the earlier command's output came with the next reply", c.program)
	}
}

// Shell integration stays in the session's shell. A PS1 given in the environment
// is exported, and so were the wrapped prompt and, for bash --norc, the hooks
// themselves: sh started inside showed "\[\033]133;D;0;n=\007...$ \[...\]" as its
// prompt (zsh's "%{%}$ %{%}"), and a nested bash drew marks that ended the command
// which started it.
func TestOffPathIntegrationIsNotInherited(t *testing.T) {
	t.Parallel()
	need(t, "sh")
	s := startServer(t)
	shells := map[string][]any{"bash --norc": {"--norc"}, "bash": nil}
	if _, err := exec.LookPath("zsh"); err == nil {
		shells["zsh"] = nil
	}
	for name, args := range shells {
		program, _, _ := strings.Cut(name, " ")
		id := s.create(program, map[string]any{"args": args, "env": map[string]any{"HOME": t.TempDir(), "PS1": "$ "}})
		r := s.send(id, "env | grep -c '133;'", map[string]any{"timeout_ms": 8000})
		opMust(t, opHasLine(r.str("output"), "0"), r, "%s: the environment passes shell integration on", name)
		r = s.send(id, "sh", map[string]any{"timeout_ms": 8000})
		opDone(t, r, "prompt", "input_wait")
		for _, leak := range []string{"133", `\[`, "%{"} {
			opMust(t, !strings.Contains(r.str("output"), leak), r, "%s: sh inside shows the integration's %q in its prompt", name, leak)
		}
		opDone(t, s.send(id, "exit", map[string]any{"timeout_ms": 8000}), "shell_mark")
	}
}

// IPython indents a block's continuation lines for the user: the cursor sits after
// "   ...:     ", which the prompt library did not know. Each line of a block came
// back "settled", not complete, after half a second.
func TestOffPathIPythonBlocks(t *testing.T) {
	t.Parallel()
	need(t, "ipython3")
	s := startServer(t)
	id := s.create("ipython3", map[string]any{"args": []any{"--no-banner", "--colors=NoColor", "--HistoryManager.enabled=False"},
		"env": map[string]any{"HOME": t.TempDir()}})
	for _, line := range []string{"if True:", "x = 6 * 7", ""} {
		opDone(t, s.send(id, line, map[string]any{"timeout_ms": 8000}), "prompt")
	}
	r := s.send(id, "x", map[string]any{"timeout_ms": 8000})
	opDone(t, r, "prompt")
	opMust(t, strings.Contains(r.str("output"), "42"), r, "want the block's value")
}

// A line typed while the previous command still ran (its reply timed out) gets a
// reply of its own output, and the previous command's late output is kept for
// read_output. The reply said nothing about it: the agent had no reason to look.
func TestOffPathTypedAheadSaysWhatItLeftOut(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	late, own := opToken("late"), opToken("own")
	r := s.send(id, "sleep 0.6; echo "+opSplit(late), map[string]any{"timeout_ms": 150})
	opMust(t, !r.boolean("is_complete"), r, "premise: the command should have timed out")
	r = s.send(id, "echo "+opSplit(own), map[string]any{"timeout_ms": 8000})
	opDone(t, r, "shell_mark")
	opMust(t, opHasLine(r.str("output"), own) && !strings.Contains(r.str("output"), late), r, "want this line's output alone")
	opMust(t, strings.Contains(r.str("warning"), "late output came during this call"), r, "the reply does not say the previous command's output is kept")
	rr := s.call("read_output", map[string]any{"session_id": id, "wait_for": late, "timeout_ms": 3000})
	opMust(t, opHasLine(rr.str("output"), late), rr, "read_output does not give the kept output")
}

// A user's .bashrc that traces (a DEBUG trap that echoes, set -x) prints before the
// first prompt, and a line of that trace was taken for a command's start: the
// reply to create_session panicked the handler (a protocol error), and the session
// was left running, counted against the limit, with every send panicking too.
func TestOffPathTracingBashrc(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	for name, rc := range map[string]string{
		"DEBUG trap": "PS1='$ '\ntrap 'echo \"[debug] $BASH_COMMAND\" >&2' DEBUG\n",
		"set -x":     "PS1='$ '\nPROMPT_COMMAND='set +x'\nset -x\n",
	} {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		r := s.call("create_session", map[string]any{"command": "bash", "env": map[string]any{"HOME": home}, "cwd": home})
		opMust(t, !r.IsError && r.str("session_id") != "", r, "%s: create_session", name)
		id := r.str("session_id")
		r = s.send(id, "(exit 3)", map[string]any{"timeout_ms": 8000})
		opDone(t, r, "shell_mark")
		code, _ := r.num("exit_code")
		opMust(t, code == 3, r, "%s: want exit_code 3", name)
		// The integration's own hooks are not traced into the reply.
		for _, leak := range []string{"__mcpt", "133;", "case "} {
			opMust(t, !strings.Contains(r.str("output"), leak), r, "%s: the reply traces the integration's hooks (%q)", name, leak)
		}
		s.call("close_session", map[string]any{"session_id": id})
	}
	// set -x typed in a session traces the commands, not the prompt's hooks.
	for _, args := range [][]any{nil, {"--norc"}} {
		id := s.create("bash", map[string]any{"args": args, "env": map[string]any{"HOME": t.TempDir()}})
		opDone(t, s.send(id, "set -x", nil), "shell_mark")
		r := s.send(id, "echo traced", nil)
		opMust(t, strings.HasPrefix(r.str("output"), "+ echo traced\ntraced\n") && strings.Count(r.str("output"), "\n") == 2, r,
			"bash %v: set -x traces the integration's hooks into the reply", args)
	}
}

// The server takes SIGPIPE so that a client that went away makes its writes fail
// rather than kill it. It used to ignore the signal, and an ignored signal stays
// ignored across exec: every program in every session ran with SIGPIPE ignored,
// and `yes | head -1` printed "yes: standard output: Broken pipe".
func TestOffPathSessionsGetDefaultSIGPIPE(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, "yes | head -1; seq 1 100000 | head -1; grep SigIgn /proc/self/status", map[string]any{"timeout_ms": 8000})
	opDone(t, r, "shell_mark")
	opMust(t, !strings.Contains(r.str("output"), "Broken pipe"), r, "a writer to a closed pipe complains instead of dying")
	ign := regexp.MustCompile(`SigIgn:\s*([0-9a-f]+)`).FindStringSubmatch(r.str("output"))
	opMust(t, ign != nil, r, "no SigIgn line")
	mask, _ := strconv.ParseUint(ign[1], 16, 64)
	opMust(t, mask&(1<<(13-1)) == 0, r, "SIGPIPE is ignored in the session")
}

// A tab in send_command's input is text, as pasted: typed to bash it was the key
// that completes, so a heredoc's Makefile recipe lost its tab ("missing
// separator") and a tab inside a line completed a file name into it. Where the
// line editor asked for pastes bracketed, a line with a tab is pasted.
func TestOffPathTabsInInputAreText(t *testing.T) {
	t.Parallel()
	need(t, "python3")
	s := startServer(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "alpha_one.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	shells := []string{"bash"}
	if _, err := exec.LookPath("zsh"); err == nil {
		shells = append(shells, "zsh")
	}
	for _, sh := range shells {
		id := s.create(sh, map[string]any{"cwd": dir, "env": map[string]any{"HOME": t.TempDir(), "PS1": "$ "}})
		opDone(t, s.send(id, "cat > Makefile.in <<'EOF'\nall:\n\techo building\nEOF", map[string]any{"timeout_ms": 8000}), "shell_mark")
		r := s.send(id, "cat -A Makefile.in", map[string]any{"timeout_ms": 8000})
		opMust(t, opHasLine(r.str("output"), "^Iecho building$"), r, "%s: the recipe's tab is gone", sh)
		r = s.send(id, "printf '[%s]' a\tb; echo", map[string]any{"timeout_ms": 8000})
		opMust(t, opHasLine(r.str("output"), "[a][b]"), r, "%s: a tab inside the line was taken for completion", sh)
	}
	id := s.create("python3", map[string]any{"args": []any{"-q"}})
	r := s.send(id, "def f():\n\treturn 6 * 7\n", map[string]any{"timeout_ms": 8000})
	opDone(t, r, "prompt")
	opMust(t, !strings.Contains(r.str("output"), "return"), r, "python: the tab-indented line's echo is in the reply")
	r = s.send(id, "f()", map[string]any{"timeout_ms": 8000})
	opMust(t, opHasLine(r.str("output"), "42"), r, "python: the function did not take its tab-indented body")
}

// A program that returns to the start of the row a reply ended on and overwrites
// it ("waiting..." becoming a result, git's "hint: Waiting for your editor"
// becoming "[main 95e401f] msg") answers with the whole row: the reply kept only
// what lay right of the old cursor, "" or the tail of a word.
func TestOffPathRowOverwrittenFromItsStart(t *testing.T) {
	t.Parallel()
	need(t, "git", "vim")
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, `printf 'Progress: waiting for input... '; read -s x; printf '\r\033[KResult: %s characters\n' "${#x}"`, map[string]any{"timeout_ms": 8000})
	opDone(t, r, "input_wait")
	r = s.send(id, "abcd", map[string]any{"timeout_ms": 8000})
	opMust(t, opHasLine(r.str("output"), "Result: 4 characters"), r, "the overwritten row is not in the reply")
	r = s.send(id, `printf 'Downloading... '; sleep 0.4; printf '\r\033[KDownloaded 5 files\n'`, map[string]any{"timeout_ms": 100})
	opMust(t, !r.boolean("is_complete"), r, "premise: the download should have timed out")
	r = s.call("read_output", map[string]any{"session_id": id, "wait_for": `\$ $`, "timeout_ms": 5000})
	opMust(t, opHasLine(r.str("output"), "Downloaded 5 files"), r, "read_output: the overwritten row is not whole")

	repo := t.TempDir()
	for _, c := range []string{"init -q -b main", "config user.email t@example.com", "config user.name T", "commit -q --allow-empty -m first"} {
		if out, err := exec.Command("sh", "-c", "cd "+repo+" && git "+c).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v %s", c, err, out)
		}
	}
	opDone(t, s.send(id, "cd "+repo+" && echo change > f && git add f", nil), "shell_mark")
	opDone(t, s.send(id, "GIT_EDITOR='vim -u NONE -i NONE -N' git commit", map[string]any{"timeout_ms": 8000}), "input_wait")
	opKeys(s, id, "i", map[string]any{"timeout_ms": 5000})
	s.send(id, "second commit", map[string]any{"append_newline": false, "timeout_ms": 5000})
	r = opKeys(s, id, "escape : w q enter", map[string]any{"timeout_ms": 8000})
	opMust(t, strings.Contains(r.str("output"), "] second commit"), r, "git's commit line, written over its 'Waiting for your editor' hint, is not in the reply")
}

// Text typed without Enter at an integrated shell's prompt waits on its command
// line: the echo is not output, so the reply was empty, and the next line was
// added to it without a word ("q" then "man bash" ran "qman bash"). Both replies
// now say so.
func TestOffPathTextLeftOnTheCommandLine(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, "q", map[string]any{"append_newline": false})
	opMust(t, strings.Contains(r.str("warning"), `command line now holds "q"`), r, "the reply does not say q waits on the command line")
	r = s.send(id, "echo bash", nil)
	opDone(t, r, "shell_mark")
	opMust(t, strings.Contains(r.str("output"), "qecho"), r, "premise: the line was added to the q")
	opMust(t, strings.Contains(r.str("warning"), `already held "q"`), r, "the reply does not say the line was added to what the command line held")
	r = s.send(id, "echo plain", nil)
	opMust(t, r.str("warning") == "", r, "a plain line gets a warning")
}

// A menu in a full-screen program (curses, whiptail, dialog) shows its selected
// item in reverse video, which the screen's text does not carry: the agent chose
// blind. Replies on a full-screen program name the reverse-video text.
func TestOffPathMenuSelectionIsShown(t *testing.T) {
	t.Parallel()
	need(t, "python3")
	s := startServer(t)
	menu := filepath.Join(t.TempDir(), "menu.py")
	script := "import curses\n" +
		"def main(w):\n" +
		"    curses.curs_set(0)\n" +
		"    items, sel = ['Alpha', 'Beta', 'Gamma'], 0\n" +
		"    while True:\n" +
		"        w.erase()\n" +
		"        w.addstr(0, 0, 'Choose:')\n" +
		"        for i, it in enumerate(items):\n" +
		"            w.addstr(2 + i, 2, it, curses.A_REVERSE if i == sel else 0)\n" +
		"        w.refresh()\n" +
		"        k = w.getch()\n" +
		"        if k == curses.KEY_DOWN: sel = min(sel + 1, 2)\n" +
		"        elif k == curses.KEY_UP: sel = max(sel - 1, 0)\n" +
		"        elif k in (10, 13): return items[sel]\n" +
		"print('chosen:', curses.wrapper(main))\n"
	if err := os.WriteFile(menu, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	id := s.bash(nil)
	r := s.send(id, "python3 "+menu, map[string]any{"timeout_ms": 8000})
	opMust(t, strings.Contains(r.Text, `highlighted: "Alpha"`), r, "the first item's selection is not shown")
	r = opKeys(s, id, "down down", map[string]any{"timeout_ms": 5000})
	opMust(t, strings.Contains(r.Text, `highlighted: "Gamma"`), r, "the selection after down down is not shown")
	r = s.call("read_output", map[string]any{"session_id": id})
	opMust(t, strings.Contains(r.Text, `highlighted: "Gamma"`), r, "read_output does not show the selection")
	r = opKeys(s, id, "up enter", map[string]any{"timeout_ms": 5000})
	opMust(t, opHasLine(r.str("output"), "chosen: Beta"), r, "premise: Beta was chosen")
}

// TestKeysSignalWhenStartedInTheBackground: a server started as a background job
// of a non-interactive shell (nohup mcp-terminal ... &) inherits SIGINT and SIGQUIT
// ignored, and an ignored signal stays ignored across exec: its sessions' programs
// must still get ctrl+c and ctrl+\ as signals.
func TestKeysSignalWhenStartedInTheBackground(t *testing.T) {
	t.Parallel()
	need(t, "bash", "sleep", "sh")
	s := startServer(t, ignoreSignals)
	id := s.bash(nil)
	for _, c := range []struct {
		key  string
		code float64
	}{{"ctrl+c", 130}, {"ctrl+\\", 131}} {
		s.send(id, "sleep 30", map[string]any{"timeout_ms": 300})
		r := s.must("send_control", map[string]any{"session_id": id, "control": c.key, "timeout_ms": 5000}, nil)
		if code, _ := r.num("exit_code"); !r.boolean("is_complete") || code != c.code {
			t.Errorf("%s: %s", c.key, r.Text)
		}
	}
}
