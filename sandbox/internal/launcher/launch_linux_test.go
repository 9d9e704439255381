//go:build linux

package launcher

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestMain lets the test binary act as the launcher (the TestHelperProcess
// pattern): with LAUNCHER_TEST=1 it runs Main on its arguments.
func TestMain(m *testing.M) {
	if os.Getenv("LAUNCHER_TEST") == "1" {
		os.Unsetenv("LAUNCHER_TEST")
		os.Exit(Main(os.Args[1:], os.Stderr))
	}
	os.Exit(m.Run())
}

func kernelABI(t *testing.T) int {
	t.Helper()
	v, _, e := unix.RawSyscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		t.Skipf("no Landlock: %v", e)
	}
	return int(v)
}

// run starts the test binary as the launcher with plan and sh -c script, and
// returns its combined output and exit status.
func run(t *testing.T, plan string, script string) (string, int) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), self, plan, "/bin/sh", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "LAUNCHER_TEST=1")
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

// TestRestrictsTheProgram: writes are confined to the granted directory, the
// program runs with no_new_privs, a rule for a missing path is skipped, and a
// rule with directory rights on what is now a file keeps the rights a file has.
func TestRestrictsTheProgram(t *testing.T) {
	abi := kernelABI(t)
	in, out := t.TempDir(), t.TempDir()
	file := filepath.Join(in, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	write := uint64(FSWriteFile | FSMakeReg)
	p := Plan{ABI: abi, FS: write, Rules: []Rule{
		{write, in}, {write, filepath.Join(out, "missing")}, {write, file},
	}}
	script := strings.NewReplacer("IN", in, "OUT", out).Replace(`set -e
echo x > IN/new; echo x > IN/file
if echo x > OUT/new; then echo "wrote outside"; exit 1; fi
grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status
echo done`)
	o, code := run(t, p.Encode(), script)
	if code != 0 || !strings.Contains(o, "done") || !strings.Contains(o, "ermission denied") {
		t.Fatalf("exit %d:\n%s", code, o)
	}
}

// TestFailsClosed: a plan Landlock cannot apply (no ABI), or that cannot be read,
// stops the program unless best-effort, which says it runs unconfined.
func TestFailsClosed(t *testing.T) {
	p := Plan{FS: FSWriteFile}
	o, code := run(t, p.Encode(), "echo ran")
	if code != 126 || strings.Contains(o, "ran") || !strings.Contains(o, "not starting /bin/sh: landlock: not supported") {
		t.Errorf("ABI 0: exit %d:\n%s", code, o)
	}
	p.BestEffort = true
	o, code = run(t, p.Encode(), "echo ran")
	if code != 0 || !strings.Contains(o, "UNCONFINED (best-effort)") || !strings.Contains(o, "ran") {
		t.Errorf("ABI 0, best-effort: exit %d:\n%s", code, o)
	}
	o, code = run(t, `{"h":31}`, "echo ran")
	if code != 126 || !strings.Contains(o, "bad ruleset") {
		t.Errorf("bad plan: exit %d:\n%s", code, o)
	}
	o, code = run(t, (&Plan{}).Encode(), "exit 3")
	if code != 3 {
		t.Errorf("empty plan: exit %d:\n%s", code, o)
	}
}

// TestPrivateTmp: the program's TMPDIR is a new directory of its own in the
// plan's parent.
func TestPrivateTmp(t *testing.T) {
	parent := t.TempDir()
	o, code := run(t, (&Plan{TmpParent: parent}).Encode(), `test -d "$TMPDIR" && echo "$TMPDIR"`)
	dir := strings.TrimSpace(o)
	if code != 0 || filepath.Dir(dir) != parent || !strings.HasPrefix(filepath.Base(dir), "session-") {
		t.Fatalf("exit %d, TMPDIR %q", code, o)
	}
	o2, _ := run(t, (&Plan{TmpParent: parent}).Encode(), `echo "$TMPDIR"`)
	if strings.TrimSpace(o2) == dir {
		t.Errorf("two sessions share TMPDIR %s", dir)
	}
}

// TestNoDescriptorLeaks: the program starts with its three standard descriptors
// and nothing else: no ruleset or rule path descriptor, and none the launcher
// inherited without close-on-exec (the server's parent may hand it any, and
// Landlock does not check a descriptor opened before restrict), secluded or not.
func TestNoDescriptorLeaks(t *testing.T) {
	abi := kernelABI(t)
	all := uint64(FSReadFile | FSReadDir | FSExecute | FSWriteFile | FSMakeDir)
	plans := map[string]Plan{
		"landlock": {ABI: abi, FS: all, Rules: []Rule{{all, "/"}}, TmpParent: t.TempDir()},
	}
	if os.Geteuid() == 0 && abi >= 6 {
		plans["secluded"] = Plan{ABI: abi, FS: all, Scoped: ScopeSignal | ScopeAbstractUnixSocket,
			Rules: []Rule{{all, "/"}}, Seclude: true, HideProcs: true}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	inherited, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer inherited.Close()
	for name, p := range plans {
		// ls lists the shell's descriptors, not its own.
		cmd := exec.CommandContext(t.Context(), self, p.Encode(), "/bin/sh", "sh", "-c", `ls /proc/$$/fd`)
		cmd.Env = append(os.Environ(), "LAUNCHER_TEST=1")
		cmd.ExtraFiles = []*os.File{inherited}
		out, err := cmd.CombinedOutput()
		if got := strings.Fields(string(out)); err != nil || strings.Join(got, " ") != "0 1 2" {
			t.Errorf("%s: descriptors %q (%v), want 0 1 2", name, out, err)
		}
	}
}

// TestPrivateTmpWinsOverInherited: a TMPDIR the program would otherwise inherit
// (the server's, kept in a policy's base environment, or one create_session
// passes) does not shadow the private one: getenv returns the first entry.
func TestPrivateTmpWinsOverInherited(t *testing.T) {
	parent := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), self, (&Plan{TmpParent: parent}).Encode(), "/usr/bin/printenv", "printenv", "TMPDIR")
	cmd.Env = append(os.Environ(), "LAUNCHER_TEST=1", "TMPDIR=/shared")
	out, err := cmd.CombinedOutput()
	if dir := strings.TrimSpace(string(out)); err != nil || filepath.Dir(dir) != parent {
		t.Fatalf("TMPDIR %q (%v), want a directory in %s", out, err, parent)
	}
}

