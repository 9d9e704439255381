// Package sandbox confines a session with Landlock: the server builds a Ruleset
// once from its settings (Build), checks what the kernel can enforce (KernelABI,
// Ruleset.Check), turns it into the launcher's plan of Landlock masks and paths
// (Launcher), and starts every session's program through itself re-executed as
// the launcher (sandbox/internal/launcher), which restricts the one thread that
// then execs the program. Everything the program starts inherits the
// restriction, whatever is typed.
//
// It imports no project package but its own launcher. Landlock exists on Linux
// only; elsewhere KernelABI reports 0 and the launcher refuses a plan that
// restricts anything (or, best-effort, runs the program unconfined and says so).
package sandbox
