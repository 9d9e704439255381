package pty

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLauncherAndBaseEnv starts a program through a launcher (bash exec'ing its
// arguments, as the sandbox launcher does after restricting itself) with a base
// environment that replaces the server's.
func TestLauncherAndBaseEnv(t *testing.T) {
	t.Setenv("PTY_TEST_SERVER_SECRET", "leaked")
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	// $0 is the program's resolved path, $1 its argv[0], the rest its arguments.
	launcher := []string{bash, "-c", `export LAUNCHED=yes; p=$0 n=$1; shift; exec -a "$n" "$p" "$@"`}
	p, out := start(t, Options{
		Command:  mustExecutable(t),
		Args:     []string{"env", "LAUNCHED", "PTY_TEST_SERVER_SECRET", "FOO", "TERM"},
		BaseEnv:  []string{"PATH=/usr/bin:/bin"},
		Launcher: launcher,
		Env:      map[string]string{"PTY_TEST_HELPER": "1", "GORACE": "atexit_sleep_ms=0", "FOO": "bar"},
	})
	out.waitEOF(t)
	waitDone(t, p)
	got := strings.ReplaceAll(out.String(), "\r\n", "\n")
	for _, want := range []string{"LAUNCHED=yes\n", "PTY_TEST_SERVER_SECRET unset\n", "FOO=bar\n", "TERM=xterm-256color\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
