package tools

import (
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// markRedactor redacts recording markers as the audit log redacts input: always,
// whatever MCP_TERMINAL_REDACT_SECRETS says about replies.
var markRedactor = redact.NewRedactor(true)

// mark labels an agent's input in the session's recording: the text as the audit
// log holds it, or "hidden" for what was typed at a hidden prompt.
func mark(sess *session.Session, input string, hidden bool) {
	switch {
	case !sess.Recorded():
	case hidden:
		sess.Mark("hidden")
	default:
		sess.Mark(markRedactor.Redact(input))
	}
}

// RecordFilter returns what a recording of session id passes its output through: the
// redaction the replies get (when MCP_TERMINAL_REDACT_SECRETS is on), with a stream
// of its own, and the replacement of every secret typed at one of the session's
// hidden prompts, which replies get always. A recording then holds no secret a
// reply hid.
func (s *Server) RecordFilter(id string) func(string) string {
	stream := s.cfg.Redactor.Stream()
	return func(out string) string {
		out = stream.Redact(out)
		if gd := s.guards.lookup(id); gd != nil {
			out = gd.typed(out)
		}
		return out
	}
}
