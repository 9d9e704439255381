//go:build !linux

package launcher

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"
)

var errUnsupported = errors.New("not supported by this kernel")

// restrict fails: Landlock is Linux's. A plan that restricts nothing needs none.
func restrict(p *Plan) error {
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
