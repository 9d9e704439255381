package sandbox

import (
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/mcp-terminal/mcp-terminal/sandbox/internal/launcher"
)

// Subcommand is the server binary's internal subcommand that runs as the launcher.
const Subcommand = launcher.Subcommand

// Launcher is the argv prefix that starts a program under rs: self (the server's
// own binary, /proc/self/exe in the child), the subcommand and the launcher's
// plan, computed here once: Landlock's masks for rs.ABI (the kernel's when 0,
// never more than the kernel's or MaxABI) and the rules' paths, so the launcher
// only makes system calls. The caller appends the program's resolved path, its
// argv[0] and its arguments.
func Launcher(self string, rs *Ruleset) ([]string, error) {
	abi := min(KernelABI(), MaxABI)
	if rs.ABI > 0 {
		abi = min(abi, rs.ABI)
	}
	p := plan(rs, abi)
	return []string{self, Subcommand, p.Encode()}, nil
}

// Main is the launcher (sandbox/internal/launcher), for a binary whose own
// dispatch reaches it: args are the plan, the program's path, its argv[0] and its
// arguments. It returns only on failure. The launcher normally runs earlier, from
// its package's init.
func Main(args []string, stderr io.Writer) int { return launcher.Main(args, stderr) }

// RemoveEndedTmp removes from parent (a Ruleset's TmpParent) the private TMPDIR
// of every session whose program has ended: the launcher names each after its
// pid, which is the program's. A session's files go with it rather than with
// the server; a pid taken again by another process keeps its directory until a
// later call or until the server removes parent.
func RemoveEndedTmp(parent string) {
	if fi, err := os.Lstat(parent); err != nil || !fi.IsDir() {
		return // gone, or replaced by a session (parent is writable to them)
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if pid, ok := launcher.TmpPID(e.Name()); ok && syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}

// plan turns rs into the launcher's numbers for Landlock ABI abi: rights that ABI
// does not know are not restricted, as on a kernel of that ABI (Check says
// beforehand whether that loses anything the settings require).
func plan(rs *Ruleset, abi int) launcher.Plan {
	p := launcher.Plan{ABI: max(abi, 0), BestEffort: rs.BestEffort, Seclude: rs.Isolated, HideProcs: rs.HideProcs, TmpParent: rs.TmpParent}
	p.FS = fsRights(rs.Handled, true)
	if rs.NoTCP {
		p.Net = launcher.NetBindTCP | launcher.NetConnectTCP
	}
	if !rs.Empty() {
		p.Scoped = launcher.ScopeSignal
		if rs.NoTCP || rs.Isolated {
			p.Scoped |= launcher.ScopeAbstractUnixSocket
		}
	}
	if abi > 0 {
		// Without Landlock at all, the masks stay whole: the launcher refuses, or
		// in best-effort mode runs the program unconfined, and says which.
		fs, net, scoped := launcher.Known(abi)
		p.FS, p.Net, p.Scoped = p.FS&fs, p.Net&net, p.Scoped&scoped
	}
	for _, r := range rs.Rules {
		if set := fsRights(r.Access, !r.File) & p.FS; set != 0 {
			p.Rules = append(p.Rules, launcher.Rule{Access: set, Path: r.Path})
		}
	}
	if rs.TerminalRule {
		p.Terminal = fsRights(Read|Write|Ioctl, false) & p.FS
	}
	return p
}

// fsRights maps this package's rights to Landlock's.
func fsRights(a Access, dir bool) uint64 {
	var s uint64
	if a&Read != 0 {
		s |= launcher.FSReadFile
	}
	if a&List != 0 && dir {
		s |= launcher.FSReadDir
	}
	if a&Exec != 0 {
		s |= launcher.FSExecute
	}
	if a&Write != 0 {
		s |= launcher.FSWriteFile | launcher.FSTruncate
		if dir {
			s |= launcher.FSRemoveDir | launcher.FSRemoveFile | launcher.FSMakeChar | launcher.FSMakeDir |
				launcher.FSMakeReg | launcher.FSMakeSock | launcher.FSMakeFifo | launcher.FSMakeBlock |
				launcher.FSMakeSym | launcher.FSRefer
		}
	}
	if a&Ioctl != 0 {
		s |= launcher.FSIoctlDev
	}
	return s
}
