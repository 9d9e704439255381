package integration

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The sandbox tests run the server with allowed paths, allowed programs and the
// network off, and try every escape the text checks alone let through. Each must
// fail: refused by the text checks (the friendly first layer) or denied by the
// kernel (EACCES and friends). The programs that the escapes would reach (id, sh,
// a copy or link of id) are not allowed; the programs that do the reaching (git,
// find, awk, perl, xargs, python3) are, so the kernel is what stops them.

// sandboxed is the allow-list the escape tests use.
var sandboxed = []string{"bash", "ls", "cat", "cp", "ln", "chmod", "printf", "git", "find", "awk", "perl", "xargs",
	"python3", "gcc", "cc", "vim", "less", "top", "gdb", "sqlite3"}

type sandboxServer struct {
	*server
	work, outside string
}

func needLandlock(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("Landlock is Linux's")
	}
	out, _ := exec.Command(binPath, "doctor", "--network=off").CombinedOutput()
	if strings.Contains(string(out), "cannot be enforced") {
		t.Skipf("no Landlock ABI 4 on this kernel:\n%s", out)
	}
}

// startSandboxed starts a server confining sessions to a fresh work directory,
// the sandboxed programs (those installed) and no TCP; /tmp is not shared, so
// outside, a sibling temporary directory, is out of reach.
func startSandboxed(t *testing.T, extra ...string) *sandboxServer {
	t.Helper()
	needLandlock(t)
	need(t, "bash", "python3")
	work, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("TOPSECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var allowed []string
	for _, p := range sandboxed {
		if _, err := exec.LookPath(p); err == nil {
			allowed = append(allowed, p)
		}
	}
	env := append([]string{
		"PATH=/usr/bin:/bin", // the system python3, not a version manager's shim
		"MCP_TERMINAL_ALLOWED_PATHS=" + work,
		"MCP_TERMINAL_ALLOWED_COMMANDS=" + strings.Join(allowed, ","),
		"MCP_TERMINAL_NETWORK=off",
		"MCP_TERMINAL_SHARED_TMP=false",
		"MCPT_SERVER_SECRET=hunter2",
	}, extra...)
	return &sandboxServer{server: startServer(t, env...), work: work, outside: outside}
}

// shell starts bash in the work directory with HOME there too.
func (s *sandboxServer) shell() string {
	s.t.Helper()
	// The prompt is bash's default: the text checks read PS1 as code.
	return s.create("bash", map[string]any{"args": []any{"--norc", "--noprofile"}, "env": map[string]any{"HOME": s.work, "HISTFILE": "/dev/null"}})
}

// blocked types input and requires that it fail: a refusal, or output with a
// permission error (or one of failed, for programs that report failure in their
// own words) and without marker (what the escape would print).
func (s *sandboxServer) blocked(t *testing.T, id, input, marker string, failed ...string) {
	t.Helper()
	r := s.call("send_command", map[string]any{"session_id": id, "input": input, "timeout_ms": 20000})
	if r.IsError {
		if !strings.Contains(r.Text, "refused") && !strings.Contains(r.Text, "not allowed") && !strings.Contains(r.Text, "outside") {
			t.Fatalf("%q: tool error that is not a refusal: %s", input, r.Text)
		}
		t.Logf("%q: refused by the text checks", input)
		return
	}
	out := r.str("output")
	if strings.Contains(out, marker) {
		t.Fatalf("%q ESCAPED the sandbox:\n%s", input, out)
	}
	for _, denial := range append([]string{"ermission denied", "PermissionError", "Operation not permitted", "cross-device link", "EACCES"}, failed...) {
		if strings.Contains(out, denial) {
			t.Logf("%q: denied by the kernel (%s)", input, denial)
			return
		}
	}
	t.Fatalf("%q: neither refused nor denied:\n%s", input, out)
}

// TestSandboxProgramEscapes: an allowed program cannot run one that is not, by any
// route the red team found.
func TestSandboxProgramEscapes(t *testing.T) {
	s := startSandboxed(t)
	id := s.shell()
	const uid = "uid=" // what id prints
	for _, in := range []string{
		"id",
		"/usr/bin/id",
		// a copy, a hard link, a script on a changed PATH
		"cp /usr/bin/id ./myid && ./myid",
		"cat /usr/bin/id > ./myid2; chmod +x ./myid2; ./myid2",
		"ln /usr/bin/id ./idlink && ./idlink",
		"ln -s /usr/bin/id ./idsym; ./idsym",
		`printf '#!/usr/bin/id\n' > ls; chmod +x ls; PATH=$PWD:$PATH ls`,
		// interpreters and tools that execute
		`git -c alias.x='!id' x`,
		`find /etc/hostname -exec id \;`,
		`python3 -c "import shutil; shutil.copy('/usr/bin/id', 'pycopy')"`,
		`python3 -c "import os; os.link('/usr/bin/id', 'pylink')"`,
		`perl -e 'exec "/usr/bin/id" or die "exec: $!\n"'`,
		`echo /etc | xargs id`,
		`python3 -c "import os; os.execv('/usr/bin/id', ['id'])"`,
		// the loader route: the loader may execute, but cannot read id
		`python3 -c "import os; os.execv('/lib64/ld-linux-x86-64.so.2', ['ld', '/usr/bin/id'])"`,
		`python3 -c "import subprocess; subprocess.run(['sh', '-c', 'id'])"`,
	} {
		s.blocked(t, id, in, uid)
	}
	// awk's system() reports only the shell's exit status: 126 or 127, sh could not run.
	s.blocked(t, id, `awk 'BEGIN { print "system=" system("id") }'`, uid, "system=126", "system=127")
	// bash -c in the session's own arguments: the kernel stops what the text check lets through.
	r := s.call("create_session", map[string]any{"command": "bash", "args": []any{"-c", "id; sleep 1"}, "env": map[string]any{"MCPT_TEST_MARK": s.mark}})
	if !r.IsError && strings.Contains(r.str("output"), uid) {
		t.Fatalf("bash -c id in session args ran id:\n%s", r.Text)
	}
	// A session environment naming another program's directory first.
	r = s.call("create_session", map[string]any{"command": "bash", "env": map[string]any{"PATH": s.work, "MCPT_TEST_MARK": s.mark}})
	if !r.IsError {
		t.Fatalf("env PATH with an allow-list was accepted:\n%s", r.Text)
	}
}

// TestSandboxPathEscapes: no program leaves the allowed paths, however it names a file.
func TestSandboxPathEscapes(t *testing.T) {
	s := startSandboxed(t)
	id := s.shell()
	secret := filepath.Join(s.outside, "secret")
	const leak = "TOPSECRET"
	var octal strings.Builder // the path spelled so no text check can read it
	for _, c := range []byte(secret) {
		fmt.Fprintf(&octal, `\%03o`, c)
	}
	for _, in := range []string{
		"cat " + secret,
		`python3 -c "print(open('` + secret + `').read())"`,
		`printf '` + octal.String() + `' | xargs cat`,
		`perl -e 'open(F, "<", $ARGV[0]) or die "open: $!\n"; print <F>' ` + secret,
		"echo x > " + filepath.Join(s.outside, "new"),
		`python3 -c "open('/etc/mcpt-sandbox', 'w')"`,
		"cp " + secret + " ./stolen; cat ./stolen",
	} {
		s.blocked(t, id, in, leak)
	}
	// awk's getline says -1 for a file it cannot open.
	s.blocked(t, id, `awk 'BEGIN { r = (getline l < "`+secret+`"); print "getline=" r; print l }'`, leak, "getline=-1")
	if _, err := os.Stat(filepath.Join(s.outside, "new")); err == nil {
		t.Fatal("a file was created outside the allowed paths")
	}
	// A Python session is never path-checked as text: the kernel holds.
	py := s.create("python3", map[string]any{"env": map[string]any{"HOME": s.work}})
	s.blocked(t, py, "print(open('"+secret+"').read())", leak)
	s.blocked(t, py, "open('"+filepath.Join(s.outside, "new")+"', 'w').write('x'); print('wr' + 'ote')", "wrote")
	if _, err := exec.LookPath("sqlite3"); err == nil {
		db := s.create("sqlite3", map[string]any{"env": map[string]any{"HOME": s.work}})
		r := s.call("send_command", map[string]any{"session_id": db, "input": "SELECT readfile('" + secret + "');"})
		if strings.Contains(r.str("output"), leak) {
			t.Fatalf("sqlite3 readfile escaped:\n%s", r.Text)
		}
	}
	// The session's environment is a small set, not the server's.
	out := s.send(id, "echo [${MCPT_SERVER_SECRET:-unset}]", nil).str("output")
	if !strings.Contains(out, "[unset]") {
		t.Fatalf("the server's environment reached the session:\n%s", out)
	}
}

// TestSandboxOrdinaryWork: inside the allowed tree, builds, git, editors, pagers,
// top, gdb and Python scripts work as usual.
func TestSandboxOrdinaryWork(t *testing.T) {
	s := startSandboxed(t)
	id := s.shell()
	r := s.createResult("bash", map[string]any{"args": []any{"--norc"}, "env": map[string]any{"HOME": s.work}})
	if st := r.str("sandbox"); !strings.Contains(st, "TCP connect and bind denied") || strings.Contains(st, "NOT enforced") {
		t.Errorf("create_session does not say what the kernel enforces: %q", st)
	}
	ok := func(input, want string) {
		t.Helper()
		out := s.send(id, input, map[string]any{"timeout_ms": 60000}).str("output")
		if !strings.Contains(out, want) {
			t.Fatalf("%q: want %q in:\n%s", input, want, out)
		}
	}
	ok("echo hello > notes.txt && cat notes.txt && echo TMPDIR=$TMPDIR", "TMPDIR="+s.work)
	ok(`python3 -c "print(6*7)" && printf 'import sys\nprint(sum(range(10)))\n' > sum.py && python3 sum.py`, "45")
	ok("git init -q repo && echo a > repo/a && git -C repo add a && git -C repo -c user.name=t -c user.email=t@e commit -qm first && git -C repo log --oneline | cat", "first")
	if _, err := exec.LookPath("gcc"); err == nil {
		ok(`printf '#include <stdio.h>\nint main(void){puts("built");return 0;}\n' > hello.c && gcc -o hello hello.c && ls -l hello && echo BUILD-OK`, "BUILD-OK")
	}
	if _, err := exec.LookPath("vim"); err == nil {
		s.send(id, "vim -u NONE -N edited.txt", map[string]any{"timeout_ms": 3000})
		s.control(id, "i")
		s.send(id, "typed in vim", map[string]any{"append_newline": false, "timeout_ms": 500})
		s.control(id, "escape : w q enter")
		ok("cat edited.txt", "typed in vim")
	}
	if _, err := exec.LookPath("less"); err == nil {
		out := s.send(id, "less notes.txt", map[string]any{"timeout_ms": 3000})
		if !strings.Contains(out.Text, "hello") {
			t.Fatalf("less: %s", out.Text)
		}
		s.control(id, "q")
	}
	if _, err := exec.LookPath("top"); err == nil {
		out := s.send(id, "top", map[string]any{"wait_for": "load average", "timeout_ms": 10000})
		if !strings.Contains(out.Text, "load average") {
			t.Fatalf("top: %s", out.Text)
		}
		s.control(id, "q")
	}
	if _, err := exec.LookPath("gdb"); err == nil {
		ok("gdb -q -nx -batch -ex 'print 1+2'", "$1 = 3")
	}
}

// TestSandboxNetwork: with the network off TCP connect and bind are denied; UDP and
// pathname unix sockets are not (Landlock ABI 7 does not restrict them), which the
// README says. An allowed interpreter still runs whatever code it is given.
func TestSandboxNetwork(t *testing.T) {
	s := startSandboxed(t)
	tcp, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	go func() {
		for {
			c, err := tcp.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	sock := filepath.Join(s.outside, "s.sock")
	unix, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close()
	go func() {
		for {
			c, err := unix.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("unix-reached\n"))
			c.Close()
		}
	}()
	py := s.create("python3", map[string]any{"env": map[string]any{"HOME": s.work}})
	s.blocked(t, py, fmt.Sprintf("import socket; socket.create_connection(('127.0.0.1', %d)); print('tcp-' + 'connected')", tcp.Addr().(*net.TCPAddr).Port), "tcp-connected")
	s.blocked(t, py, "socket.socket().bind(('127.0.0.1', 0)); print('tcp-' + 'bound')", "tcp-bound")
	// Routes around Landlock's connect and bind checks, which the seccomp filter
	// closes (probe 10): a TCP Fast Open sendto connects without connect; listen on
	// an unbound socket takes a port on every interface without bind; Multipath TCP
	// and raw sockets are not TCP to Landlock.
	s.blocked(t, py, fmt.Sprintf("f = socket.socket(); f.sendto(b'x', socket.MSG_FASTOPEN, ('127.0.0.1', %d)); print('tcp-' + 'fastopen')", tcp.Addr().(*net.TCPAddr).Port), "tcp-fastopen")
	s.blocked(t, py, "l = socket.socket(); l.listen(1); print('tcp-' + 'listening', l.getsockname())", "tcp-listening")
	s.blocked(t, py, "m = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262); print('mptcp-' + 'socket')", "mptcp-socket")
	s.blocked(t, py, "r = socket.socket(socket.AF_INET6, socket.SOCK_STREAM | socket.SOCK_NONBLOCK); print('tcp6-' + 'socket')", "tcp6-socket")
	stays := func(input, want string) {
		t.Helper()
		out := s.send(py, input, nil).str("output")
		if !strings.Contains(out, want) {
			t.Fatalf("%q: want %q:\n%s", input, want, out)
		}
	}
	stays(fmt.Sprintf("socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'udp-reached', ('127.0.0.1', %d))", udp.LocalAddr().(*net.UDPAddr).Port), "11")
	buf := make([]byte, 64)
	udp.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, _, err := udp.ReadFrom(buf); err != nil || string(buf[:n]) != "udp-reached" {
		t.Fatalf("UDP datagram from the sandbox: %q %v", buf[:n], err)
	}
	stays("u = socket.socket(socket.AF_UNIX); u.connect('"+sock+"'); print(u.recv(64))", "unix-reached")
	// Allowed interpreters run any code they are given, within the policy.
	stays("import hashlib; print(hashlib.sha256(b'x').hexdigest()[:8])", "2d711642")
}
