package session

import (
	"path/filepath"
	"slices"
)

// An event loop's REPL (node's, deno's, bun's) reads its terminal all the time:
// while it awaits a timer, a child or a request it keeps taking keystrokes and
// holds them until the await ends. The kernel then shows it blocked reading the
// terminal, in the same call as at its prompt, so for a line submitted to it that
// waiting is no evidence: only its prompt (or its exit) says the line has run.
// Seen: node answered `await new Promise(r => setTimeout(() => r(42), 300))`
// with input_wait and no output, 14 ms after Enter.

// busyReader reports whether the reader pid is such a REPL, looking its command
// line up once per reader in this wait.
func (c *candidate) busyReader(pid int, args func(int) []string) bool {
	if c.loopPID != pid {
		c.loopPID, c.loop = pid, eventLoopREPL(args(pid))
	}
	return c.loop
}

// eventLoopREPL reports whether argv starts node, deno or bun in its REPL rather
// than a script that may ask questions of its own (whose waiting is evidence).
func eventLoopREPL(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	rest := argv[1:]
	switch filepath.Base(argv[0]) {
	case "node", "nodejs":
		return nodeREPL(rest)
	case "deno":
		return len(rest) == 0 || rest[0] == "repl"
	case "bun":
		return len(rest) > 0 && rest[0] == "repl"
	}
	return false
}

// node's options that take the next argument as their value, and those that run
// something other than the REPL (unless -i asks for it after).
var (
	nodeValueOptions = []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--title"}
	nodeNotREPL      = []string{"-e", "--eval", "-p", "--print", "-c", "--check", "--test", "-v", "--version", "-h", "--help", "--run"}
)

// nodeREPL reads node's options, which end at its script: what follows a
// script (or "-", stdin's) is the script's own.
func nodeREPL(args []string) bool {
	repl := true
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-i" || a == "--interactive":
			return true
		case a == "--" || a == "-" || a == "" || a[0] != '-':
			return false // a script, whose own prompts are evidence
		case slices.Contains(nodeNotREPL, a):
			repl = false
		case slices.Contains(nodeValueOptions, a):
			i++
		}
	}
	return repl
}
