package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGateJudgesTheLineEnterSubmits drives the built binary with a real login-style
// bash (the user's own rc files load) and zsh: a dangerous command line assembled at
// the prompt over two calls, or recalled from history after one confirmation, is refused when Enter is
// pressed, and erased from the prompt.
func TestGateJudgesTheLineEnterSubmits(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	shells := []map[string]any{{"command": "bash"}}
	if _, err := os.Stat("/bin/zsh"); err == nil {
		shells = append(shells, map[string]any{"command": "zsh", "env": map[string]any{"HOME": t.TempDir(), "PS1": "%# "}})
	} else {
		t.Log("zsh is not installed: only bash is tested")
	}
	for _, sh := range shells {
		target := filepath.Join(t.TempDir(), "tree")
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		untouched := func(what string) {
			t.Helper()
			if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o755 {
				t.Fatalf("%s %s: the refused line ran", sh["command"], what)
			}
		}
		command := sh["command"].(string)
		delete(sh, "command")
		id := s.create(command, sh)
		s.send(id, "chmod -R 7", map[string]any{"append_newline": false})
		r := s.call("send_command", map[string]any{"session_id": id, "input": "77 " + target})
		if !r.IsError || !strings.Contains(r.Text, "chmod -R 777 "+target) {
			t.Fatalf("%s: a line split over two calls: %s", command, r.Text)
		}
		untouched("split")
		if out := s.send(id, "echo after", nil).str("output"); !strings.HasPrefix(out, "after\n") {
			t.Fatalf("%s: the refused line was left at the prompt: %q", command, out)
		}
		// Confirmed once, the line is judged again when recalled from history.
		s.call("send_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target})
		s.must("confirm_dangerous_command", map[string]any{"session_id": id, "input": "chmod -R 777 " + target, "justification": "the fixture must be world-writable"}, nil)
		if err := os.Chmod(target, 0o755); err != nil {
			t.Fatal(err)
		}
		s.send(id, "echo step", nil)
		r = s.call("send_control", map[string]any{"session_id": id, "control": "up up enter"})
		if !r.IsError || !strings.Contains(r.Text, "chmod -R 777 "+target) {
			t.Fatalf("%s: a recalled line ran: %s", command, r.Text)
		}
		untouched("recalled")
	}
}

// TestGateRemoteShellHasNoLocalDirectory: a line typed into ssh runs in the far
// shell's directory, which this machine cannot read. The ssh client's own directory
// (here its user's home, where "tar xzf" could overwrite dotfiles and is refused)
// must not be taken for it.
func TestGateRemoteShellHasNoLocalDirectory(t *testing.T) {
	need(t, "bash", "su", "tar")
	d := startSSHD(t)
	s := startServer(t)
	home := t.TempDir()
	var args []any
	for _, a := range d.Args() {
		args = append(args, a)
	}
	id := s.create("ssh", map[string]any{"args": args, "cwd": home, "env": map[string]any{"HOME": home}})
	if r := s.send(id, "echo login-$((40+2))", map[string]any{"wait_for": `login-42\n[^\n]*\$ $`, "timeout_ms": 20000}); r.str("reason") != "pattern" {
		t.Fatalf("no remote prompt after login: %q", r.str("output"))
	}
	if r := s.call("send_command", map[string]any{"session_id": id, "input": "tar xzf none.tgz", "timeout_ms": remoteTimeout}); r.IsError {
		t.Fatalf("judged in the ssh client's directory: %s", r.Text)
	}
}
