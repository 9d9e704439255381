package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcp-terminal/mcp-terminal/sandbox/internal/launcher"
)

// TestPlanForABI: the launcher's masks never hold a right the ABI does not know
// (the kernel would refuse the ruleset), keep what it knows, and without Landlock
// stay whole so that the launcher refuses rather than run unconfined unasked.
func TestPlanForABI(t *testing.T) {
	rs := &Ruleset{Handled: Read | List | Exec | Write | Ioctl, NoTCP: true, TerminalRule: true, Isolated: true,
		Rules: []Rule{{Path: "/w", Access: Read | List | Write}, {Path: "/dev/null", Access: Read | Write | Ioctl, File: true}, {Path: "/x", Access: Ioctl}}}
	for abi := 1; abi <= MaxABI; abi++ {
		p := plan(rs, abi)
		fs, net, scoped := launcher.Known(abi)
		if p.ABI != abi || p.FS != fs || p.Net != net&3 || p.Scoped != scoped {
			t.Errorf("ABI %d: plan masks %#x %#x %#x, known %#x %#x %#x", abi, p.FS, p.Net, p.Scoped, fs, net, scoped)
		}
		for _, r := range append(p.Rules, launcher.Rule{Path: "terminal", Access: p.Terminal}) {
			if r.Access&^p.FS != 0 || r.Access == 0 {
				t.Errorf("ABI %d: %s gets %#x, handled %#x", abi, r.Path, r.Access, p.FS)
			}
		}
		if r := p.Rules[1]; r.Access&^launcher.FSFileRights != 0 {
			t.Errorf("ABI %d: the file %s gets directory rights %#x", abi, r.Path, r.Access)
		}
		if abi < 5 && len(p.Rules) != 2 {
			t.Errorf("ABI %d: a rule of ioctl only, which it does not know, is kept: %+v", abi, p.Rules)
		}
	}
	if p := plan(rs, 0); p.FS == 0 || p.Net == 0 || p.Scoped == 0 || !p.Restricts() {
		t.Errorf("no Landlock: plan %+v restricts nothing, so the launcher would not refuse", p)
	}
	if p := plan(&Ruleset{}, 7); p.Restricts() || p.Seclude {
		t.Errorf("an empty ruleset plans %+v", p)
	}
	if p := plan(&Ruleset{Isolated: true, HideProcs: true}, 7); !p.Seclude || !p.HideProcs || p.Scoped != 3 {
		t.Errorf("isolation plans %+v", p)
	}
}

// TestRemoveEndedTmp: the private TMPDIR of a session whose program has ended
// goes; a running session's, and anything the launcher did not name, stays.
func TestRemoveEndedTmp(t *testing.T) {
	parent := t.TempDir()
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	running := fmt.Sprintf("session-%d-abc", os.Getpid())
	gone := fmt.Sprintf("session-%d-def", ended.Process.Pid)
	for _, d := range []string{running, gone, "session-x-1", "other-1"} {
		if err := os.MkdirAll(filepath.Join(parent, d, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	RemoveEndedTmp(parent)
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if want := []string{"other-1", running, "session-x-1"}; !slices.Equal(left, want) {
		t.Errorf("left %q, want %q", left, want)
	}
}
