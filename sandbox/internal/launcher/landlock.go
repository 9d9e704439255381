package launcher

// Landlock's UAPI numbers (include/uapi/linux/landlock.h), which are the same on
// every architecture; the server computes plans with them on any GOOS.
const (
	FSExecute    = 1 << 0
	FSWriteFile  = 1 << 1
	FSReadFile   = 1 << 2
	FSReadDir    = 1 << 3
	FSRemoveDir  = 1 << 4
	FSRemoveFile = 1 << 5
	FSMakeChar   = 1 << 6
	FSMakeDir    = 1 << 7
	FSMakeReg    = 1 << 8
	FSMakeSock   = 1 << 9
	FSMakeFifo   = 1 << 10
	FSMakeBlock  = 1 << 11
	FSMakeSym    = 1 << 12
	FSRefer      = 1 << 13 // ABI 2
	FSTruncate   = 1 << 14 // ABI 3
	FSIoctlDev   = 1 << 15 // ABI 5

	NetBindTCP    = 1 << 0 // ABI 4
	NetConnectTCP = 1 << 1 // ABI 4

	ScopeAbstractUnixSocket = 1 << 0 // ABI 6
	ScopeSignal             = 1 << 1 // ABI 6

	// FSFileRights are the rights that apply to a file that is not a directory.
	FSFileRights = FSExecute | FSWriteFile | FSReadFile | FSTruncate | FSIoctlDev
)

// Known returns the file, network and scope rights Landlock ABI abi knows.
func Known(abi int) (fs, net, scoped uint64) {
	switch {
	case abi >= 5:
		fs = 1<<16 - 1
	case abi >= 3:
		fs = 1<<15 - 1
	case abi == 2:
		fs = 1<<14 - 1
	case abi == 1:
		fs = 1<<13 - 1
	}
	if abi >= 4 {
		net = NetBindTCP | NetConnectTCP
	}
	if abi >= 6 {
		scoped = ScopeAbstractUnixSocket | ScopeSignal
	}
	return fs, net, scoped
}
