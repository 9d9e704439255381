package policy

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcp-terminal/mcp-terminal/security/danger"
)

// fakeBins builds a hermetic PATH: bin/ holds bash, psql, python3.11 with
// python3 -> python3.11, and a multi-call busybox with ls and rm linked to
// it; evil/ holds another bash and nc. PATH is set to bin only.
func fakeBins(t *testing.T) (bin, evil string) {
	t.Helper()
	root := t.TempDir()
	bin, evil = filepath.Join(root, "bin"), filepath.Join(root, "evil")
	for _, d := range []string{bin, evil} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{bin + "/bash", bin + "/psql", bin + "/python3.11", bin + "/busybox", evil + "/bash", evil + "/nc"} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"python3": "python3.11", "ls": "busybox", "rm": "busybox"} {
		if err := os.Symlink(target, filepath.Join(bin, link)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	return bin, evil
}

func TestCheckProgramResolves(t *testing.T) {
	bin, evil := fakeBins(t)
	other := t.TempDir()
	if err := os.Symlink(bin+"/bash", other+"/mybash"); err != nil {
		t.Fatal(err)
	}
	allow := Policy{Allowed: []string{"bash", "psql", "python3"}}
	block := Policy{Blocked: []string{"python3", "nc", evil + "/bash"}}
	blockPath := Policy{Blocked: []string{bin + "/python3"}}
	tests := []struct {
		p            Policy
		command, dir string
		want         error
	}{
		{allow, "bash", "", nil},
		{allow, bin + "/bash", "", nil},
		{allow, other + "/mybash", "", nil},                        // a symlink to the listed file
		{allow, "python3.11 -q", "", nil},                          // python3 resolves to python3.11
		{allow, evil + "/bash", "", ErrNotAllowed},                 // same name, another file
		{allow, "./bash", evil, ErrNotAllowed},                     // relative to the session's directory
		{allow, "./bash", bin, nil},                                //
		{allow, "nc", "", ErrNotAllowed},                           // not on PATH, not listed
		{block, "python3.11", "", ErrBlocked},                      // the file python3 links to
		{block, bin + "/python3.11", "", ErrBlocked},               //
		{block, "/opt/elsewhere/nc", "", ErrBlocked},               // a blocked bare name blocks that name anywhere
		{block, evil + "/bash", "", ErrBlocked},                    // a path entry blocks that file
		{block, "bash", "", nil},                                   // ...and not another file of that name
		{blockPath, "python3.11", "", ErrBlocked},                  // a path entry that is a symlink
		{Policy{Allowed: []string{"ls"}}, "rm", "", ErrNotAllowed}, // another applet of busybox
		{Policy{Allowed: []string{"ls"}}, "ls", "", nil},
		{Policy{Allowed: []string{"bash"}, Blocked: []string{"bash"}}, "bash", "", ErrBlocked}, // blocked wins
		{allow, "", "", nil},
	}
	for _, tt := range tests {
		err := tt.p.CheckProgramIn(tt.command, tt.dir)
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("%+v.CheckProgramIn(%q, %q) = %v, want %v", tt.p, tt.command, tt.dir, err, tt.want)
		}
	}
	if err := (Policy{}).CheckProgram("anything"); err != nil {
		t.Errorf("zero Policy refused: %v", err)
	}
}

func TestCheckInputResolves(t *testing.T) {
	bin, evil := fakeBins(t)
	allow := Policy{Allowed: []string{"bash", "ls"}}
	block := Policy{Blocked: []string{"python3"}}
	tests := []struct {
		p          Policy
		input, cwd string
		want       error
	}{
		{allow, "ls -la", bin, nil},
		{allow, "./bash -c ls", evil, ErrNotAllowed},
		{allow, evil + "/bash", "", ErrNotAllowed},
		{allow, "PATH=" + evil + " bash", "", ErrNotAllowed},
		{allow, "export PATH=" + evil + ":$PATH; bash", "", ErrNotAllowed},
		{allow, "ls | " + evil + "/bash", "", ErrNotAllowed},
		{allow, "echo $(" + evil + "/bash)", "", ErrNotAllowed},
		{allow, `bash -c "` + evil + `/bash"`, "", ErrNotAllowed},
		{allow, "rm -f x", "", ErrNotAllowed},
		{block, "python3.11 -c 1", "", ErrBlocked},
		{block, "env FOO=1 python3.11", "", ErrBlocked},
		{block, "ls | xargs python3.11", "", ErrBlocked},
		{block, "$(echo python3.11) x", "", ErrBlocked},
		{block, "p=python3.11; $p x", "", ErrBlocked},
		{block, "ls && bash -c 'python3.11 x'", "", ErrBlocked},
		{block, "psql", "", nil},
	}
	for _, tt := range tests {
		err := tt.p.CheckInput(danger.Shell, tt.input, tt.cwd)
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("CheckInput(%q) = %v, want %v", tt.input, err, tt.want)
		}
	}
}

