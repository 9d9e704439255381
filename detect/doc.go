// Package detect decides when the program in a terminal session is ready for input
// again, and names the evidence it used.
//
// The tools' contract: is_complete is true only on positive evidence that the program
// is ready for input again or has exited, and reason names the evidence (the README
// lists the reasons under "Tools"); quiet output alone is not evidence. A Detector is
// a small set of independent signals (process exit, a wait_for pattern, a known prompt
// at the cursor, quiet output) checked against a State, the session's view of one
// instant. Signals are plain functions so later evidence (shell integration marks,
// input-wait) is an addition, not a rewrite.
//
// detect imports only the screen package, and only for its value types.
package detect
