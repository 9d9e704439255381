//go:build linux

package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cpty "github.com/creack/pty"
)

// TestIsolateRuleset: the whole filesystem is granted except the terminals, whose
// directory stays listable while no terminal in it is granted (the launcher adds
// the session's own).
func TestIsolateRuleset(t *testing.T) {
	rs := build(t, Settings{Isolate: true})
	if !rs.Isolated || !rs.TerminalRule || rs.Confined || rs.Handled != Read|List|Exec|Write|Ioctl {
		t.Fatalf("ruleset %+v", rs)
	}
	pts := mustReal(t, Terminals)
	var sawPts, sawTmp bool
	for _, r := range rs.Rules {
		switch {
		case r.Path == pts:
			sawPts = true
			if r.Access != List {
				t.Errorf("%s granted %s, want list only", r.Path, r.Access)
			}
		case beneath(r.Path, pts) && r.Path != pts:
			t.Errorf("a terminal is granted to every session: %s %s", r.Path, r.Access)
		case beneath(pts, r.Path):
			if r.Access != List {
				t.Errorf("%s, above the terminals, granted %s, want list only", r.Path, r.Access)
			}
		case r.Path == mustReal(t, os.TempDir()):
			sawTmp = true
			if r.Access != Read|List|Exec|Write|Ioctl {
				t.Errorf("%s granted %s, want everything", r.Path, r.Access)
			}
		}
	}
	if !sawPts || !sawTmp {
		t.Errorf("no rule for %s (%v) or %s (%v):\n%s", pts, sawPts, os.TempDir(), sawTmp, strings.Join(rs.Lines(), "\n"))
	}
	// With an allow-list of programs, the program directories are hidden too.
	rs = build(t, Settings{Isolate: true, Commands: []string{"sh"}})
	for _, r := range rs.Rules {
		if r.Path == "/usr/bin" && r.Access != List {
			t.Errorf("/usr/bin granted %s with an allow-list of programs", r.Access)
		}
	}
	// With allowed paths, the policy's rules stay and the session is isolated too.
	rs = build(t, Settings{Isolate: true, Paths: []string{t.TempDir()}})
	if !rs.Isolated || !rs.Confined {
		t.Fatalf("paths and isolation: %+v", rs)
	}
	for _, r := range rs.Rules {
		if beneath(r.Path, pts) && r.Access != List {
			t.Errorf("paths and isolation grant a terminal: %s %s", r.Path, r.Access)
		}
	}
}

// needSeclusion skips unless the launcher can hide processes and drop
// capabilities here (a private /proc takes CAP_SYS_ADMIN).
func needSeclusion(t *testing.T) {
	t.Helper()
	needLandlock(t, IsolationABI)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := Seclusion(t.Context(), self, os.Environ()); err != nil {
		t.Skipf("the launcher cannot seclude sessions here: %v", err)
	}
}

