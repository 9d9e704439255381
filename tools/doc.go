// Package tools is the MCP face of mcp-terminal: the seven tools of SPEC.md, their
// schemas, their handlers and the way results read to a model.
//
// Every result carries structuredContent (declared with an output schema) and a text
// item written for a model: the output itself, then one short status line such as
// "[complete: prompt · exit 0 · 4 ms]". Failures the agent can act on are tool errors
// (isError) whose text says what happened and what to do next; Go errors are kept for
// bugs.
//
// tools is the only library package that knows mcp-go. It imports session, security
// and screen.
package tools
