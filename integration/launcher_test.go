package integration

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// emptyPlan is the launcher's encoding of a plan that restricts nothing
// (sandbox/internal/launcher.Plan{}.Encode()), written out because this package
// only execs the binary.
const emptyPlan = "L1 0 0 0 0 0 0 0: 0"

// TestLauncherSkipsTheServersInit: the launcher runs from its package's init,
// before the server's heavy packages initialise (the danger rules compile
// regular expressions), and execs the program before any of them does. Go's
// init trace (GODEBUG=inittrace=1) lists each package as its init finishes.
func TestLauncherSkipsTheServersInit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the launcher re-executes through /proc/self/exe on Linux")
	}
	t.Parallel()
	cmd := exec.CommandContext(t.Context(), binPath, "sandbox-exec", emptyPlan, "/bin/sh", "sh", "-c", "echo launched")
	cmd.Env = []string{"GODEBUG=inittrace=1", "PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "launched") {
		t.Fatalf("launcher: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "init runtime") {
		t.Fatalf("no init trace:\n%s", out)
	}
	for _, pkg := range []string{"security/danger", "security/policy", "session", "tools", "web", "screen", "sandbox "} {
		if strings.Contains(string(out), "mcp-terminal/"+pkg) {
			t.Errorf("%s initialised in the launcher:\n%s", pkg, out)
		}
	}
}
