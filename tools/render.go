package tools

import (
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// render prepares one session's output for the agent: secrets redacted first (so
// truncation can never leave half a secret), then head and tail kept within limit.
func (s *Server) render(id, output string, limit int) (string, bool) {
	return truncate(s.guards.get(id, s.cfg.Redactor).clean(output), limit)
}

func (s *Server) audit(e redact.Event) { s.cfg.Audit.Record(e) }

func describe(st *session.ExitStatus) string {
	if st == nil {
		return "still running"
	}
	return st.String()
}
