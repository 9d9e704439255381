package session

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bashWith starts an integrated bash --norc with extra environment.
func bashWith(t *testing.T, m *Manager, env map[string]string) *Session {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	e := map[string]string{"PS1": "$ ", "HISTFILE": "/dev/null"}
	for k, v := range env {
		e[k] = v
	}
	s, err := m.Create(CreateOptions{Command: "bash", Args: []string{"--norc", "--noprofile"}, Env: e})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Startup(t.Context(), 10*time.Second); !r.Complete || !strings.HasSuffix(r.Output, "$ ") {
		t.Fatalf("startup: %+v", r)
	}
	return s
}

// sendWithin types a line and waits for it at most timeout.
func sendWithin(t *testing.T, s *Session, text string, timeout time.Duration) Result {
	t.Helper()
	r, err := s.Send(t.Context(), Input{Text: text, AppendNewline: true, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A command typed while the previous one's prompt is still being drawn gets its own
// output and status, not the previous command's late prompt and exit code.
func TestLatePromptIsNotTheNextCommands(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, map[string]string{"PROMPT_COMMAND": "sleep 0.2"})
	r, err := s.Send(t.Context(), Input{Text: "sleep 0.4; echo la$((0))te; (exit 3)", AppendNewline: true, Timeout: 100 * time.Millisecond})
	if err != nil || r.Complete {
		t.Fatalf("first command: %+v %v", r, err)
	}
	got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "la0te"), Timeout: 5 * time.Second})
	if !got.Matched {
		t.Fatalf("read: %+v", got)
	}
	// The prompt is 200 ms away: this is typed ahead of it.
	r = send(t, s, "echo ne$((1))xt")
	if !r.Complete || r.Reason != "shell_mark" || r.Code == nil || *r.Code != 0 {
		t.Fatalf("typed-ahead command: %+v", r)
	}
	if r.Output != "ne1xt\n$ " {
		t.Fatalf("typed-ahead command output %q", r.Output)
	}
	r = send(t, s, "echo se$((2))cond")
	if r.Output != "se2cond\n$ " || r.Code == nil || *r.Code != 0 {
		t.Fatalf("next command: %+v", r)
	}
}

// cat typed ahead of a late prompt waits for input: that, not the earlier
// command's end mark, is what the reply must say.
func TestTypeAheadIntoLatePromptThenReader(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, map[string]string{"PROMPT_COMMAND": "sleep 0.2"})
	if r, _ := s.Send(t.Context(), Input{Text: "sleep 0.3", AppendNewline: true, Timeout: 50 * time.Millisecond}); r.Complete {
		t.Fatalf("sleep: %+v", r)
	}
	r := send(t, s, "cat")
	if !r.Complete || r.Reason != "input_wait" || r.Code != nil {
		t.Fatalf("cat typed ahead: %+v", r)
	}
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+d", Timeout: 5 * time.Second})
	if err != nil || !r.Complete || r.Reason != "shell_mark" {
		t.Fatalf("ctrl+d: %+v %v", r, err)
	}
}

func TestClearsKeepTheOutputAfterThem(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, map[string]string{"TERM": "xterm"})
	tests := []struct{ input, want string }{
		{"clear; echo af$((0))ter", "af0ter\n$ "},
		{"echo x; clear; echo y$((1))", "y1\n$ "},
		{`printf '\033[2J\033[H'; echo z$((2))`, "z2\n$ "},
		{`printf '\033[2J'; echo w$((3))`, "w3\n$ "},
		{`printf '\033c'; echo r$((4))`, "r4\n$ "},
		{`printf '\033[3J'; echo s$((5))`, "s5\n$ "},
		{"for i in 1 2 3; do clear; echo loop$i; done", "loop3\n$ "},
		{"echo plain$((6))", "plain6\n$ "},
	}
	for _, tt := range tests {
		send(t, s, "echo before")
		r := send(t, s, tt.input)
		if !r.Complete || r.Reason != "shell_mark" || r.Output != tt.want {
			t.Errorf("%q: %q (%s), want %q", tt.input, r.Output, r.Reason, tt.want)
		}
	}
}

