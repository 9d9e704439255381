//go:build !linux

package sandbox

import (
	"fmt"
	"io"
)

// seclude fails: hiding processes and dropping capabilities are Linux's here.
func seclude(*Ruleset) error { return fmt.Errorf("seclusion: %w", ErrUnsupported) }

func probeMain(stderr io.Writer) int {
	fmt.Fprintln(stderr, "seclusion is not supported here")
	return 1
}
