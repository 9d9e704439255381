package session

import (
	"fmt"
	"os"
	"testing"

	"github.com/mcp-terminal/mcp-terminal/pty"
)

// TestMain seals the descriptors this test binary inherited, as the server does at
// startup (pty.SealInherited): go test passes on whatever its own parent leaked to
// it, and the sessions under test must hold nothing but their terminal, or a leaked
// socket would make a program waiting for input look like a proxy.
//
// Tests that start sessions are not parallel: Manager.Shutdown ends every child of
// this process a session left behind (pty.KillOrphans), so one
// test's cleanup would kill another's programs. The leak and failing-terminal tests
// count or scan what the whole process holds as well.
func TestMain(m *testing.M) {
	if err := pty.SealInherited(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
