// Package pty owns the operating-system side of a terminal session: it starts a
// program in a new session (setsid) with the slave side of a fresh
// pseudo-terminal as its controlling terminal, reads and writes the master side,
// resizes it, signals the foreground process group, inspects the foreground
// program (name, working directory, echo flag), and at the end kills and reaps
// every process of the session, background jobs and double-forked children
// included.
//
// It imports no project package; only the standard library and
// github.com/creack/pty (for opening the pseudo-terminal pair).
//
// Two steps change the whole host process, so the program takes them once at
// startup rather than Start on first use: BecomeSubreaper, and SealInherited, which
// keeps descriptors the host inherited from reaching the sessions' programs.
//
// Linux is the primary platform: there /proc is used to walk every process of
// a session and BecomeSubreaper makes orphans come back to the server. One
// reaper goroutine, woken by SIGCHLD, collects every child the server has as
// soon as it exits: session leaders, whose status goes to their Process, and
// adopted orphans, so none lingers as a zombie while its session lives. Close
// ends the orphans tied to its session; KillOrphans ends the rest at shutdown.
// Elsewhere (macOS) Close falls back to signalling the leader's process group
// and the terminal's foreground group, and ProcessName and Cwd return "".
package pty
