package integration

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sshd is a private OpenSSH server on 127.0.0.1, started for one test, and a fresh
// ordinary local user who logs in to it with a key (no prompt) and whose password is
// known, so a test can type it at a remote `su`. Everything is undone in t.Cleanup:
// the daemon and every connection it forked, the user's processes, the user and its
// home, the temporary directory.
type sshd struct {
	User     string
	Password string
	Home     string
	UID, GID int
	Port     int

	dir  string // keys, config, pid file
	key  string // the user's private key
	cmd  *exec.Cmd
	done chan struct{} // closed once cmd has been waited for
	log  *syncBuffer   // the daemon's own log (-e)
}

// sshdPrograms are what startSSHD needs; useradd and friends live in sbin, which a
// non-login PATH may lack.
var sshdPrograms = []string{"sshd", "ssh", "ssh-keygen", "useradd", "userdel", "chpasswd"}

// startSSHD starts a daemon and creates its user, or skips the test when that is
// impossible here (not root, OpenSSH or the user tools missing).
func startSSHD(t *testing.T) *sshd { return startSSHDTB(t) }

// startSSHDTB serves tests and benchmarks alike.
func startSSHDTB(t testing.TB) *sshd {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: it creates a local user and runs sshd (CI runs as root)")
	}
	paths := map[string]string{}
	for _, p := range sshdPrograms {
		path, err := sbinPath(p)
		if err != nil {
			t.Skipf("%s is not installed (.ci/run installs openssh-server): %v", p, err)
		}
		paths[p] = path
	}
	d := &sshd{dir: t.TempDir(), log: &syncBuffer{}}
	d.key = filepath.Join(d.dir, "user_key")
	hostKey := filepath.Join(d.dir, "host_key")
	for _, k := range []string{hostKey, d.key} {
		runSetup(t, paths["ssh-keygen"], nil, "-q", "-t", "ed25519", "-N", "", "-C", "mcpt-test", "-f", k)
	}
	d.addUser(t, paths["useradd"], paths["userdel"], paths["chpasswd"])
	pub, err := os.ReadFile(d.key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	d.installDir(t, ".ssh", 0o700)
	d.installFile(t, ".ssh/authorized_keys", string(pub), 0o600)
	// Privilege separation needs its empty directory; a container may not have it.
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatalf("privilege separation directory: %v", err)
	}
	d.serve(t, paths["sshd"], hostKey)
	d.checkLogin(t, paths["ssh"])
	return d
}

// sbinPath finds a program on PATH or in the sbin directories.
func sbinPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/sbin", "/usr/bin"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not on PATH nor in /usr/sbin", name)
}

// runSetup runs a setup command and fails the test with its output if it fails.
func runSetup(t testing.TB, path string, stdin []byte, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(path), strings.Join(args, " "), err, out)
	}
}

