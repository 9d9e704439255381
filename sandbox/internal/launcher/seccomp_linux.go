//go:build linux

package launcher

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// denyStreams installs on the calling thread (the one that execs, as with
// Landlock) a seccomp filter that refuses with EACCES the sockets the network
// switch must keep out and Landlock's TCP rules do not cover: IPv4 and IPv6
// sockets of any type but datagrams (TCP, Multipath TCP, SCTP, raw), and packet
// sockets. Landlock checks connect and bind, but a TCP Fast Open sendto connects
// without connect, and listen on an unbound socket binds a port without bind,
// on every interface (probe 10). UDP stays, as the README says. A 32-bit
// program's socket calls (i386's socketcall hides its arguments) are refused
// whole.
func denyStreams() error {
	native, compat, err := seccompArch()
	if err != nil {
		return err
	}
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		and   = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		allow = unix.SECCOMP_RET_ALLOW
		deny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
		// seccomp_data: nr, arch, instruction pointer, then the arguments (the
		// low half of each first, on these little-endian machines).
		offNr, offArch, offArg0, offArg1 = 0, 4, 16, 24
	)
	// The program, with jumps to labels: each is resolved to the offset from the
	// instruction after it, as classic BPF counts.
	type insn struct {
		code   uint16
		k      uint32
		jt, jf string // labels; "" is the next instruction
		label  string
	}
	prog := []insn{
		{code: ld, k: offArch},
		{code: jeq, k: native.arch, jf: "compat"},
		{code: ld, k: offNr},
		{code: jeq, k: native.socket, jt: "family"},
		{code: jeq, k: native.socket | native.x32, jf: "allow"},
		{label: "family", code: ld, k: offArg0},
		{code: jeq, k: unix.AF_PACKET, jt: "deny"},
		{code: jeq, k: unix.AF_INET, jt: "type"},
		{code: jeq, k: unix.AF_INET6, jf: "allow"},
		{label: "type", code: ld, k: offArg1},
		{code: and, k: 0xf}, // the type, without SOCK_NONBLOCK and SOCK_CLOEXEC
		{code: jeq, k: unix.SOCK_DGRAM, jt: "allow", jf: "deny"},
		{label: "compat", code: jeq, k: compat.arch, jf: "allow"},
		{code: ld, k: offNr},
		{code: jeq, k: compat.socket, jt: "deny"},
		{code: jeq, k: compat.socketcall, jt: "deny", jf: "allow"},
		{label: "deny", code: ret, k: deny},
		{label: "allow", code: ret, k: allow},
	}
	at := map[string]int{}
	for i, in := range prog {
		if in.label != "" {
			at[in.label] = i
		}
	}
	filter := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		off := func(label string) uint8 {
			if label == "" {
				return 0
			}
			return uint8(at[label] - i - 1)
		}
		filter[i] = unix.SockFilter{Code: in.code, K: in.k, Jt: off(in.jt), Jf: off(in.jf)}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return nil
}

// filterArch names an architecture's audit number and socket system calls for
// the filter; x32 is the flag x32's calls carry on x86-64, socketcall the
// multiplexer of i386 (no such call elsewhere: an impossible number).
type filterArch struct{ arch, socket, x32, socketcall uint32 }

const noCall = 0xffffffff

func seccompArch() (native, compat filterArch, err error) {
	switch runtime.GOARCH {
	case "amd64":
		return filterArch{arch: unix.AUDIT_ARCH_X86_64, socket: 41, x32: 0x40000000},
			filterArch{arch: unix.AUDIT_ARCH_I386, socket: 359, socketcall: 102}, nil
	case "arm64":
		return filterArch{arch: unix.AUDIT_ARCH_AARCH64, socket: 198},
			filterArch{arch: unix.AUDIT_ARCH_ARM, socket: 281, socketcall: noCall}, nil
	}
	return filterArch{}, filterArch{}, fmt.Errorf("seccomp: no socket filter for %s", runtime.GOARCH)
}