// TestSecludeDropsEveryCapability: a secluded program holds no capability in any
// set, bounding and ambient included, runs with no_new_privs and does not see
// pid 1.
func TestSecludeDropsEveryCapability(t *testing.T) {
	abi := kernelABI(t)
	if os.Geteuid() != 0 || abi < 6 {
		t.Skip("seclusion takes root (a private /proc) and Landlock ABI 6")
	}
	p := Plan{ABI: abi, Scoped: ScopeSignal | ScopeAbstractUnixSocket, Seclude: true, HideProcs: true}
	o, code := run(t, p.Encode(), `grep -E '^(Cap|NoNewPrivs)' /proc/self/status; test -e /proc/1 && echo "pid 1 visible"; true`)
	if code != 0 || strings.Contains(o, "visible") {
		t.Fatalf("exit %d:\n%s", code, o)
	}
	for _, l := range strings.Split(strings.TrimSpace(o), "\n") {
		k, v, _ := strings.Cut(l, ":")
		v = strings.TrimSpace(v)
		if (k == "NoNewPrivs" && v != "1") || (strings.HasPrefix(k, "Cap") && strings.Trim(v, "0") != "") {
			t.Errorf("%s: %s", k, v)
		}
	}
}

// TestPrivateTmpParentNotFollowed: the TMPDIR parent lies in an allowed path,
// where a session may replace it with a symlink; the launcher, not yet confined
// (and maybe root), must not follow it and make a directory wherever it points.
func TestPrivateTmpParentNotFollowed(t *testing.T) {
	elsewhere, work := t.TempDir(), t.TempDir()
	parent := filepath.Join(work, "tmp")
	if err := os.Symlink(elsewhere, parent); err != nil {
		t.Fatal(err)
	}
	o, code := run(t, (&Plan{TmpParent: parent}).Encode(), `echo "ran with $TMPDIR"`)
	if made, _ := os.ReadDir(elsewhere); len(made) != 0 || code != 126 {
		t.Errorf("exit %d, made %v in the symlink's target:\n%s", code, made, o)
	}
}

// TestBestEffortKeepsTheRestOfTheRuleset: in best-effort mode a rule the
// launcher cannot add (its path is a symlink loop, not a directory...) is
// skipped, which only takes access away; it does not drop the whole ruleset and
// run the program unconfined while create_session says the rules are enforced.
func TestBestEffortKeepsTheRestOfTheRuleset(t *testing.T) {
	abi := kernelABI(t)
	in, out := t.TempDir(), t.TempDir()
	loop := filepath.Join(in, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	write := uint64(FSWriteFile | FSMakeReg)
	p := Plan{ABI: abi, FS: write, BestEffort: true, Rules: []Rule{{write, loop}, {write, in}}}
	script := strings.NewReplacer("IN", in, "OUT", out).Replace(`echo x > IN/new || exit 1
if echo x > OUT/new; then echo "wrote outside"; exit 1; fi
echo done`)
	o, code := run(t, p.Encode(), script)
	if code != 0 || !strings.Contains(o, "done") || strings.Contains(o, "UNCONFINED") {
		t.Errorf("exit %d:\n%s", code, o)
	}
	p.BestEffort = false
	if o, code := run(t, p.Encode(), "echo ran"); code != 126 || strings.Contains(o, "ran") {
		t.Errorf("required: exit %d:\n%s", code, o)
	}
}