func randomHex(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// addUser creates the user with a home from /etc/skel (the distribution's own
// .bashrc), sets its password, and removes it all in t.Cleanup.
func (d *sshd) addUser(t testing.TB, useradd, userdel, chpasswd string) {
	t.Helper()
	d.User = "mcpt" + randomHex(t, 4)
	d.Password = "pw-" + randomHex(t, 6)
	runSetup(t, useradd, nil, "-m", "-s", "/bin/bash", d.User)
	t.Cleanup(func() { d.removeUser(t, userdel) })
	runSetup(t, chpasswd, []byte(d.User+":"+d.Password+"\n"))
	u, err := user.Lookup(d.User)
	if err != nil {
		t.Fatalf("look up %s: %v", d.User, err)
	}
	d.Home = u.HomeDir
	if d.UID, err = strconv.Atoi(u.Uid); err != nil {
		t.Fatal(err)
	}
	if d.GID, err = strconv.Atoi(u.Gid); err != nil {
		t.Fatal(err)
	}
}

// removeUser ends whatever still runs as the user (userdel refuses a busy user) and
// deletes the user and its home.
func (d *sshd) removeUser(t testing.TB, userdel string) {
	t.Helper()
	if d.UID != 0 {
		deadline := time.Now().Add(5 * time.Second)
		for left := d.UserProcesses(); len(left) > 0; left = d.UserProcesses() {
			if time.Now().After(deadline) {
				t.Errorf("processes of %s survive SIGKILL: %v", d.User, left)
				break
			}
			for _, p := range left {
				pid, _ := strconv.Atoi(strings.SplitN(p, ":", 2)[0])
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			time.Sleep(20 * time.Millisecond) // the kernel needs a moment to tear them down
		}
	}
	out, err := exec.Command(userdel, "-r", "-f", d.User).CombinedOutput()
	if err != nil {
		t.Errorf("userdel -r %s: %v\n%s", d.User, err, out)
	}
}

// installFile writes a file under the user's home, owned by the user, with exactly
// mode: sshd's StrictModes checks both.
func (d *sshd) installFile(t testing.TB, rel, content string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(d.Home, rel)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatalf("install ~%s/%s: %v", d.User, rel, err)
	}
	d.own(t, p, mode)
}

// installDir makes a directory under the user's home, owned by the user.
func (d *sshd) installDir(t testing.TB, rel string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(d.Home, rel)
	if err := os.MkdirAll(p, mode); err != nil {
		t.Fatalf("install ~%s/%s: %v", d.User, rel, err)
	}
	d.own(t, p, mode)
}

// own gives p to the user with mode, which neither WriteFile nor MkdirAll applies to
// what already exists (or through the umask).
func (d *sshd) own(t testing.TB, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, d.UID, d.GID); err != nil {
		t.Fatal(err)
	}
}

// WriteHomeFile puts a file such as .bashrc in the user's home.
func (d *sshd) WriteHomeFile(t testing.TB, rel, content string) {
	t.Helper()
	d.installFile(t, rel, content, 0o644)
}

// config is the daemon's whole configuration: nothing from /etc/ssh applies.
// UsePAM no: key login needs no PAM session (pam_loginuid fails in many containers),
// and `su` on the far side still checks the password through its own PAM stack.
func (d *sshd) config(hostKey string) string {
	return strings.Join([]string{
		"ListenAddress 127.0.0.1",
		"Port " + strconv.Itoa(d.Port),
		"HostKey " + hostKey,
		"PidFile " + filepath.Join(d.dir, "sshd.pid"),
		"AuthorizedKeysFile .ssh/authorized_keys",
		"StrictModes yes",
		"UsePAM no",
		"PubkeyAuthentication yes",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"PermitRootLogin no",
		"AllowUsers " + d.User,
		"PrintMotd no",
		"PrintLastLog no",
		"X11Forwarding no",
		"LogLevel INFO",
		"",
	}, "\n")
}

