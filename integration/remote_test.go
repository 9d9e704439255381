package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Over ssh the server cannot see whether the far side waits for input: ssh polls the
// terminal and a socket whatever happens remotely. A reply there returns once the
// output has been quiet for a settle window, says so (reason settled, incomplete,
// with a detail), and never waits for the full timeout. A password-like prompt at
// the cursor makes the next input hidden: kept out of results and the audit log.

// remotePS1 is the far side's prompt when the test writes the user's .bashrc. It
// matches none of the known prompts, so quiet output is the only evidence there is.
const remotePS1 = "[remote] "

// remoteBashrc replaces the distribution's .bashrc: a fixed prompt and no history.
const remoteBashrc = "PS1='" + remotePS1 + "'\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n"

// remoteTimeout is every reply's timeout_ms; remoteQuick is the most a reply at a
// proxy may take. Generous: this is not a timing test (BenchmarkRemotePrompt is).
const (
	remoteTimeout = 10000
	remoteQuick   = 3000
)

// remote is an ssh session to a private sshd, logged in and at the far side's prompt,
// on a server that keeps an audit log and logs inputs (so a secret that is not
// treated as one shows up somewhere a test looks).
type remote struct {
	s     *server
	d     *sshd
	id    string
	audit string
}

// startRemote logs in over ssh. With ownBashrc the user's shell shows remotePS1;
// without it, the prompt comes from Debian's /etc/skel/.bashrc (colours, a title, the
// user and host).
func startRemote(t *testing.T, ownBashrc bool) *remote {
	t.Helper()
	need(t, "bash", "su")
	d := startSSHD(t)
	prompt := `[^\n]*\$ `
	if ownBashrc {
		d.WriteHomeFile(t, ".bashrc", remoteBashrc)
		prompt = regexp.QuoteMeta(remotePS1)
	}
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	s := startServer(t, "MCP_TERMINAL_AUDIT_LOG="+audit, "MCP_TERMINAL_LOG_INPUTS=true")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("sshd log:\n%s", d.Log())
		}
	})
	id := login(t, s, d, prompt)
	return &remote{s: s, d: d, id: id, audit: audit}
}

// login opens an ssh session and waits until the far shell has answered a command
// and shown its prompt (a regular expression) after it.
func login(t testing.TB, s *server, d *sshd, prompt string) string {
	t.Helper()
	var args []any
	for _, a := range d.Args() {
		args = append(args, a)
	}
	id := s.create("ssh", map[string]any{"args": args})
	// Typed ahead of the far shell is fine: the remote terminal keeps it. The echo
	// shows `$((40+2))`, so only the shell's answer matches.
	r := s.send(id, "echo login-$((40+2))", map[string]any{"wait_for": `login-42\n` + prompt + `$`, "timeout_ms": 20000})
	if r.str("reason") != "pattern" {
		t.Fatalf("no remote prompt after login: reason %q, output %q\nscreen: %q",
			r.str("reason"), r.str("output"), s.call("read_output", map[string]any{"session_id": id}).str("output"))
	}
	return id
}

// send types one line at the far side and logs the reply's figures.
func (r *remote) send(t *testing.T, input string) result {
	t.Helper()
	res := r.s.send(r.id, input, map[string]any{"timeout_ms": remoteTimeout})
	// The reply, never the input: it may be a password.
	t.Logf("reply: reason %q, is_complete %v, duration_ms %v, input_hidden %v, output %q",
		res.str("reason"), res.boolean("is_complete"), res.S["duration_ms"], res.boolean("input_hidden"), res.str("output"))
	return res
}

// wantSettled asserts a reply came back on quiet output, honestly incomplete, with a
// detail saying why, and well before its timeout.
func wantSettled(t *testing.T, what string, r result) {
	t.Helper()
	ms, _ := r.num("duration_ms")
	if r.str("reason") != "settled" || r.boolean("is_complete") || r.str("detail") == "" || ms >= remoteQuick || !r.boolean("is_alive") {
		t.Errorf("%s: want reason settled, is_complete false, a detail, duration_ms < %d, alive; got reason %q is_complete %v detail %q duration_ms %v is_alive %v output %q",
			what, remoteQuick, r.str("reason"), r.boolean("is_complete"), r.str("detail"), ms, r.boolean("is_alive"), r.str("output"))
	}
}

// wantHidden asserts what the next input is taken for.
func wantHidden(t *testing.T, what string, r result, want bool) {
	t.Helper()
	if r.boolean("input_hidden") != want {
		t.Errorf("%s: input_hidden %v, want %v (output %q, cursor line is the prompt)", what, r.boolean("input_hidden"), want, r.str("output"))
	}
}

// wantShows asserts that a reply's output shows text.
func wantShows(t *testing.T, what string, r result, text string) {
	t.Helper()
	if !strings.Contains(r.str("output"), text) {
		t.Errorf("%s: output %q does not show %q (reason %q, duration_ms %v)", what, r.str("output"), text, r.str("reason"), r.S["duration_ms"])
	}
}

// noSecret asserts that no result text, structured or not, shows the secret.
func noSecret(t *testing.T, secret string, rs ...result) {
	t.Helper()
	for _, r := range rs {
		if strings.Contains(r.Text, secret) || strings.Contains(fmt.Sprint(r.S), secret) {
			t.Errorf("a result shows the secret %q: %q", secret, r.Text)
		}
	}
}

