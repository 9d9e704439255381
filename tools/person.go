package tools

import (
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// A person at the live view (package web) types through the same rules as the agent:
// the policy, the danger rules (a person's click on "confirm" replaces
// confirm_dangerous_command) and the audit log, with actor "web".

// personConfirmation is the justification the audit log records for a line a person
// confirmed in the web view.
const personConfirmation = "confirmed by a person in the web view"

// PersonGate returns the gate for keys a person types into sess from the web view as
// principal. With confirmed, a line refused within the confirmation window runs.
func (s *Server) PersonGate(sess *session.Session, principal, remoteAddr string, confirmed bool) func(session.Pending) error {
	t := &typed{id: sess.ID, sess: sess, who: Caller{Principal: principal, RemoteAddr: remoteAddr, Actor: "web"}}
	if confirmed {
		t.confirm = personConfirmation
	}
	gate := s.gate(t)
	gd := s.guards.get(sess.ID, s.cfg.Redactor)
	return func(p session.Pending) error {
		if err := gate(p); err != nil {
			return err
		}
		if !p.Enter {
			return nil
		}
		if p.Hidden {
			gd.remember(p.Line) // a secret the person typed stays out of the agent's results
		}
		if !p.Screen || p.Line == p.Text { // else the gate recorded the line already
			s.record(t.who, redact.Event{Kind: redact.EventInput, Session: t.id, Input: p.Line, Hidden: p.Hidden})
		}
		mark(sess, "person: "+p.Line, p.Hidden)
		return nil
	}
}

// PersonRefusal explains a line the gate refused to a person: what was judged (unless
// hidden) and why.
func PersonRefusal(ref *session.Refusal) (line, why string, confirmable bool) {
	r, ok := ref.Err.(*refusedInput)
	if !ok {
		return ref.Line, ref.Err.Error(), false
	}
	if r.hidden {
		return "", r.why, false
	}
	return r.line, r.why, !r.blocked && !r.person // a decline is final: no button that cannot work
}

// AuditPerson records a person taking or giving back a session's keyboard.
func (s *Server) AuditPerson(kind redact.EventKind, sessionID, principal, remoteAddr string) {
	s.record(Caller{Principal: principal, RemoteAddr: remoteAddr, Actor: "web"}, redact.Event{Kind: kind, Session: sessionID})
	if sess, err := s.sessions.Get(sessionID); err == nil {
		sess.Mark("person: " + string(kind)) // take_over, give_back: who typed what follows
	}
}

func (s *Server) watchURL(id string) string {
	if s.cfg.WatchURL == nil {
		return ""
	}
	return s.cfg.WatchURL(id)
}

// TypedSecrets returns where text, shown by the live view of a session, holds a
// secret typed at one of its password prompts: the agent's results never show
// those, so neither may the view.
func (s *Server) TypedSecrets(sessionID, text string) [][2]int {
	return s.guards.get(sessionID, s.cfg.Redactor).typedSpans(text)
}