// serve starts the daemon on a free port and waits until it listens. A port picked
// by listening on :0 can be taken again before sshd binds it, so that is retried.
func (d *sshd) serve(t testing.TB, sshdPath, hostKey string) {
	t.Helper()
	conf := filepath.Join(d.dir, "sshd_config")
	for attempt := 1; ; attempt++ {
		d.Port = freePort(t)
		if err := os.WriteFile(conf, []byte(d.config(hostKey)), 0o600); err != nil {
			t.Fatal(err)
		}
		runSetup(t, sshdPath, nil, "-t", "-f", conf) // a config error, said clearly
		err := d.start(t, sshdPath, conf)
		if err == nil {
			return
		}
		if attempt < 3 && strings.Contains(d.log.String(), "Address already in use") {
			continue
		}
		t.Fatalf("sshd: %v\n%s", err, d.log.String())
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("pick a port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// start runs `sshd -D -e` as the test's child and polls until the port accepts a
// connection. The goroutine that waits for the daemon exits when it does; stop
// ends it.
func (d *sshd) start(t testing.TB, sshdPath, conf string) error {
	t.Helper()
	cmd := exec.Command(sshdPath, "-D", "-e", "-f", conf)
	cmd.Stdout, cmd.Stderr = d.log, d.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // no signal meant for the test reaches it
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	d.cmd, d.done = cmd, done
	t.Cleanup(d.stop)
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(d.Port))
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-done:
			return fmt.Errorf("exited before listening: %v", cmd.ProcessState)
		default:
		}
		// The log line comes right after listen(2); only then probe, so the daemon
		// sees one connection without a banner, not a stream of them.
		if strings.Contains(d.log.String(), "Server listening on") {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not accepting connections on %s after 10s", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop ends the daemon and every connection it forked (each calls setsid, so they
// are not in its process group, and they outlive the listener). Safe to call twice.
func (d *sshd) stop() {
	if d.cmd == nil {
		return
	}
	kids := descendants(d.cmd.Process.Pid)
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	for _, pid := range kids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	select {
	case <-d.done:
	case <-time.After(5 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
	}
	d.cmd = nil
}

// checkLogin logs in once without a terminal and with BatchMode, so a key that does
// not work fails here, clearly, instead of as a password prompt inside a session.
func (d *sshd) checkLogin(t testing.TB, sshPath string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	args := append(d.options(), "-o", "BatchMode=yes", d.User+"@127.0.0.1", "id -un")
	out, err := exec.CommandContext(ctx, sshPath, args...).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != d.User {
		t.Fatalf("key login as %s: %v\n%s\nsshd log:\n%s", d.User, err, out, d.log.String())
	}
}

// options are ssh's options for this daemon: the key only, no host key question, no
// password fallback, no configuration from ~/.ssh or /etc/ssh.
func (d *sshd) options() []string {
	return []string{
		"-F", "/dev/null",
		"-i", d.key,
		"-p", strconv.Itoa(d.Port),
		"-o", "IdentitiesOnly=yes",
		"-o", "IdentityAgent=none",
		"-o", "StrictHostKeyChecking=no",
		"-o", "UserKnownHostsFile=/dev/null",
		"-o", "PasswordAuthentication=no",
		"-o", "KbdInteractiveAuthentication=no",
		"-o", "ControlMaster=no",
		"-o", "ControlPath=none",
		"-o", "LogLevel=ERROR",
	}
}

// Args is an interactive login's command line after `ssh`: a terminal is forced
// (-tt) and BatchMode is off, since tests type at the far side's prompts.
func (d *sshd) Args() []string {
	return append(append([]string{"-tt"}, d.options()...), d.User+"@127.0.0.1")
}

// Log is what the daemon has logged so far, for failure messages.
func (d *sshd) Log() string { return d.log.String() }

// UserProcesses lists the live (not zombie) processes running as the user: the
// remote shell and whatever it started.
func (d *sshd) UserProcesses() []string {
	var found []string
	for _, p := range procTable() {
		if p.uid == d.UID && p.state != 'Z' {
			found = append(found, fmt.Sprintf("%d: %s", p.pid, p.name))
		}
	}
	return found
}

// Connections lists the daemon's live per-connection processes.
func (d *sshd) Connections() []string {
	if d.cmd == nil {
		return nil
	}
	var found []string
	for _, p := range procTable() {
		if p.ppid == d.cmd.Process.Pid && p.state != 'Z' {
			found = append(found, fmt.Sprintf("%d: %s", p.pid, p.name))
		}
	}
	return found
}

// procInfo is what /proc/<pid>/status says about one process.
type procInfo struct {
	pid, ppid, uid int
	state          byte
	name           string
}

func procTable() []procInfo {
	var ps []procInfo
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, err := readProc(pid); err == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

func readProc(pid int) (procInfo, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return procInfo{}, err
	}
	p := procInfo{pid: pid, uid: -1}
	for _, line := range strings.Split(string(b), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fields := strings.Fields(val)
		if len(fields) == 0 {
			continue
		}
		switch key {
		case "Name":
			p.name = fields[0]
		case "State":
			p.state = fields[0][0]
		case "PPid":
			p.ppid, _ = strconv.Atoi(fields[0])
		case "Uid":
			p.uid, _ = strconv.Atoi(fields[0]) // real uid
		}
	}
	if p.uid < 0 {
		return p, errors.New("no Uid line")
	}
	return p, nil
}

// descendants lists every process below pid, breadth first.
func descendants(pid int) []int {
	children := map[int][]int{}
	for _, p := range procTable() {
		children[p.ppid] = append(children[p.ppid], p.pid)
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		for _, c := range children[next] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}
