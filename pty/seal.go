package pty

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// SealInherited marks every descriptor of this process above stderr close-on-exec,
// so that none reaches a session's program. Go opens its own files that way, but a
// descriptor the process inherited from its parent (an MCP client, a CI runner, a
// shell that leaked a pipe) is passed on to every program started: the program
// then holds, for as long as it runs, an end of something that is not its own,
// and a leaked socket makes it look like a proxy to input-wait detection.
//
// It changes the whole process, so it is the program's decision, not Start's: call
// it once at startup, before the first Start, as cmd/mcp-terminal does. A test
// binary that starts sessions calls it in TestMain: go test passes on to the test
// binary whatever its own parent leaked to it. A test that makes a descriptor of
// its own makes it close-on-exec (syscall.Dup3 with O_CLOEXEC, not Dup2).
func SealInherited() error {
	dir := "/proc/self/fd"
	if runtime.GOOS != "linux" {
		dir = "/dev/fd"
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("seal inherited descriptors: %w", err)
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
	return nil
}
