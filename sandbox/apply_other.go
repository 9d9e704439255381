//go:build !linux

package sandbox

import "fmt"

// MaxABI is the newest Landlock ABI this package builds rules for.
const MaxABI = 8

// KernelABI is 0: Landlock is Linux's.
func KernelABI() int { return 0 }

// Apply fails: there is no Landlock here.
func Apply(rs *Ruleset, abi int) error { return fmt.Errorf("landlock: %w", ErrUnsupported) }
