package session

import (
	"path/filepath"
	"slices"
	"strings"
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

// nodeEditorBanner is what node's REPL prints for .editor: from then on it takes
// lines with no prompt until ctrl+d runs them (or ctrl+c drops them) and its
// prompt is back.
const nodeEditorBanner = "// Entering editor mode ("

// replEditor reports whether the event loop's REPL is in its editor mode, where
// its waiting is the evidence again: no prompt follows a line. Every line there
// (.editor itself included) waited out its whole timeout. The banner is looked
// for in this input's output while that is short; seen once, the mode lasts until
// a reply ends at a prompt.
func (s *Session) replEditor(ws waitSpec, written uint64) bool {
	if s.editorMode.Load() {
		return true
	}
	if written-ws.from.written > 4096 {
		return false
	}
	if text, _ := s.scr.TextSince(ws.from.pos); strings.Contains(text, nodeEditorBanner) {
		s.editorMode.Store(true)
		return true
	}
	return false
}