// Keys typed without Enter into a program that echoes nothing complete once the
// program has taken them and waits again.
func TestKeysWithoutEnterComplete(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	m := newManager(t, Config{})
	s, err := m.Create(CreateOptions{Command: "python3", Args: []string{"-c",
		"import sys,tty,os\ntty.setraw(0)\nwhile True:\n  c=os.read(0,1)\n  if c==b'q': break\n"}})
	if err != nil {
		t.Fatal(err)
	}
	s.Startup(t.Context(), 5*time.Second)
	for range 3 {
		began := time.Now()
		r, err := s.Send(t.Context(), Input{Text: "ab", Timeout: 5 * time.Second})
		if err != nil || !r.Complete || r.Reason != "input_wait" {
			t.Fatalf("keys with no visible effect: %+v %v", r, err)
		}
		if d := time.Since(began); d > 2*time.Second {
			t.Fatalf("keys took %s", d)
		}
	}
}

// Two lines typed ahead while a command runs: each reply has its own command's output
// and status, even though both prompts were owed when the second was typed.
func TestTwoLinesTypedAhead(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, map[string]string{"PROMPT_COMMAND": "sleep 0.1"})
	if r := sendWithin(t, s, "sleep 0.4; echo o$((1))ne; (exit 1)", 50*time.Millisecond); r.Complete {
		t.Fatalf("first: %+v", r)
	}
	if r := sendWithin(t, s, "sleep 0.2; echo t$((2))wo; (exit 2)", 50*time.Millisecond); r.Complete {
		t.Fatalf("second: %+v", r)
	}
	r := send(t, s, "echo th$((3))ree; (exit 3)")
	if !r.Complete || r.Code == nil || *r.Code != 3 || r.Output != "th3ree\n$ " {
		t.Fatalf("third: %+v", r)
	}
}

// Output that arrived after a reply and before the next input belongs to no reply; a
// later read waiting for it still finds it.
func TestReadFindsOutputBetweenReplyAndInput(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	if r, _ := s.Send(t.Context(), Input{Text: "sleep 0.2; echo ga$((1))p", AppendNewline: true, Timeout: 50 * time.Millisecond}); r.Complete {
		t.Fatalf("first: %+v", r)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.Read(t.Context(), ReadOptions{}).Output, "ga1p") && time.Now().Before(deadline) {
		<-time.After(10 * time.Millisecond)
	}
	r := send(t, s, "echo ow$((2))n")
	if r.Output != "ow2n\n$ " || !r.Unseen {
		t.Fatalf("second: %+v", r)
	}
	got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "ga1p"), Timeout: 2 * time.Second})
	if !got.Matched || !strings.Contains(got.Output, "ga1p") || strings.Contains(got.Output, "ow2n") {
		t.Fatalf("read: %+v", got)
	}
}