func TestCheckInputPrograms(t *testing.T) {
	p := Policy{Blocked: []string{"rm", "nc"}}
	a := Policy{Allowed: []string{"ls", "git", "grep"}}
	tests := []struct {
		p     Policy
		input string
		want  error
	}{
		{p, "ls -la", nil},
		{p, "rm -f x", ErrBlocked},
		{p, "ls && rm x", ErrBlocked},
		{p, "echo $(rm x)", ErrBlocked},
		{p, "sudo rm x", ErrBlocked},
		{p, `r\m x`, ErrBlocked},
		{p, `bash -c "nc -l 80"`, ErrBlocked},
		{p, "$(echo rm) x", ErrBlocked},
		{p, "$CMD x", ErrNotAllowed},
		{p, "for f in *; do rm $f", ErrBlocked}, // does not parse: token fallback
		{a, "ls | grep x", nil},
		{a, "cd src && git status", nil},
		{a, "ls; cat x", ErrNotAllowed},
		{a, "sudo ls", ErrNotAllowed},
		{a, "ls `whoami`", ErrNotAllowed},
		// A file the session holds open, run through its descriptor: nothing the
		// server can resolve (it looked at its own /proc/self).
		{p, "exec 7</usr/bin/nc; /proc/self/fd/7 -l 80", ErrNotAllowed},
		{p, "/dev/fd/7 -l 80", ErrNotAllowed},
		{p, "/proc/1234/exe -l 80", ErrNotAllowed},
		{p, "cat /proc/self/fd/0", nil}, // as an argument: not run
		// Command lines a launcher or find runs are checked as typed ones.
		{p, `find . -maxdepth 0 -exec nc -l 80 \;`, ErrBlocked},
		{p, "script -qc 'nc -l 80' /dev/null", ErrBlocked},
		{p, "git -c alias.x='!nc -l 80' x", ErrBlocked},
		{p, "flock /tmp/l -c 'rm x'", ErrBlocked},
		{p, "find . -name '*.go' -exec grep -l x {} +", nil},
		{p, "docker exec web rm -rf /app/cache", nil}, // the container's rm
		{p, "trap 'nc -l 80' USR1; kill -USR1 $$", ErrBlocked},
		{p, "PROMPT_COMMAND='nc -l 80; PROMPT_COMMAND='", ErrBlocked},
		{p, "export PROMPT_COMMAND='history -a'", nil},
	}
	for _, tt := range tests {
		err := tt.p.CheckInput(danger.Shell, tt.input, "")
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("CheckInput(%q) = %v, want %v", tt.input, err, tt.want)
		}
	}
	if err := p.CheckInput(danger.SQL, "rm x", ""); err != nil {
		t.Errorf("SQL context checked as shell: %v", err)
	}
}

