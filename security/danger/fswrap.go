package danger

import "github.com/mcp-terminal/mcp-terminal/security/internal/shell"

// checkFSCommand is the filesystem effect model's entry for one simple
// command: overwrites, and commands that run another command line.
func checkFSCommand(c shell.Command, depth int) Verdict {
	if v := checkOverwriteCommand(c); v.Dangerous {
		return v
	}
	return Verdict{}
}
