// Package session owns terminal sessions: a session is one program on a PTY (package
// pty) whose output feeds a headless screen (package screen), with a completion
// detector (package detect) answering "is it ready for input again?".
//
// A session serialises the calls that type into it; calls on different sessions run
// in parallel. The Manager is the registry: it assigns short ids, enforces the limit on
// live sessions, reaps idle ones and ends every process on shutdown.
//
// A session can be recorded: Config.Tap gives it a Tap (tap.go) that receives its raw
// output, resizes and unhidden input; the command wires that to package record.
//
// session imports pty, screen and detect, and nothing that knows about MCP.
package session
