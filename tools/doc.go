// Package tools is the MCP face of mcp-terminal: its seven tools, their schemas,
// their handlers and the way results read to a model.
//
// The tools, whose names and parameter names follow mcp-interactive-terminal so that
// existing prompts and permission lists carry over:
//
//   - create_session starts a program on a terminal and returns its session_id (8 hex
//     characters) and startup screen.
//   - send_command types input and returns the new output it caused.
//   - send_control presses keys (ctrl+c, escape : w q enter) and may resize.
//   - confirm_dangerous_command types input that send_command refused, with a
//     justification that goes to the audit log.
//   - read_output returns the screen, or waits for a pattern in output no reply has
//     returned yet.
//   - list_sessions and close_session.
//
// What send_command, send_control and confirm_dangerous_command return is the new
// output caused by their input: everything printed after its echo, up to and
// including the line the cursor is on (usually the next prompt), with no escape
// sequences and nothing repeated from earlier replies. is_complete is true only on
// evidence that the program is ready for input again, and reason names it. Output
// longer than max_output_chars keeps its beginning and end around a marker that says
// how much was left out; it is never cut silently.
//
// Every result carries structuredContent (declared with an output schema) and a text
// item written for a model: the output itself, then one short status line such as
// "[complete: shell_mark · exit 0 · 4 ms]", then any warning, so a client that
// ignores structured content loses nothing. Failures the agent can act on (unknown
// session, session exited, bad argument, command not found, limit reached, dangerous
// input) are tool errors (isError) whose text says what happened and what to do
// next; Go errors are kept for bugs. All four annotation hints are set on every tool.
//
// Each tool's input schema is derived from an argument struct (args.go) and states
// the server's configured defaults (Config); each call is checked against it before
// its handler runs (validate.go).
//
// Over HTTP every call carries a Caller (WithCaller, from the transport's context
// function): sessions belong to its principal, and caller.go is the one place that
// enforces it, answering another principal's session id exactly like an unknown one.
// Audit records name the caller.
//
// tools is the only library package that knows mcp-go. It imports session,
// security/danger, security/policy, security/redact and screen.
package tools
