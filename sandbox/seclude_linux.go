//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

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

// seclude applies what Landlock cannot to the calling thread, which must be the
// one that execs: a /proc that shows only the session's own processes (when rs
// asks for it) and no capabilities. It runs before Apply, because a Landlock
// domain may not mount, and because Apply's rules must name the new /proc.
func seclude(rs *Ruleset) error {
	// Namespaces and capabilities belong to the thread; the launcher execs from
	// this one (Main runs on the main goroutine, never unlocked).
	runtime.LockOSThread()
	if rs.HideProcs {
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
		for c := 0; c <= lastCap(); c++ {
			err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
			if errors.Is(err, unix.EINVAL) {
				break // beyond what this kernel knows
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

// lastCap is the highest capability this kernel knows.
func lastCap() int {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 63
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 63
	}
	return n
}

// probeMain is Seclusion's program, run secluded: it checks that it holds no
// capability and that a process outside its domain (pid 1) is not in its /proc.
func probeMain(stderr io.Writer) int {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil || data[0].Effective|data[1].Effective|data[0].Permitted|data[1].Permitted != 0 {
		fmt.Fprintf(stderr, "capabilities still held (%v)\n", err)
		return 1
	}
	if _, err := os.Stat("/proc/1"); !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "/proc/1 is visible from a session (%v)\n", err)
		return 1
	}
	return 0
}