// Replacing both PS1 and PROMPT_COMMAND removes the marks; the prompt counts again
// after a short grace instead of every command waiting out its timeout.
func TestLostIntegrationFallsBackToPrompts(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	r, err := s.Send(t.Context(), Input{Text: "PROMPT_COMMAND=; PS1='$ '", AppendNewline: true, Timeout: 5 * time.Second})
	if err != nil || !r.Complete {
		t.Fatalf("replace: %+v %v", r, err)
	}
	began := time.Now()
	r = send(t, s, "echo st$((1))ill")
	if !r.Complete || r.Output != "st1ill\n$ " {
		t.Fatalf("after the marks were lost: %+v", r)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
}

// A line typed ahead while the earlier command still runs gets none of that command's
// later output, even when the reply comes before any prompt.
func TestTypeAheadReplyHoldsNoEarlierOutput(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	if r := sendWithin(t, s, "sleep 0.2; echo ea$((1))rly; sleep 0.3", 50*time.Millisecond); r.Complete {
		t.Fatalf("first: %+v", r)
	}
	r := sendWithin(t, s, "echo la$((2))ter", 300*time.Millisecond)
	if strings.Contains(r.Output, "ea1rly") {
		t.Fatalf("typed-ahead reply holds the earlier command's output: %+v", r)
	}
}

// Two lines typed ahead of a slow prompt: the second's reply holds neither the first's
// output nor the earlier command's; what the replies left out is found by a read.
func TestTypedAheadLinesKeepTheirOwnOutput(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, map[string]string{"PROMPT_COMMAND": "sleep 0.2"})
	sendWithin(t, s, "sleep 0.15; echo ze$((0))ro", 100*time.Millisecond)
	one := sendWithin(t, s, "echo on$((1))e; sleep 0.4", 100*time.Millisecond)
	two := sendWithin(t, s, "echo tw$((2))o; sleep 0.4", 100*time.Millisecond)
	for _, r := range []Result{one, two} {
		if strings.Contains(r.Output, "ze0ro") {
			t.Fatalf("a typed-ahead reply holds the earlier output: %+v", r)
		}
	}
	if strings.Contains(two.Output, "on1e") {
		t.Fatalf("the second typed-ahead reply holds the first's output: %+v", two)
	}
	got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "ze0ro"), Timeout: 3 * time.Second})
	if !got.Matched {
		t.Fatalf("the earlier output is lost to reads: %+v", got)
	}
}

// What an earlier command drew after clearing the screen, while a line typed ahead
// waited, is still found by a read.
func TestSkippedOutputAfterAClearIsKept(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, map[string]string{"PROMPT_COMMAND": "sleep 0.3", "TERM": "xterm"})
	if r, _ := s.Send(t.Context(), Input{Text: `sleep 0.2; printf '\033[H\033[2J'; echo cl$((1))ear`, AppendNewline: true, Timeout: 100 * time.Millisecond}); r.Complete {
		t.Fatalf("first: %+v", r)
	}
	if r, _ := s.Send(t.Context(), Input{Text: "sleep 0.5; echo ne$((2))xt", AppendNewline: true, Timeout: 200 * time.Millisecond}); strings.Contains(r.Output, "cl1ear") {
		t.Fatalf("the typed-ahead reply holds the earlier output: %+v", r)
	}
	got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "cl1ear"), Timeout: 2 * time.Second})
	if !got.Matched {
		t.Fatalf("read: %+v", got)
	}
}

// A call whose time is gone before its input goes in says so, and does not blame
// the program for not reading; nothing was typed, so the session is as it was.
func TestNoTimeToTypeIsNotAProgramThatStopsReading(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	_, err := s.Send(t.Context(), Input{Text: "echo unsent", AppendNewline: true, Timeout: time.Nanosecond})
	if !errors.Is(err, errNoTimeToType) || strings.Contains(err.Error(), "not reading") {
		t.Fatalf("err = %v, want the timeout to be named", err)
	}
	if r := send(t, s, "echo se$((1))nt"); r.Output != "se1nt\n$ " {
		t.Fatalf("next command: %+v", r)
	}
}

// TestStripEchoesFirstLineOnly: stripEchoes looks only at the first line and hands
// the rest on as it is; it must cut exactly what splitting every line and joining
// them again cut.
func TestStripEchoesFirstLineOnly(t *testing.T) {
	splitting := func(text string, echoes []string) string {
		lines := strings.Split(text, "\n")
		if len(echoes) == 0 {
			return text
		}
		first := strings.TrimSpace(lines[0])
		if first != "" && first != strings.TrimSpace(echoes[0]) && (echoes[0] == "" || !isEcho(lines[0], echoes[0])) {
			return text
		}
		if len(lines) == 1 {
			return ""
		}
		return dropEchoes(strings.Join(lines[1:], "\n"), echoes[1:], true)
	}
	pieces := []string{"ls", "$ ls", "$ echo hi", "echo hi", "hi", "", "  ", ">>> 1+1", "2", "$ ", "ls  "}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 5000 {
		var lines, echoes []string
		for range rng.IntN(6) {
			lines = append(lines, pieces[rng.IntN(len(pieces))])
		}
		for range rng.IntN(3) {
			echoes = append(echoes, []string{"ls", "echo hi", "1+1", "", "ls "}[rng.IntN(5)])
		}
		text := strings.Join(lines, "\n")
		if got, want := stripEchoes(text, echoes), splitting(text, echoes); got != want {
			t.Fatalf("stripEchoes(%q, %q) = %q, want %q", text, echoes, got, want)
		}
	}
}