// TestIsolateKeepsSessionsApart starts one isolated program (standing for another
// session) and from a second isolated one tries to signal it, read its
// environment, command line, memory maps and descriptors, list it, and open a
// terminal that is not its own, all of which fail; the second's ordinary work
// still works.
func TestIsolateKeepsSessionsApart(t *testing.T) {
	needSeclusion(t)
	rs := build(t, Settings{Isolate: true, HideProcesses: true})
	if !rs.HideProcs {
		t.Fatalf("ruleset does not hide processes: %+v", rs)
	}

	other := startIsolated(t, rs, "sleep", "60")
	ptm, pts, err := cpty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer pts.Close()
	abstract := fmt.Sprintf("mcpt-isolate-%d", os.Getpid())
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: "@" + abstract, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	work := t.TempDir()
	pid := other.Process.Pid
	for _, tc := range []struct{ name, script string }{
		{"kill -0 another session", fmt.Sprintf("kill -0 %d", pid)},
		{"kill -TERM another session", fmt.Sprintf("kill -TERM %d", pid)},
		{"kill -0 the server", fmt.Sprintf("kill -0 %d", os.Getpid())},
		{"mem", fmt.Sprintf("head -c1 /proc/%d/mem", pid)},
		{"fd", fmt.Sprintf("readlink -v /proc/%d/fd/0", pid)},
		{"fd, open", fmt.Sprintf("head -c1 /proc/%d/fd/0", pid)},
		{"cwd", fmt.Sprintf("ls /proc/%d/cwd/", pid)},
		{"exe", fmt.Sprintf("readlink -v /proc/%d/exe", pid)},
		{"another terminal", fmt.Sprintf("echo hijack > %s", pts.Name())},
		{"abstract unix socket outside", fmt.Sprintf(`python3 -c "import socket; socket.socket(socket.AF_UNIX).connect('\\0%s')"`, abstract)},
		{"another terminal, read", fmt.Sprintf("head -c1 < %s", pts.Name())},
		// The device of another terminal made anew: no capability to mknod.
		{"mknod a terminal", fmt.Sprintf("mknod %s/tty c $(stat -c '%%t %%T' %s | while read a b; do echo $((16#$a)) $((16#$b)); done)", work, pts.Name())},
		// Absent from the session's /proc (hidepid=ptraceable): ENOENT.
		{"environ", fmt.Sprintf("head -c1 /proc/%d/environ", pid)},
		{"cmdline", fmt.Sprintf("head -c1 /proc/%d/cmdline", pid)},
		{"auxv", fmt.Sprintf("head -c1 /proc/%d/auxv", pid)},
		{"maps", fmt.Sprintf("head -c1 /proc/%d/maps", pid)},
		{"status", fmt.Sprintf("head -c1 /proc/%d/status", pid)},
		{"the server's environ", fmt.Sprintf("head -c1 /proc/%d/environ", os.Getpid())},
		{"ps lists it", fmt.Sprintf("ps -e -o pid= | grep -qw %d", pid)},
		{"ps lists the server", fmt.Sprintf("ps -e -o pid= | grep -qw %d", os.Getpid())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := launch(t, rs, "bash", "-c", tc.script)
			if err == nil {
				t.Fatalf("%s worked:\n%s", tc.script, out)
			}
			if strings.HasPrefix(tc.name, "ps ") {
				return // grep found nothing
			}
			if !strings.Contains(out, "ermission denied") && !strings.Contains(out, "not permitted") && !strings.Contains(out, "No such file") {
				t.Errorf("want EPERM, EACCES or ENOENT, got:\n%s", out)
			}
		})
	}
	for _, tracer := range [][]string{{"strace", "-p"}, {"gdb", "-batch", "-p"}} {
		if _, err := exec.LookPath(tracer[0]); err != nil {
			continue
		}
		out, _ := launch(t, rs, append(tracer, fmt.Sprint(pid))...)
		if !strings.Contains(out, "ermission denied") && !strings.Contains(out, "not permitted") {
			t.Errorf("%s attached to another session:\n%s", tracer[0], out)
		}
	}
	// Seen from outside (the server's /proc), the other is there and secluded.
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil || !strings.Contains(string(status), "CapEff:\t0000000000000000") || !strings.Contains(string(status), "CapBnd:\t0000000000000000") {
		t.Errorf("the other session holds capabilities (%v):\n%s", err, status)
	}
	if other.ProcessState != nil {
		t.Fatal("the other session's process ended")
	}
	// Its own processes are all there: itself, its children, their /proc.
	ordinary := fmt.Sprintf(`set -e
echo hi > %s/f; cat %s/f
sleep 30 & kill -TERM $!; wait $! || true
ls /dev/pts >/dev/null; env | grep -c . >/dev/null; head -c1 /proc/self/environ >/dev/null
sleep 30 & s=$!
ps -e -o pid= | grep -qw $s; ps -e -o pid= | grep -qw $$
tr '\0' ' ' < /proc/$s/cmdline | grep -q 'sleep 30'
kill $s; echo done`, work, work)
	if out, err := launch(t, rs, "bash", "-c", ordinary); err != nil || !strings.Contains(out, "done") {
		t.Fatalf("ordinary work in an isolated session: %v\n%s", err, out)
	}
}

// startIsolated runs argv under rs in the background, killed at the test's end.
func startIsolated(t *testing.T, rs *Ruleset, argv ...string) *exec.Cmd {
	t.Helper()
	cmd, path := launcherCmd(t, rs, argv...)
	cmd.Env = append(cmd.Env, "OTHER_SECRET=s3cret")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// Wait until the launcher has applied the domain and exec'd the program.
	want := mustReal(t, path)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if exe, err := os.Readlink(filepath.Join("/proc", fmt.Sprint(cmd.Process.Pid), "exe")); err == nil && exe == want {
			return cmd
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not start under the launcher", argv[0])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
