package integration

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestInheritedDescriptorsStayWithTheServer: a descriptor the client leaks to the
// server (here a pipe as fd 3) does not reach the sessions' programs, which hold
// their terminal and nothing else.
func TestInheritedDescriptorsStayWithTheServer(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	leak := transport.WithCommandFunc(func(ctx context.Context, command string, env, args []string) (*exec.Cmd, error) {
		cmd := exec.Command(command, args...)
		cmd.Env = append(os.Environ(), env...)
		cmd.ExtraFiles = []*os.File{w}
		return cmd, nil
	})
	c, err := client.NewStdioMCPClientWithOptions(binPath, nil, nil, leak)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "integration-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "create_session"
	req.Params.Arguments = map[string]any{"command": "sh", "args": []any{"-c", `ls -l /proc/$$/fd; echo listed`}}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	out := decode(t, res).str("output")
	if !strings.Contains(out, "listed") || !strings.Contains(out, "/dev/pts/") {
		t.Fatalf("the program's descriptors were not listed: %q", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if _, target, ok := strings.Cut(line, " -> "); ok && !strings.HasPrefix(strings.Trim(target, "' "), "/dev/pts/") {
			t.Errorf("a session's program holds %s, not its terminal:\n%s", target, out)
		}
	}
}