// close ends the session and asserts that nothing it started is left: the local ssh
// (which carries the mark), the remote user's processes, the daemon's connection.
func (r *remote) close(t *testing.T) {
	t.Helper()
	c := r.s.call("close_session", map[string]any{"session_id": r.id})
	if c.IsError || !c.boolean("success") {
		t.Errorf("close_session: %s", c.Text)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := append(append(markedProcesses(r.s.mark), r.d.UserProcesses()...), r.d.Connections()...)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("10s after close_session, processes are left (local ssh, remote user, sshd connection): %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// auditLog stops the server, so the log is complete, and returns it. Nothing secret
// may be in it nor in the server's own log.
func (r *remote) auditLog(t *testing.T, secrets ...string) string {
	t.Helper()
	r.s.close()
	b, err := os.ReadFile(r.audit)
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	for _, secret := range secrets {
		if strings.Contains(string(b), secret) {
			t.Errorf("the audit log holds the secret %q:\n%s", secret, b)
		}
		if strings.Contains(r.s.stderr.String(), secret) {
			t.Errorf("the server log holds the secret %q", secret)
		}
	}
	return string(b)
}

func TestRemotePromptSettles(t *testing.T) {
	r := startRemote(t, true)
	tok := "tok" + randomHex(t, 4)
	echo := r.send(t, "echo "+tok)
	wantSettled(t, "echo", echo)
	wantShows(t, "echo", echo, tok)
	wantHidden(t, "echo", echo, false)

	name := r.send(t, "read -p 'Name: ' x")
	wantSettled(t, "read -p", name)
	wantShows(t, "read -p", name, "Name:")
	wantHidden(t, "read -p", name, false)
	answer := r.send(t, "ada")
	wantSettled(t, "the answer", answer)
	back := r.send(t, `echo "hello $x"`)
	wantSettled(t, "echo $x", back)
	wantShows(t, "echo $x", back, "hello ada")
	r.close(t)
}

// TestRemoteDefaultBashrc is the same over a fresh user's real .bashrc (Debian's:
// colour prompt, an OSC title, bracketed paste). Its prompt ends in "$ ", which a
// server may take as a known prompt: then the reply is complete on `prompt`. Either
// way it is fast and never a timeout.
func TestRemoteDefaultBashrc(t *testing.T) {
	r := startRemote(t, false)
	tok := "tok" + randomHex(t, 4)
	echo := r.send(t, "echo "+tok)
	wantShows(t, "echo", echo, tok)
	switch reason := echo.str("reason"); reason {
	case "settled":
		wantSettled(t, "echo", echo)
	case "prompt":
		if !echo.boolean("is_complete") {
			t.Errorf("reason prompt but incomplete: %+v", echo.S)
		}
	default:
		t.Errorf("echo: reason %q (is_complete %v, detail %q), want settled or prompt", reason, echo.boolean("is_complete"), echo.str("detail"))
	}
	if ms, _ := echo.num("duration_ms"); ms >= remoteQuick {
		t.Errorf("echo took %v ms", ms)
	}
	if want := r.d.User + "@"; !strings.Contains(echo.str("output"), want) {
		t.Errorf("the reply does not end at the next prompt (%q): %q", want, echo.str("output"))
	}
	r.close(t)
}

func TestRemoteReadSilent(t *testing.T) {
	r := startRemote(t, true)
	ask := r.send(t, `read -s -p 'Secret: ' s; echo; echo got${#s}`)
	wantSettled(t, "read -s", ask)
	wantShows(t, "read -s", ask, "Secret:")
	wantHidden(t, "read -s", ask, true)

	secret := "hunter2-" + randomHex(t, 4)
	got := r.send(t, secret)
	wantSettled(t, "the secret", got)
	wantShows(t, "the secret", got, "got"+strconv.Itoa(len(secret)))
	wantHidden(t, "after the secret", got, false)
	screen := r.s.call("read_output", map[string]any{"session_id": r.id, "full_screen": true})
	noSecret(t, secret, ask, got, screen)
	r.close(t)
	if log := r.auditLog(t, secret); !strings.Contains(log, `"hidden":true`) {
		t.Errorf("the audit log does not record the secret as hidden input:\n%s", log)
	}
}

func TestRemoteSuPassword(t *testing.T) {
	r := startRemote(t, true)
	su := fmt.Sprintf("su -c 'echo ran-as-$(id -un)' %s", r.d.User)
	ask := r.send(t, su)
	wantSettled(t, "su", ask)
	wantShows(t, "su", ask, "Password:")
	wantHidden(t, "su", ask, true)
	ran := r.send(t, r.d.Password)
	wantSettled(t, "the password", ran)
	wantShows(t, "the password", ran, "ran-as-"+r.d.User)
	wantHidden(t, "after the password", ran, false)

	// A wrong password: su waits (pam_faildelay, about 2 s) before it says so, and
	// that silence is indistinguishable from a finished command. The reply settles
	// early; read_output with wait_for is how the agent sees the rest.
	again := r.send(t, su)
	wantHidden(t, "su again", again, true)
	wrong := "wrong-" + randomHex(t, 4)
	fail := r.send(t, wrong)
	wantSettled(t, "the wrong password", fail)
	late := fail
	if !strings.Contains(fail.str("output"), "Authentication failure") {
		late = r.s.call("read_output", map[string]any{"session_id": r.id, "wait_for": "Authentication failure", "timeout_ms": 15000})
		if late.IsError || late.S["matched"] != true {
			t.Errorf("su never said the password was wrong: %q", late.Text)
		}
	}
	screen := r.s.call("read_output", map[string]any{"session_id": r.id, "full_screen": true})
	noSecret(t, r.d.Password, ask, ran, again, fail, late, screen)
	noSecret(t, wrong, ask, ran, again, fail, late, screen)
	r.close(t)
	if log := r.auditLog(t, r.d.Password, wrong); strings.Count(log, `"hidden":true`) < 2 {
		t.Errorf("the audit log does not record both passwords as hidden input:\n%s", log)
	}
}
