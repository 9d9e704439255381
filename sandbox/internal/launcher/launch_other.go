//go:build !linux

package launcher

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"
	"syscall"
)

var errUnsupported = errors.New("not supported by this kernel")

// restrict fails: Landlock is Linux's. A plan that restricts nothing needs none.
func restrict(p *Plan, _ io.Writer) error {
	if !p.Restricts() {
		return nil
	}
	return errors.New("landlock: " + errUnsupported.Error())
}

// seclude fails: hiding processes and dropping capabilities are Linux's here.
func seclude(bool) error { return errors.New("seclusion: " + errUnsupported.Error()) }

// closeInherited does nothing: without Landlock nothing is confined here, so a
// descriptor the program inherits opens nothing it could not open itself.
func closeInherited() error { return nil }

// mkdirIn makes the directory name (mode 0700) in parent, refusing a parent
// that is a symlink (without the Linux launcher's openat, a check, then mkdir).
func mkdirIn(parent, name string) error {
	var st syscall.Stat_t
	if err := syscall.Lstat(parent, &st); err != nil {
		return err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return syscall.ENOTDIR
	}
	return syscall.Mkdir(parent+"/"+name, 0o700)
}

// Probe fails: there is no seclusion here.
func Probe(stderr io.Writer) int {
	io.WriteString(stderr, "seclusion is not supported here\n")
	return 1
}

func random() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}
