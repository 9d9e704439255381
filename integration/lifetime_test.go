package integration

import (
	"os"
	"strings"
	"testing"
	"time"
)

// sleeping lists the pids of running (not zombie) processes whose command line is
// exactly `sleep arg`.
func sleeping(arg string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || string(b) != "sleep\x00"+arg+"\x00" {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil && !strings.Contains(string(st), ") Z ") {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// waitGone polls until no `sleep arg` runs, failing after a deadline.
func waitGone(t *testing.T, arg, when string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(sleeping(arg)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s: sleep %s still running: %v", when, arg, sleeping(arg))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A daemon started in a session (double fork, setsid, the session's marker variable
// unset, its output away from the terminal) ends with close_session; one whose
// session cannot be told (two sessions open, nothing tying it to either) ends with
// the server.
func TestEscapedDaemonsEndWithSessionAndServer(t *testing.T) {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("needs Linux /proc")
	}
	const daemon = `(setsid env -u MCP_TERMINAL_SESSION sleep %s </dev/null >/dev/null 2>&1 &); echo started`
	s := startServer(t)
	id := s.bash(nil)
	alone := "3141.1"
	s.send(id, strings.Replace(daemon, "%s", alone, 1), nil)
	waitRunning(t, alone)
	s.call("close_session", map[string]any{"session_id": id})
	waitGone(t, alone, "after close_session")

	a, b := s.bash(nil), s.bash(nil)
	shared := "3141.2"
	s.send(a, strings.Replace(daemon, "%s", shared, 1), nil)
	waitRunning(t, shared)
	s.call("close_session", map[string]any{"session_id": b})
	s.close() // stdin EOF: the server ends every session and what they left
	waitGone(t, shared, "after the server stopped")
}

func waitRunning(t *testing.T, arg string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(sleeping(arg)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("sleep %s never started", arg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
