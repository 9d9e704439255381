// Package sandbox confines a session with Landlock: the server builds a Ruleset
// once from its settings (Build), checks what the kernel can enforce (Support,
// Ruleset.Check), and starts every session's program through itself re-executed as
// a launcher (Launcher, Main) that applies the ruleset to itself and then execs the
// program. Everything the program starts inherits the restriction, whatever is
// typed.
//
// It imports no project package. Landlock exists on Linux only; elsewhere Support
// reports ABI 0 and Apply fails.
package sandbox
