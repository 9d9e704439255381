package security

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheckProgram(t *testing.T) {
	p := Policy{Allowed: []string{"bash", "psql"}, Blocked: []string{"/usr/bin/nc", "bash"}}
	tests := []struct {
		command string
		want    error
	}{
		{"psql", nil},
		{"/usr/bin/psql", nil},
		{"bash", ErrBlocked}, // blocked wins over allowed
		{"nc", ErrBlocked},
		{"python3", ErrNotAllowed},
		{"", nil},
	}
	for _, tt := range tests {
		if err := p.CheckProgram(tt.command); !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("CheckProgram(%q) = %v, want %v", tt.command, err, tt.want)
		}
	}
	if err := (Policy{}).CheckProgram("anything"); err != nil {
		t.Errorf("zero Policy refused: %v", err)
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
	}
	for _, tt := range tests {
		err := tt.p.CheckInput(Shell, tt.input, "")
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("CheckInput(%q) = %v, want %v", tt.input, err, tt.want)
		}
	}
	if err := p.CheckInput(SQL, "rm x", ""); err != nil {
		t.Errorf("SQL context checked as shell: %v", err)
	}
}

func TestCheckInputPaths(t *testing.T) {
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
	}
	for _, tt := range tests {
		err := p.CheckInput(Shell, tt.input, tt.cwd)
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
