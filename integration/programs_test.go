package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPython(t *testing.T) {
	need(t, "python3")
	s := startServer(t)
	r := s.call("create_session", map[string]any{"command": "python3", "env": map[string]any{"MCPT_TEST_MARK": s.mark}})
	if r.IsError || !r.boolean("ready") || !strings.HasSuffix(r.str("output"), ">>> ") {
		t.Fatalf("python3 startup: %+v", r)
	}
	id := r.str("session_id")
	out := s.send(id, "1+1", nil)
	complete(t, out, "prompt")
	if out.str("output") != "2\n>>> " {
		t.Fatalf("1+1: %q", out.str("output"))
	}
	def := s.send(id, "def double(x):\n    y = x * 2\n    return y\n", nil)
	complete(t, def, "prompt")
	if def.str("output") != ">>> " {
		t.Fatalf("def block output %q: want only the next prompt", def.str("output"))
	}
	call := s.send(id, "double(21)", nil)
	if call.str("output") != "42\n>>> " {
		t.Fatalf("double(21): %q", call.str("output"))
	}
	errOut := s.send(id, "1/0", nil)
	if !strings.Contains(errOut.str("output"), "ZeroDivisionError") {
		t.Fatalf("traceback missing: %q", errOut.str("output"))
	}
	bye := s.send(id, "exit()", nil)
	complete(t, bye, "exit")
}

func TestPythonInsideBash(t *testing.T) {
	need(t, "python3")
	s := startServer(t)
	id := s.bash(nil)
	r := s.send(id, "python3", nil)
	complete(t, r, "prompt")
	if !strings.HasSuffix(r.str("output"), ">>> ") {
		t.Fatalf("python3 prompt: %q", r.str("output"))
	}
	list := s.call("list_sessions", nil)
	if !strings.Contains(list.Text, "python3") {
		t.Fatalf("foreground program not listed: %s", list.Text)
	}
	if got := s.send(id, "print('in python')", nil).str("output"); got != "in python\n>>> " {
		t.Fatalf("print: %q", got)
	}
	back := s.send(id, "exit()", nil)
	complete(t, back, "shell_mark")
	if back.str("output") != "$ " {
		t.Fatalf("back in bash: %q", back.str("output"))
	}
}

func TestNode(t *testing.T) {
	need(t, "node")
	s := startServer(t)
	id := s.create("node", nil)
	r := s.send(id, "1+2", nil)
	complete(t, r, "prompt")
	if !strings.HasPrefix(r.str("output"), "3\n") {
		t.Fatalf("1+2: %q", r.str("output"))
	}
}

func TestSQLite(t *testing.T) {
	need(t, "sqlite3")
	s := startServer(t)
	id := s.create("sqlite3", nil)
	s.send(id, "create table t(x integer);", nil)
	s.send(id, "insert into t values (1), (2), (39);", nil)
	r := s.send(id, "select sum(x) from t;", nil)
	complete(t, r, "prompt")
	if r.str("output") != "42\nsqlite> " {
		t.Fatalf("sum: %q", r.str("output"))
	}
	cont := s.send(id, "select\n1 + 1;", nil)
	if !strings.HasPrefix(cont.str("output"), "2\n") {
		t.Fatalf("continued statement: %q", cont.str("output"))
	}
}

func TestLess(t *testing.T) {
	need(t, "less")
	s := startServer(t)
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		b.WriteString("line number ")
		b.WriteString(strings.Repeat("=", i%7))
		b.WriteString("\n")
	}
	file := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	id := s.bash(map[string]any{"LESS": ""})
	r := s.send(id, "less "+file, nil)
	if !r.boolean("is_complete") || !strings.HasPrefix(r.str("output"), "line number") {
		t.Fatalf("less screen: %+v", r.S)
	}
	read := s.call("read_output", map[string]any{"session_id": id})
	if !read.boolean("alt_screen") {
		t.Fatalf("less does not hold the alternate screen: %+v", read.S)
	}
	q := s.control(id, "q")
	complete(t, q, "shell_mark")
	if !strings.HasSuffix(q.str("output"), "$ ") {
		t.Fatalf("after q: %q", q.str("output"))
	}
}

func TestVim(t *testing.T) {
	need(t, "vim")
	s := startServer(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "note.txt")
	id := s.bash(nil)
	r := s.send(id, "vim -u NONE -i NONE -N "+file, nil)
	if !r.boolean("is_complete") {
		t.Fatalf("vim start: %+v", r.S)
	}
	s.control(id, "i")
	typed := s.send(id, "hello from vim", map[string]any{"append_newline": false})
	if !strings.Contains(typed.str("output"), "hello from vim") {
		t.Fatalf("vim screen after typing: %q", typed.str("output"))
	}
	done := s.control(id, "escape : w q enter")
	complete(t, done, "shell_mark")
	got, err := os.ReadFile(file)
	if err != nil || string(got) != "hello from vim\n" {
		t.Fatalf("file on disk %q, %v", got, err)
	}
}

// TestVimEscapeWithDebiansDefaults: Debian's defaults.vim waits 100 ms after Escape
// (ttimeoutlen) for the rest of a key code, then leaves insert mode and redraws.
// The reply to Escape shows that redraw, not the screen with the key pending (^[
// in the showcmd area, -- INSERT -- still shown).
func TestVimEscapeWithDebiansDefaults(t *testing.T) {
	t.Parallel()
	need(t, "vim")
	s := startServer(t)
	id := s.bash(nil)
	s.send(id, "vim -u NONE -i NONE -N -c 'set ttimeout ttimeoutlen=100 showcmd showmode' "+filepath.Join(t.TempDir(), "x.txt"), nil)
	s.control(id, "i")
	s.send(id, "hello", map[string]any{"append_newline": false})
	r := s.control(id, "escape")
	if out := r.str("output"); strings.Contains(out, "-- INSERT --") || strings.Contains(out, "^[") {
		t.Fatalf("the reply came before vim took the Escape: %q", out)
	}
	complete(t, s.control(id, ": q ! enter"), "shell_mark")
}
