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
func TestMain(m *testing.M) {
	if err := pty.SealInherited(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
