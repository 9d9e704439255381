//go:build linux

package sandbox

import (
	"fmt"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// MaxABI is the newest Landlock ABI this package builds rules for. ABI 8 restricts
// what 7 does; 9 would also close pathname unix sockets and 10 UDP, which the
// README says stay open, so they are left for a deliberate change.
const MaxABI = 8

// KernelABI returns the Landlock ABI the running kernel offers, 0 without Landlock.
func KernelABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

var configs = []landlock.Config{{}, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6, landlock.V7, landlock.V8}

// fsRights maps this package's rights to Landlock's.
func fsRights(a Access, dir bool) landlock.AccessFSSet {
	var s landlock.AccessFSSet
	if a&Read != 0 {
		s |= ll.AccessFSReadFile
	}
	if a&List != 0 && dir {
		s |= ll.AccessFSReadDir
	}
	if a&Exec != 0 {
		s |= ll.AccessFSExecute
	}
	if a&Write != 0 {
		s |= ll.AccessFSWriteFile | ll.AccessFSTruncate
		if dir {
			s |= ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeChar | ll.AccessFSMakeDir |
				ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSMakeBlock |
				ll.AccessFSMakeSym | ll.AccessFSRefer
		}
	}
	if a&Ioctl != 0 {
		s |= ll.AccessFSIoctlDev
	}
	return s
}

// Apply restricts the calling process, and everything it will start, to rs, as
// far as Landlock ABI abi (capped by the kernel's) can: rights a lower ABI does
// not know are simply not restricted, as on a kernel of that ABI. Check says
// beforehand whether that loses anything the settings require.
func Apply(rs *Ruleset, abi int) error {
	abi = min(abi, KernelABI(), MaxABI)
	if abi <= 0 {
		return fmt.Errorf("landlock: %w", ErrUnsupported)
	}
	top := configs[abi]
	handledFS := fsRights(rs.Handled, true) & top.HandledAccessFS
	var handledNet landlock.AccessNetSet
	if rs.NoTCP {
		handledNet = landlock.AccessNetSet(ll.AccessNetBindTCP|ll.AccessNetConnectTCP) & top.HandledAccessNet
	}
	var scoped landlock.ScopedSet
	if !rs.Empty() {
		scoped = landlock.ScopedSet(ll.ScopeSignal)
		if rs.NoTCP || rs.Isolated {
			scoped |= landlock.ScopedSet(ll.ScopeAbstractUnixSocket)
		}
		scoped &= top.Scoped
	}
	args := []any{}
	if handledFS != 0 {
		args = append(args, handledFS)
	}
	if handledNet != 0 {
		args = append(args, handledNet)
	}
	if scoped != 0 {
		args = append(args, scoped)
	}
	if len(args) == 0 {
		return nil
	}
	cfg, err := landlock.NewConfig(args...)
	if err != nil {
		return fmt.Errorf("landlock config: %w", err)
	}
	var rules []landlock.Rule
	for _, r := range rs.Rules {
		set := fsRights(r.Access, !r.File) & handledFS
		if set != 0 {
			rules = append(rules, landlock.PathAccess(set, r.Path).IgnoreIfMissing())
		}
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}
