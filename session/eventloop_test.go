package session

import "testing"

func TestEventLoopREPL(t *testing.T) {
	for _, c := range []struct {
		argv []string
		repl bool
	}{
		{[]string{"node"}, true},
		{[]string{"/usr/bin/nodejs"}, true},
		{[]string{"node", "--experimental-repl-await", "-r", "ts-node/register"}, true},
		{[]string{"node", "-i", "-e", "x = 1"}, true},
		{[]string{"node", "app.js"}, false},
		{[]string{"node", "-e", "require('readline')"}, false},
		{[]string{"node", "--require", "dotenv/config", "server.js"}, false},
		{[]string{"node", "-"}, false},
		{[]string{"deno"}, true},
		{[]string{"deno", "repl"}, true},
		{[]string{"deno", "run", "main.ts"}, false},
		{[]string{"bun", "repl"}, true},
		{[]string{"bun", "run", "dev"}, false},
		{[]string{"python3"}, false},
		{nil, false},
	} {
		if got := eventLoopREPL(c.argv); got != c.repl {
			t.Errorf("eventLoopREPL(%q) = %v, want %v", c.argv, got, c.repl)
		}
	}
}
