package integration

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

func TestSIGINTEndsEverySession(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	s.send(id, "sleep 1000 &", nil)
	s.send(id, "(setsid sleep 1001 &)", nil) // leaves the session: the server still ends it
	waitForProcesses(t, s, 3)
	if err := s.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "every process to be gone", func() bool { return len(markedProcesses(s.mark)) == 0 })
	s.close()
	if st := s.cmd.ProcessState; st == nil || st.ExitCode() != 0 {
		t.Fatalf("server did not exit cleanly on SIGINT: %v", st)
	}
}

func TestProgramThatExitsAtOnce(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	r := s.call("create_session", map[string]any{"command": "sh", "args": []any{"-c", "echo bye; exit 4"}})
	if r.IsError || r.boolean("is_alive") || r.str("reason") != "exit" || !strings.Contains(r.str("output"), "bye") {
		t.Fatalf("create: %+v", r.S)
	}
	if code, _ := r.num("exit_code"); code != 4 {
		t.Fatalf("exit_code %v", r.S["exit_code"])
	}
	id := r.str("session_id")
	if again := s.call("send_command", map[string]any{"session_id": id, "input": "x"}); !again.IsError {
		t.Fatal("typing into an exited program was accepted")
	}
	if read := s.call("read_output", map[string]any{"session_id": id}); read.IsError || !strings.Contains(read.str("output"), "bye") {
		t.Fatalf("last screen: %+v", read.S)
	}
}

func TestProgramThatClosesItsTerminal(t *testing.T) {
	s := startServer(t)
	id := s.create("sh", map[string]any{"args": []any{"-c", "echo closing; exec </dev/null >/dev/null 2>&1; sleep 1000"}})
	r := s.call("send_command", map[string]any{"session_id": id, "input": "anyone there?", "timeout_ms": 300})
	if r.IsError && !strings.Contains(r.Text, "not reading") {
		t.Fatalf("send: %s", r.Text)
	}
	if !r.IsError && r.boolean("is_complete") {
		t.Fatalf("a program that reads nothing looked ready: %+v", r.S)
	}
	closed := s.call("close_session", map[string]any{"session_id": id})
	if closed.IsError {
		t.Fatal(closed.Text)
	}
	eventually(t, 5*time.Second, "the program to be gone", func() bool { return len(markedProcesses(s.mark)) == 0 })
}

func TestProgramIgnoringHangupAndTerminate(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.create("sh", map[string]any{"args": []any{"-c", "trap '' HUP TERM INT; echo stubborn; while :; do sleep 1; done"}})
	start := time.Now()
	r := s.call("close_session", map[string]any{"session_id": id})
	if r.IsError || !r.boolean("success") || r.str("signal") != "SIGKILL" {
		t.Fatalf("close: %+v", r.S)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("close took %s", took)
	}
	eventually(t, 5*time.Second, "the program to be gone", func() bool { return len(markedProcesses(s.mark)) == 0 })
}

func TestFloodDoesNotStallOtherSessions(t *testing.T) {
	s := startServer(t)
	flood := s.bash(nil)
	quiet := s.bash(nil)
	r := s.send(flood, "yes 'all work and no play makes jack a dull boy'", map[string]any{"timeout_ms": 500})
	if r.boolean("is_complete") || !r.boolean("is_alive") {
		t.Fatalf("yes: %+v", r.S)
	}
	if !strings.Contains(r.str("output"), "dull boy") || !r.boolean("truncated") {
		t.Fatalf("flood output not kept within bounds: %d chars, truncated %v", len(r.str("output")), r.boolean("truncated"))
	}
	for i := 0; i < 5; i++ {
		q := s.send(quiet, "echo still responsive", nil)
		complete(t, q, "shell_mark")
	}
	rss := serverRSS(t, s)
	stop := s.control(flood, "ctrl+c")
	complete(t, stop, "shell_mark")
	if rss > 300<<20 {
		t.Fatalf("server RSS %d MiB while flooding", rss>>20)
	}
	t.Logf("server RSS while flooding: %d MiB", rss>>20)
}

func serverRSS(t testing.TB, s *server) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/status")
	if err != nil {
		t.Skip("no /proc")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return kb << 10
		}
	}
	return 0
}

func TestBadInputNeverBreaksTheProtocol(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.bash(nil)
	huge := strings.Repeat("x", 1<<20)
	bad := []struct {
		tool string
		args map[string]any
	}{
		{"send_command", map[string]any{"session_id": id, "input": "a\x00b"}},
		{"send_command", map[string]any{"session_id": id, "input": huge}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "timeout_ms": -1}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "timeout_ms": 1e308}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "max_output_chars": -7}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "append_newline": "yes"}},
		{"send_command", map[string]any{"session_id": 12345, "input": "ls"}},
		{"send_command", map[string]any{"input": "ls"}},
		{"read_output", map[string]any{"session_id": id, "timeout_ms": 0.5}},
		{"read_output", map[string]any{"session_id": id, "max_output_chars": 1e9}},
		{"create_session", map[string]any{"command": "bash", "cols": -3}},
		{"create_session", map[string]any{"command": "bash", "rows": 1e12}},
		{"create_session", map[string]any{"command": "bash", "env": map[string]any{"A": 1}}},
		{"create_session", map[string]any{"command": "bash", "args": "not-a-list"}},
		{"create_session", map[string]any{"command": ""}},
		{"send_control", map[string]any{"session_id": id, "control": ""}},
		{"send_control", map[string]any{"session_id": id, "control": huge}},
		{"close_session", map[string]any{"session_id": id, "signal": "SIGNOPE"}},
		{"confirm_dangerous_command", map[string]any{"session_id": id, "input": "rm -rf /", "justification": 42}},
	}
	for _, b := range bad {
		if r := s.call(b.tool, b.args); !r.IsError || r.Text == "" {
			t.Errorf("%s %v: want a clear tool error, got %+v", b.tool, short(b.args), r)
		}
	}
	// Output that is not text comes back as valid UTF-8 without escape bytes.
	r := s.send(id, "head -c 100000 /dev/urandom; echo", map[string]any{"timeout_ms": 10000})
	complete(t, r, "shell_mark")
	if !utf8.ValidString(r.str("output")) {
		t.Fatal("binary output produced invalid UTF-8")
	}
	// And the session is fine.
	complete(t, s.send(id, "echo ok", nil), "shell_mark")
}

func short(args map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		if s, ok := v.(string); ok && len(s) > 20 {
			v = s[:20] + "…"
		}
		out[k] = v
	}
	return out
}
