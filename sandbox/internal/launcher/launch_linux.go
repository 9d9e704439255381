//go:build linux

package launcher

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// restrict applies the plan's Landlock ruleset to the calling thread only: the
// ruleset is built here, because one rule names the session's own terminal and,
// with a private /proc, another names a /proc that exists only in this thread's
// mount namespace; a ruleset shared from the server would hand each later
// session the rules added for an earlier one.
//
// In best-effort mode a rule that cannot be added is skipped and said on stderr:
// without it the path is only less accessible, whereas giving up would run the
// program unconfined while create_session reports the rules enforced.
func restrict(p *Plan, stderr io.Writer) error {
	if !p.Restricts() {
		return nil
	}
	if p.ABI <= 0 {
		return errors.New("landlock: not supported by this kernel")
	}
	attr := unix.LandlockRulesetAttr{Access_fs: p.FS, Access_net: p.Net, Scoped: p.Scoped}
	size := unsafe.Sizeof(attr.Access_fs) // the smallest attr that holds the plan: older kernels refuse more
	if p.Scoped != 0 {
		size = unsafe.Sizeof(attr)
	} else if p.Net != 0 {
		size = unsafe.Offsetof(attr.Scoped)
	}
	r, _, e := unix.RawSyscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return fmt.Errorf("landlock: create ruleset: %w", e)
	}
	ruleset := int(r)
	defer unix.Close(ruleset)
	add := func(path string, access uint64) error {
		err := addRule(ruleset, path, access)
		if err != nil && p.BestEffort {
			io.WriteString(stderr, "mcp-terminal sandbox: best-effort, skipped "+err.Error()+"\n")
			return nil
		}
		return err
	}
	for _, rule := range p.Rules {
		if err := add(rule.Path, rule.Access); err != nil {
			return err
		}
	}
	if p.Terminal != 0 {
		if tty, err := os.Readlink("/proc/self/fd/0"); err == nil && strings.HasPrefix(tty, "/dev/pts/") {
			if err := add(tty, p.Terminal); err != nil {
				return err
			}
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("landlock: no_new_privs: %w", err)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); e != 0 {
		return fmt.Errorf("landlock: restrict: %w", e)
	}
	if p.Net != 0 {
		// The network is off: the sockets Landlock's rules cannot govern go too.
		if err := denyStreams(); err != nil {
			if !p.BestEffort {
				return err
			}
			io.WriteString(stderr, "mcp-terminal sandbox: best-effort, "+err.Error()+"\n")
		}
	}
	return nil
}

// closeInherited marks every descriptor above stderr close-on-exec. Go opens its
// own that way, but one the server inherited without it (from whatever started
// the server) passes through exec.Cmd, the launcher and execve into the session,
// where Landlock, which checks only opens, would not stand between the program
// and that file or socket.
func closeInherited() error {
	err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	if err == nil {
		return nil
	}
	// Before Linux 5.11 (best-effort, without Landlock): one by one.
	fds, rerr := os.ReadDir("/proc/self/fd")
	if rerr != nil {
		return fmt.Errorf("close inherited descriptors: %w (%v)", err, rerr)
	}
	for _, f := range fds {
		if fd, err := strconv.Atoi(f.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
	return nil
}

// mkdirIn makes the directory name (mode 0700) in parent, which it does not
// follow if it is a symlink: parent lies in an allowed path, where a session may
// replace it with a link to anywhere, and the launcher is not confined yet.
func mkdirIn(parent, name string) error {
	fd, err := unix.Open(parent, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.Mkdirat(fd, name, 0o700)
}

// random reads 8 bytes from the kernel's generator (crypto/rand would bring
// more packages' initialisation before the launcher's).
func random() (uint64, error) {
	var b [8]byte
	if _, err := unix.Getrandom(b[:], 0); err != nil {
		return 0, fmt.Errorf("getrandom: %w", err)
	}
	return *(*uint64)(unsafe.Pointer(&b)), nil
}

// addRule grants access beneath path; a path that does not exist is skipped.
func addRule(ruleset int, path string, access uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err == unix.ENOENT {
		return nil
	}
	if err != nil {
		return fmt.Errorf("landlock: rule for %s: %w", path, err)
	}
	defer unix.Close(fd)
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	_, _, e := unix.RawSyscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if e == unix.EINVAL && access&^FSFileRights != 0 {
		// A directory when the server built the plan, a file now: the rights that
		// apply to a file still do.
		attr.Allowed_access &= FSFileRights
		_, _, e = unix.RawSyscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	}
	if e != 0 {
		return fmt.Errorf("landlock: rule for %s: %w", path, e)
	}
	return nil
}

// Why Landlock alone leaves some of /proc open. Landlock denies ptrace-mode
// access across sibling domains, which closes /proc/<pid>/mem, fd/, cwd, exe, io
// and stack. But:
//   - environ, auxv and maps (smaps, pagemap) are opened through the kernel's
//     mm_access, which since Linux 6.x lets a PTRACE_MODE_READ through for a
//     caller with CAP_PERFMON or CAP_SYS_ADMIN before any LSM is asked; a server
//     run as root hands its sessions both. Without them, Landlock denies.
//   - cmdline, stat, status and the directory listing (ps) are not ptrace-checked
//     at all: any process may read them, whatever its domain.
// So an isolated session gives up every capability (seclude) and, where the
// launcher may mount, gets a /proc of its own mounted hidepid=ptraceable: a
// process it may not trace (Landlock: anything outside its domain) is not there.

// seclude applies what Landlock cannot to the calling thread, the one that execs:
// a /proc that shows only the session's own processes (hide) and no
// capabilities. It runs before restrict, because a Landlock domain may not
// mount, and because the rules must name the new /proc.
func seclude(hide bool) error {
	if hide {
		if err := privateProc(); err != nil {
			return err
		}
	}
	return dropCapabilities()
}

// privateProc gives the thread a mount namespace of its own, kept from sending
// mounts back to the server's, with a fresh /proc that lists only the processes
// the caller could trace.
func privateProc() error {
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("private /proc: mount namespace: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_SLAVE|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("private /proc: make mounts one-way: %w", err)
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "hidepid=ptraceable"); err != nil {
		return fmt.Errorf("private /proc: mount: %w", err)
	}
	return nil
}

// dropCapabilities empties the bounding, ambient, inheritable, permitted and
// effective sets, so that neither this program nor anything it execs (uid 0
// included, setuid files included) holds a capability. A process that holds
// none (a server not run as root) has nothing to drop.
func dropCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	held := data[0].Permitted|data[1].Permitted|data[0].Inheritable|data[1].Inheritable != 0
	if held {
		// Up to the highest capability this kernel knows: beyond it, EINVAL.
		for c := 0; c < 64; c++ {
			err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
			if err == unix.EINVAL {
				break
			}
			if err != nil {
				return fmt.Errorf("capabilities: drop %d from the bounding set: %w", c, err)
			}
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("capabilities: ambient: %w", err)
	}
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	return nil
}

// Probe is what sandbox.Seclusion runs secluded: it checks that it holds no
// capability and that a process outside its domain (pid 1) is not in its /proc.
func Probe(stderr io.Writer) int {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil || data[0].Effective|data[1].Effective|data[0].Permitted|data[1].Permitted != 0 {
		fmt.Fprintf(stderr, "capabilities still held (%v)\n", err)
		return 1
	}
	var st syscall.Stat_t
	if err := syscall.Stat("/proc/1", &st); err != syscall.ENOENT {
		fmt.Fprintf(stderr, "/proc/1 is visible from a session (%v)\n", err)
		return 1
	}
	return 0
}