func TestCheckInputPaths(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	work := filepath.Join(root, "work")
	outside := filepath.Join(root, "outside")
	for _, d := range []string{work, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(work, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(work, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(work, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Policy{AllowedPaths: []string{work}}
	tests := []struct {
		input, cwd string
		want       error
	}{
		{"cat notes.txt", work, nil},
		{"cat ./src/main.go", work, nil},
		{"cat " + work + "/x", work, nil},
		{"cat /etc/passwd", work, ErrPathNotAllowed},
		{"cat ../outside/x", work, ErrPathNotAllowed},
		{"cd ..", work, ErrPathNotAllowed},
		{"cat escape/x", work, ErrPathNotAllowed},
		{"echo x > /tmp/out", work, ErrPathNotAllowed},
		{"dd if=x of=/dev/sda", work, ErrPathNotAllowed},
		{"cat ~/.ssh/id_rsa", work, ErrPathNotAllowed},
		{"curl -o x https://example.com/a/b", work, nil},
		{"git clone git@github.com:o/r.git", work, nil},
		{"ls", outside, ErrPathNotAllowed},
		{"cat escape/../x", work, ErrPathNotAllowed},         // .. applies to the link's target
		{"cat link", work, ErrPathNotAllowed},                // a symlink with no "/" in its name
		{"cat *", work, ErrPathNotAllowed},                   // the glob matches escape
		{"cat s*/x", work, nil},                              // matches only sub
		{"cat {/etc/passwd,x}", work, ErrPathNotAllowed},     // brace expansion
		{"X=/etc; cat $X/passwd", work, ErrPathNotAllowed},   // assigned in the same input
		{"X=src; cat $X/main.go", work, nil},                 //
		{"cat $HOME/.ssh/id_rsa", work, ErrPathNotAllowed},   // from the environment
		{"cat $NO_SUCH_VAR_4242/x", work, ErrPathNotAllowed}, // unknown: could be any path
		{"cat $NO_SUCH_VAR_4242", work, ErrPathNotAllowed},   //
		{"echo $NO_SUCH_VAR_4242", work, nil},                // echo opens no file
		{"kill $(pgrep node)", work, nil},                    //
		{"for f in a.txt b.txt; do cat $f; done", work, nil}, // loop values are known
		{"for f in a.txt /etc/passwd; do cat $f; done", work, ErrPathNotAllowed},
		{"cd sub && cat main.go", work, nil},
		{"cd sub && cat ../x", work, ErrPathNotAllowed},     // order is not tracked: ../x is also judged from work
		{"cd .. && cat outside/x", work, ErrPathNotAllowed}, // cd itself leaves
		{"cd - && cat x", work, ErrPathNotAllowed},          // unknown directory
		{"cd ~ && ls", work, ErrPathNotAllowed},             //
		{"cat ../x", filepath.Join(work, "sub"), nil},       // work/x
		{"cd .. && cat ../outside/x", filepath.Join(work, "sub"), ErrPathNotAllowed},
		{"for i in 1 2; do cd ..; done; cat x", filepath.Join(work, "sub"), ErrPathNotAllowed},
		{"tar czf out.tgz -C src .", work, nil},
		{`bash -c "cat /etc/passwd"`, work, ErrPathNotAllowed},
		{"cat $(echo /etc/passwd)", work, ErrPathNotAllowed},
	}
	for _, tt := range tests {
		err := p.CheckInput(danger.Shell, tt.input, tt.cwd)
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("CheckInput(%q, cwd %s) = %v, want %v", tt.input, filepath.Base(tt.cwd), err, tt.want)
		}
	}
	if err := p.CheckDir(work + "/sub"); err != nil {
		t.Errorf("CheckDir(sub) = %v", err)
	}
	if err := p.CheckDir(outside); !errors.Is(err, ErrPathNotAllowed) {
		t.Errorf("CheckDir(outside) = %v, want ErrPathNotAllowed", err)
	}
	if err := (Policy{}).CheckDir("/"); err != nil {
		t.Errorf("zero Policy CheckDir = %v", err)
	}
}

// TestCheckInputPathsAsTheKernel: the text check of the allowed paths takes the
// sandbox's view: the terminal devices, reads of the system trees and /proc, and a
// shared /tmp are not refused; a write redirect into a system tree and paths
// elsewhere are (found by an independent probe: 2>/dev/null, cat /etc/os-release
// and echo "$PATH" were refused, and $PWD was the server's).
func TestCheckInputPathsAsTheKernel(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	home := "/home/nobody-of-this-test"
	p := Policy{AllowedPaths: []string{work}, Readable: []string{"/usr", "/etc", "/proc"}, Writable: []string{"/dev/null", "/tmp"}, Home: home}
	for _, in := range []string{
		"grep -c foo a.txt 2>/dev/null", "ls > /dev/null", "cat a.txt > /dev/stderr", "ls sub 2>/dev/null; echo ok",
		"cat /etc/os-release | head -2", "ls /usr/include", "cat /proc/cpuinfo | grep -c processor", "cd /usr/share && ls",
		`echo "$PATH" | tr : '\n'`, `ls "$PWD"`, "echo hi > /tmp/out", "exec 3>/dev/fd/1",
	} {
		if err := p.CheckInput(danger.Shell, in, work); err != nil {
			t.Errorf("CheckInput(%q) = %v, want allowed", in, err)
		}
	}
	for _, in := range []string{
		"echo x > /etc/passwd", "cat ~/.ssh/id_rsa", "ls /root", "rm -rf /var/log/x", "cp a.txt /home/other/", `cat "$OLDPWD/x"`,
	} {
		if err := p.CheckInput(danger.Shell, in, work); !errors.Is(err, ErrPathNotAllowed) {
			t.Errorf("CheckInput(%q) = %v, want %v", in, err, ErrPathNotAllowed)
		}
	}
}

// TestHomeIsTheSessions: "~" and $HOME in typed input name the session's HOME, not
// the server's.
func TestHomeIsTheSessions(t *testing.T) {
	work, other := t.TempDir(), t.TempDir()
	inside := Policy{AllowedPaths: []string{work}, Home: work}
	outside := Policy{AllowedPaths: []string{work}, Home: other}
	for _, in := range []string{"cat ~/notes", "cat $HOME/notes", "cd ~ && ls", "ls ~"} {
		if err := inside.CheckInput(danger.Shell, in, work); err != nil {
			t.Errorf("%q with HOME inside the allowed path: %v", in, err)
		}
		if err := outside.CheckInput(danger.Shell, in, work); !errors.Is(err, ErrPathNotAllowed) {
			t.Errorf("%q with HOME outside the allowed path = %v, want ErrPathNotAllowed", in, err)
		}
	}
	if err := outside.CheckDir("~"); !errors.Is(err, ErrPathNotAllowed) {
		t.Errorf("CheckDir(~) with HOME outside = %v", err)
	}
}