// A reply given before the terminal echoed its input ended on the prompt's line;
// the echo arrived there after it. read_output's unseen output leaves it out, as
// it leaves out an echo that follows a prompt of its own: here a program that
// echoes each line itself, 300 ms after it read it (terminal echo off), as a shell
// on a loaded machine may echo after a 100 ms reply.
func TestLateEchoAfterAReplyIsNotOutput(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh not installed")
	}
	m := newManager(t, Config{})
	s, err := m.Create(CreateOptions{Command: "sh", Args: []string{"-c",
		`stty -echo; while printf '$ '; IFS= read -r l; do sleep 0.3; printf '%s\n' "$l"; eval "$l"; done`}})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Startup(t.Context(), 10*time.Second); !strings.HasSuffix(r.Output, "$ ") {
		t.Fatalf("startup: %+v", r)
	}
	r := sendWithin(t, s, "echo do$((1))ne", 100*time.Millisecond)
	if r.Complete || strings.Contains(r.Output, "do$((1))ne") {
		t.Fatalf("the reply came after the echo, so this shows nothing: %+v", r)
	}
	got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, `do1ne\n\$ $`), Timeout: 5 * time.Second})
	if !got.Matched || got.Output != "do1ne\n$ " {
		t.Fatalf("unseen output %q (matched %v), want the command's output without its echo", got.Output, got.Matched)
	}
}

