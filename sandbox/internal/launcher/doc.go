// Package launcher is the sandbox launcher itself: the code that runs when the
// server binary is re-executed as `mcp-terminal sandbox-exec PLAN PATH ARGV0
// [ARGS...]` to start a session's program. It reads a Plan the server computed
// once (Landlock masks and resolved paths, as plain numbers and strings), makes
// the session's TMPDIR, secludes the thread when asked (private /proc, no
// capabilities), restricts that one thread with Landlock and execs the program
// from it.
//
// It runs from this package's init, so as early as Go allows, and it imports
// only standard packages that are initialised before it anyway, and
// golang.org/x/sys/unix: none of the server's packages, whose initialisation (the
// danger rules' regular expressions) a launcher has no use for
// (integration/launcher_test.go checks with Go's init trace). It does no path resolution and no
// policy work; package sandbox does that, once, in the server.
package launcher
