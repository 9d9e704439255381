//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func needLandlock(t *testing.T, abi int) {
	t.Helper()
	if k := KernelABI(); k < abi {
		t.Skipf("kernel Landlock ABI %d < %d", k, abi)
	}
}

// launch runs argv under rs through the test binary acting as the launcher and
// returns its combined output and error.
func launch(t *testing.T, rs *Ruleset, argv ...string) (string, error) {
	t.Helper()
	cmd, _ := launcherCmd(t, rs, argv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// launcherCmd is the command that runs argv under rs through the test binary
// acting as the launcher, and the program's resolved path.
func launcherCmd(t *testing.T, rs *Ruleset, argv ...string) (*exec.Cmd, string) {
	t.Helper()
	path, err := exec.LookPath(argv[0])
	if err != nil {
		t.Skipf("%s not installed", argv[0])
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	prefix, err := Launcher(self, rs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), self, append(append(prefix[2:], path), argv...)...)
	cmd.Env = append(os.Environ(), "SANDBOX_TEST_LAUNCHER=1")
	cmd.WaitDelay = 10 * time.Second
	return cmd, path
}

func build(t *testing.T, s Settings) *Ruleset {
	t.Helper()
	if s.PATH == "" {
		s.PATH = "/usr/bin:/bin"
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return &b.Ruleset
}

func TestPathsConfineReadsAndWrites(t *testing.T) {
	needLandlock(t, 3)
	// /tmp is shared read-write by default; with a private TMPDIR it is outside.
	work, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := build(t, Settings{Paths: []string{work}, PrivateTmp: true})
	for _, tc := range []struct {
		name   string
		script string
		ok     bool
	}{
		{"write inside", fmt.Sprintf("echo hi > %s/f && cat %s/f", work, work), true},
		{"read system", "head -c1 /etc/passwd >/dev/null", true},
		{"read outside", fmt.Sprintf("cat %s/secret", outside), false},
		{"write outside", fmt.Sprintf("echo x > %s/new", outside), false},
		{"truncate outside", fmt.Sprintf("truncate -s0 %s/secret", outside), false},
		{"write /etc", "echo x >> /etc/hostname", false},
		{"private TMPDIR", fmt.Sprintf("case $TMPDIR in %s/*) echo x > $TMPDIR/f ;; *) exit 1 ;; esac", work), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := launch(t, rs, "sh", "-c", tc.script)
			if (err == nil) != tc.ok {
				t.Fatalf("want ok=%v, got err=%v, output:\n%s", tc.ok, err, out)
			}
			if !tc.ok && !strings.Contains(out, "ermission denied") {
				t.Errorf("want a permission error, got:\n%s", out)
			}
		})
	}
}

func TestProgramsOnlyTheAllowedRun(t *testing.T) {
	needLandlock(t, 1)
	rs := build(t, Settings{Commands: []string{"sh", "cat"}})
	if out, err := launch(t, rs, "sh", "-c", "cat /etc/hostname"); err != nil {
		t.Fatalf("allowed program: %v\n%s", err, out)
	}
	id, err := exec.LookPath("id")
	if err != nil {
		t.Skip("id not installed")
	}
	out, err := launch(t, rs, "sh", "-c", "id")
	if err == nil || !strings.Contains(out, "ermission denied") {
		t.Fatalf("id ran: %v\n%s", err, out)
	}
	// The loader route: the loader may execute, but cannot read id.
	if ld := loader(mustReal(t, id)); ld != "" {
		out, err = launch(t, rs, "sh", "-c", ld+" "+id)
		if err == nil {
			t.Fatalf("the loader ran id:\n%s", out)
		}
	}
	out, err = launch(t, rs, "sh", "-c", "cat "+id+" >/dev/null")
	if err == nil {
		t.Fatalf("a blocked program was readable:\n%s", out)
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestNetworkOffAndABIFallback denies TCP connect on this kernel and, with the
// ABI forced to 3 (before Landlock could restrict TCP), lets it through while the
// filesystem rules still hold; Check and Status say so.
func TestNetworkOffAndABIFallback(t *testing.T) {
	needLandlock(t, 4)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	dial := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)
	work := t.TempDir()
	rs := build(t, Settings{Paths: []string{work}, NetworkOff: true})
	if out, err := launch(t, rs, "bash", "-c", dial); err == nil {
		t.Fatalf("TCP connect allowed with network off:\n%s", out)
	}
	low := *rs
	low.ABI = 3
	if out, err := launch(t, &low, "bash", "-c", dial); err != nil || !strings.Contains(out, "connected") {
		t.Fatalf("ABI 3 cannot restrict TCP, so connect should work: %v\n%s", err, out)
	}
	if out, err := launch(t, &low, "bash", "-c", "echo x > /etc/forced-abi"); err == nil {
		t.Fatalf("ABI 3 still restricts files, but a write to /etc worked:\n%s", out)
	}
	if err := rs.Check(3); err == nil || !strings.Contains(err.Error(), "TCP") {
		t.Errorf("Check(3) = %v, want a refusal naming TCP", err)
	}
	if err := rs.Check(2); err == nil || !strings.Contains(err.Error(), "truncate") {
		t.Errorf("Check(2) = %v, want a refusal naming truncate", err)
	}
	if err := rs.Check(4); err != nil {
		t.Errorf("Check(4) = %v", err)
	}
	best := *rs
	best.BestEffort = true
	if err := best.Check(0); err != nil {
		t.Errorf("best-effort Check(0) = %v, want nil", err)
	}
	if _, off, _ := strings.Cut(rs.Status(3), "NOT enforced"); !strings.Contains(off, "TCP connect and bind denied (needs ABI 4)") {
		t.Errorf("Status(3) = %q", rs.Status(3))
	}
}