// startShell starts command with args, PS1 "$ " and a HOME of its own, and waits for
// its first prompt; it skips the test when command is not installed.
func startShell(t *testing.T, command string, args ...string) *Session {
	t.Helper()
	if _, err := exec.LookPath(command); err != nil {
		t.Skip(command + " not installed")
	}
	m := newManager(t, Config{})
	s, err := m.Create(CreateOptions{Command: command, Args: args,
		Env: map[string]string{"PS1": "$ ", "HISTFILE": "/dev/null", "HOME": t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Startup(t.Context(), 10*time.Second); !r.Complete {
		t.Fatalf("startup: %+v", r)
	}
	return s
}

// A prefix put before the marked prompt, as a virtualenv's activate does
// (PS1="(venv) $PS1", here with a blank line as themes add), is prompt, not
// output: each reply holds its command's output, then the prompt, whole and once,
// and the exit status still comes.
func TestPromptPrefixIsNotOutput(t *testing.T) {
	for _, args := range [][]string{{"--norc", "--noprofile"}, {"-i"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			s := startShell(t, "bash", args...)
			r := send(t, s, `PS1="\n(venv) $PS1"`)
			prompt := r.Output // bash -i: the system's rc file sets PS1
			if !r.Complete || r.Code == nil || !strings.HasPrefix(prompt, "\n(venv) ") {
				t.Fatalf("activate: %+v", r)
			}
			for _, c := range []struct{ input, want string }{{"echo ins$((1))ide", "ins1ide\n" + prompt}, {"false", prompt}} {
				r := send(t, s, c.input)
				if !r.Complete || r.Code == nil || r.Output != c.want {
					t.Fatalf("%s: %+v, want output %q", c.input, r, c.want)
				}
			}
		})
	}
}

// Text the screen shows after a prompt that nothing was typed at is output, not a
// command line: bash draws its prompt over a row a progress line returned to
// without erasing the rest, and a background job writes after the prompt. The next
// line's reply must not say it was added to that text (found by an independent
// probe: every progress bar that ends in \r made the next reply say so).
func TestOutputAfterPromptIsNotCommandLine(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	// As the tools type: through a gate, which is where a line typed after text
	// on the command line is noticed.
	send := func(t *testing.T, s *Session, text string) Result {
		t.Helper()
		r, err := s.Send(t.Context(), Input{Text: text, AppendNewline: true, Timeout: 10 * time.Second, Gate: func(Pending) error { return nil }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct{ name, first string }{
		{"progress line", `printf 'Downloading 100%%\r'`},
		{"line moved up to", `printf 'abc\e[1A\e[2Kup\n'`},
	} {
		if r := send(t, s, c.first); !r.Complete || r.Code == nil {
			t.Fatalf("%s: %+v", c.name, r)
		}
		if r := send(t, s, "echo ne$((1))xt"); !r.Complete || r.AddedTo != "" || r.Output != "ne1xt\n$ " {
			t.Fatalf("%s: the next line: %+v", c.name, r)
		}
	}
	if r := send(t, s, "(sleep 0.2; echo late-bg) &"); !r.Complete {
		t.Fatalf("background job: %+v", r)
	}
	if got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "late-bg"), Timeout: 5 * time.Second}); !got.Matched {
		t.Fatalf("the job's output: %+v", got)
	}
	if r := send(t, s, "echo af$((2))ter"); !r.Complete || r.AddedTo != "" || !strings.HasPrefix(r.Output, "af2ter\n") {
		t.Fatalf("after the job's output: %+v", r)
	}
	// Text typed without Enter is still the command line's.
	if r, err := s.Send(t.Context(), Input{Text: "echo x", Timeout: 2 * time.Second}); err != nil || r.Pending != "echo x" {
		t.Fatalf("typed without Enter: %+v %v", r, err)
	}
	if r := send(t, s, "y"); r.AddedTo != "echo x" || !strings.HasPrefix(r.Output, "xy\n") {
		t.Fatalf("added to it: %+v", r)
	}
}

// TestOutputOverTheEcho: output a program draws over its own command line (the
// cursor moved up past where the output began) is output: a person sees it where
// the command was, and the reply shows it. In an integrated shell the output is
// cut at the command's C mark, below that row; a row drawn over shows from the
// first column that changed. Control: a command that leaves its line alone.
func TestOutputOverTheEcho(t *testing.T) {
	for _, sh := range [][]string{{"bash", "--norc", "--noprofile"}, {"bash", "-i"}, {"zsh", "-i"}, {"sh"}} {
		t.Run(strings.Join(sh, " "), func(t *testing.T) {
			s := startShell(t, sh[0], sh[1:]...)
			send(t, s, `PS1='$ '`)
			for _, c := range []struct {
				input, want string
				marked      bool // the want of an integrated shell; sh keeps the echo's row whole
			}{
				{`printf 'abc\n\033[2A\033[2Kup\n\n'`, "up\nabc\n$ ", false},
				{`printf 'one\033[1A\033[60Ctwo\n\n'`, "two\none\n$ ", true},
				{`echo plain`, "plain\n$ ", false},
			} {
				if c.marked && sh[0] == "sh" {
					continue
				}
				if r := send(t, s, c.input); !r.Complete || r.Output != c.want {
					t.Errorf("%s: %+v, want output %q", c.input, r, c.want)
				}
			}
		})
	}
}

// TestPromptAtTheLastColumn: a known prompt that ends in the terminal's last column
// leaves the cursor there with the next character due to wrap; the prompt, its
// trailing space included, is still at the cursor. Behind a proxy (script here,
// ssh alike) the prompt is all there is to go by: without it the reply only
// settles, hundreds of milliseconds later and not complete.
func TestPromptAtTheLastColumn(t *testing.T) {
	for _, tool := range []string{"script", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed")
		}
	}
	m := newManager(t, Config{})
	s, err := m.Create(CreateOptions{Command: "script", Args: []string{"-qfec", "python3 -q", "/dev/null"}, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Startup(t.Context(), 10*time.Second); !r.Complete {
		t.Fatalf("startup: %+v", r)
	}
	for _, n := range []int{10, 76, 75, 77} {
		r := send(t, s, fmt.Sprintf("print('x'*%d, end='')", n))
		if !r.Complete || r.Reason != "prompt" || !strings.HasSuffix(r.Output, ">>> ") {
			t.Errorf("%d columns before the prompt: %+v", n, r)
		}
	}
}

// TestReadDuringACallIgnoresItsEcho: a read that waits for output while a call is
// still waiting for its command (another client's, or one its client gave up on
// before the server saw it cancelled) matches output, not the command line the
// call typed: waiting for t5 while `sleep 1; echo t5` runs returns at t5, not at
// once on the echo (found by an independent probe over HTTP).
func TestReadDuringACallIgnoresItsEcho(t *testing.T) {
	for _, args := range [][]string{{"--norc", "--noprofile"}, {"-i"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			s := startShell(t, "bash", args...)
			send(t, s, `PS1='$ '`)
			done := make(chan Result, 1)
			go func() { done <- send(t, s, "sleep 1; echo t$((5))") }()
			deadline := time.Now().Add(5 * time.Second)
			for !strings.Contains(s.Read(t.Context(), ReadOptions{}).Output, "sleep 1; echo t$((5))") && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			began := time.Now()
			got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, `t\$?\(*5`), Timeout: 5 * time.Second})
			if !got.Matched || strings.Contains(got.Output, "sleep") || !strings.HasPrefix(got.Output, "t5\n") {
				t.Errorf("read after %s: %+v", time.Since(began), got)
			}
			if r := <-done; !r.Complete {
				t.Errorf("the call: %+v", r)
			}
		})
	}
}

// TestBusySession: a call on a session another call holds waits for its turn no
// longer than its own timeout, and an interrupt does not wait at all: ctrl+c is
// for the command the other call waits on, as a person's Ctrl+C would be, and the
// other call's reply shows what it did (found by an independent probe over HTTP:
// echo with a 1 s timeout waited 9 s, and ctrl+c pressed after the sleep it was
// meant to end had finished).
func TestBusySession(t *testing.T) {
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	held := make(chan Result, 1)
	go func() { held <- sendWithin(t, s, "sleep 4; echo o$((1))ne", 20*time.Second) }()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.Read(t.Context(), ReadOptions{}).Output, "sleep 4") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	began := time.Now()
	_, err := s.Send(t.Context(), Input{Text: "echo two", AppendNewline: true, Timeout: 300 * time.Millisecond})
	if !errors.Is(err, ErrBusy) || time.Since(began) > 2*time.Second {
		t.Fatalf("a line typed while another call waits: %v after %s", err, time.Since(began))
	}
	began = time.Now()
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+c", Timeout: 3 * time.Second})
	if err != nil || !r.Complete || time.Since(began) > 2*time.Second {
		t.Fatalf("ctrl+c while another call waits: %+v %v after %s", r, err, time.Since(began))
	}
	h := <-held
	if !h.Complete || h.Code == nil || *h.Code != 130 || strings.Contains(h.Output, "o1ne") {
		t.Fatalf("the interrupted call: %+v", h)
	}
	if time.Since(began) > 3*time.Second {
		t.Fatalf("the sleep was not interrupted: the call ended after %s: %+v", time.Since(began), h)
	}
	if r := send(t, s, "echo th$((3))ree"); r.Output != "th3ree\n$ " {
		t.Fatalf("after: %+v", r)
	}
}

// TestTabKeyCompletes: the tab key (send_control tab, ctrl+i) is the key that
// completes, not pasted text: a tab in typed text goes in as a paste, and the key
// went in as one too, so bash and zsh inserted it instead of completing (found by
// an independent probe: git checkout fea<tab> ran "git checkout fea").
func TestTabKeyCompletes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "completable-name"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sh := range [][]string{{"bash", "--norc", "--noprofile"}, {"bash", "-i"}, {"zsh", "-i"}} {
		t.Run(strings.Join(sh, " "), func(t *testing.T) {
			s := startShell(t, sh[0], sh[1:]...)
			send(t, s, "cd "+dir)
			for _, key := range []string{"tab", "ctrl+i"} {
				if _, err := s.Send(t.Context(), Input{Text: "echo complet", Timeout: 5 * time.Second}); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Send(t.Context(), Input{Keys: key, Timeout: 5 * time.Second}); err != nil {
					t.Fatal(err)
				}
				r, err := s.Send(t.Context(), Input{Keys: "enter", Timeout: 5 * time.Second})
				if err != nil || !strings.Contains(r.Output, "completable-name") {
					t.Errorf("%s: %+v %v", key, r, err)
				}
			}
		})
	}
}

// TestMultiLineIsNotAddedTo: the lines of a construct typed over several lines (a
// loop, a heredoc) were each ended with Enter; the shell's continuation prompt
// between them holds nothing typed without Enter, so no reply says its line was
// added to earlier text (found by an independent probe: every heredoc and loop
// did), in bash and zsh, typed in one call or over two. Text left without Enter on
// a continuation line is still added to.
func TestMultiLineIsNotAddedTo(t *testing.T) {
	gated := func(t *testing.T, s *Session, text string, enter bool) Result {
		t.Helper()
		r, err := s.Send(t.Context(), Input{Text: text, AppendNewline: enter, Timeout: 10 * time.Second, Gate: func(Pending) error { return nil }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, sh := range [][]string{{"bash", "--norc", "--noprofile"}, {"bash", "-i"}, {"zsh", "-i"}} {
		t.Run(strings.Join(sh, " "), func(t *testing.T) {
			s := startShell(t, sh[0], sh[1:]...)
			gated(t, s, "PS1='$ '", true)
			for _, in := range []string{"for i in 1 2; do\n  echo item$i\ndone", "cat <<EOF\nhere$((1))doc\nEOF"} {
				if r := gated(t, s, in, true); !r.Complete || r.AddedTo != "" {
					t.Errorf("%q: %+v", in, r)
				}
			}
			gated(t, s, "if true; then", true)
			if r := gated(t, s, "echo th$((2))en; fi", true); !strings.Contains(r.Output, "th2en") || r.AddedTo != "" {
				t.Errorf("over two calls: %+v", r)
			}
			gated(t, s, "for i in 1; do", true)
			gated(t, s, "echo par", false)
			if r := gated(t, s, "t$((3)); done", true); !strings.Contains(r.Output, "part3") || !strings.Contains(r.AddedTo, "echo par") {
				t.Errorf("text without Enter on a continuation line: %+v", r)
			}
		})
	}
}

// TestKeysAfterTypeAhead: keys (or a resize alone) sent while a line typed ahead
// waits for the command before it to end do not complete on that command's prompt:
// the line typed ahead takes it and runs, and the keys come after it, at the prompt
// after it (found by an independent probe: "complete, exit 0" while the
// typed-ahead command still ran).
func TestKeysAfterTypeAhead(t *testing.T) {
	for _, keys := range []string{"x", ""} {
		t.Run("keys "+keys, func(t *testing.T) {
			m := newManager(t, Config{})
			s := bashWith(t, m, nil)
			if r := sendWithin(t, s, "sleep 1; echo AA$((1))A", 200*time.Millisecond); r.Complete {
				t.Fatalf("first: %+v", r)
			}
			if r := sendWithin(t, s, "sleep 1; echo BB$((2))B", 200*time.Millisecond); r.Complete || !r.Owed {
				t.Fatalf("typed ahead: %+v", r)
			}
			in := Input{Keys: keys, Timeout: 10 * time.Second}
			if keys == "" {
				in.Cols, in.Rows = 100, 30
			}
			r, err := s.Send(t.Context(), in)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Read(t.Context(), ReadOptions{}).Output; r.Complete && !strings.Contains(got, "BB2B") {
				t.Fatalf("complete (%s, %s) before the typed-ahead command ended: %+v", r.Reason, r.Detail, r)
			}
			// It completes once the typed-ahead command's prompt is back, saying
			// that command's output came meanwhile and is not this reply's.
			if !r.Complete || !r.Skipped || strings.Contains(r.Output, "BB2B") || r.Pending != keys {
				t.Fatalf("after the typed-ahead command: %+v", r)
			}
		})
	}
}

// TestWaitForOnAFullScreen: behind a full-screen program (tmux here), whose whole
// screen is the reply, wait_for matches what is new on it: not the line just typed,
// nor what matched before (found by an independent probe: waiting for DONE-MARK
// after `sleep 1; echo DONE-MARK` in tmux matched its echo at once).
func TestWaitForOnAFullScreen(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	m := newManager(t, Config{})
	s := bashWith(t, m, nil)
	sock := fmt.Sprintf("mcpt-test-%d", os.Getpid())
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", sock, "kill-server").Run() })
	sendWithin(t, s, "tmux -L "+sock+" -f /dev/null new-session", 5*time.Second)
	for i := range 2 {
		began := time.Now()
		r, err := s.Send(t.Context(), Input{Text: "sleep 0.5; echo DONE-$((7))MARK", AppendNewline: true,
			Timeout: 5 * time.Second, WaitFor: re(t, "DONE-7MARK")})
		if err != nil || !r.Complete || r.Reason != "pattern" || time.Since(began) < 450*time.Millisecond {
			t.Fatalf("round %d after %s: %+v %v", i, time.Since(began), r, err)
		}
	}
	// A read that waits, with the job typed by a call that timed out.
	if r := sendWithin(t, s, "sleep 0.2; echo work; sleep 0.5; echo DONE-$((8))MARK", 50*time.Millisecond); r.Complete {
		t.Fatalf("the job: %+v", r)
	}
	began := time.Now()
	if got := s.Read(t.Context(), ReadOptions{WaitFor: re(t, "DONE-[78]MARK"), Timeout: 5 * time.Second}); !got.Matched || time.Since(began) < 500*time.Millisecond {
		t.Fatalf("read after %s: %+v", time.Since(began), got)
	}
}

// TestRightPromptIsNotTyped: zsh's right prompt (RPROMPT), drawn at the right edge
// of the line being edited, is no text on the command line: a reply does not say
// the line holds it, nor that the next line was added to it (found by an
// independent probe). Text typed without Enter still is.
func TestRightPromptIsNotTyped(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("zsh not installed")
	}
	m := newManager(t, Config{})
	s, err := m.Create(CreateOptions{Command: "zsh", Args: []string{"-i"},
		Env: map[string]string{"PS1": "%# ", "RPROMPT": "[rp]", "HOME": t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Startup(t.Context(), 10*time.Second); !r.Complete {
		t.Fatalf("startup: %+v", r)
	}
	gated := func(in Input) Result {
		t.Helper()
		in.Timeout, in.Gate = 5*time.Second, func(Pending) error { return nil }
		r, err := s.Send(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	gated(Input{Text: "read -q '?Proceed? '", AppendNewline: true})
	if r := gated(Input{Keys: "y"}); r.Pending != "" {
		t.Errorf("the answer: the line holds %q", r.Pending)
	}
	if r := gated(Input{Text: "echo ne$((1))xt", AppendNewline: true}); r.AddedTo != "" || !strings.Contains(r.Output, "ne1xt") {
		t.Errorf("the next line: %+v", r)
	}
	if r := gated(Input{Text: "echo pa"}); r.Pending != "echo pa" {
		t.Errorf("typed without Enter: %+v", r)
	}
	if r := gated(Input{Text: "rt", AppendNewline: true}); r.AddedTo != "echo pa" || !strings.Contains(r.Output, "part") {
		t.Errorf("added to it: %+v", r)
	}
}
