package tools

import (
	"context"
	"fmt"

	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// Caller is who makes a tool call. Over HTTP the transport puts one in every
// request's context (WithCaller); on stdio there is none, and the zero Caller owns
// every session, as the one client on stdio does.
type Caller struct {
	Principal  string // sessions belong to it
	RemoteAddr string
	Claims     *redact.Claims // non-secret claims of a JWT; nil for a static token
	Actor      string         // who typed, for the audit log: "" (the agent) or "web" (a person in the live view)
}

type callerKey struct{}

// WithCaller returns ctx carrying c, for the transport's context function.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerFrom(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

// Ownership is enforced here and only here: every tool finds (and close_session
// checks) sessions through session, and lists them through ownSessions. Another principal's session is answered
// exactly like one that does not exist, so ids say nothing about who else is here.

// session finds one of the caller's sessions.
func (s *Server) session(ctx context.Context, id string) (*session.Session, error) {
	sess, err := s.sessions.Get(id)
	if err != nil {
		return nil, err
	}
	if sess.Owner != callerFrom(ctx).Principal {
		return nil, fmt.Errorf("%w %q", session.ErrUnknown, id)
	}
	return sess, nil
}

// ownSessions describes the caller's sessions, oldest first.
func (s *Server) ownSessions(ctx context.Context) []session.Info {
	who := callerFrom(ctx).Principal
	var own []session.Info
	for _, in := range s.sessions.List() {
		if in.Owner == who {
			own = append(own, in)
		}
	}
	return own
}

// audit records e with who made the call.
func (s *Server) audit(ctx context.Context, e redact.Event) { s.record(callerFrom(ctx), e) }

// record records e as made by c, where the call's context is out of reach.
func (s *Server) record(c Caller, e redact.Event) {
	e.Principal, e.RemoteAddr, e.Claims = c.Principal, c.RemoteAddr, c.Claims
	if e.Actor = c.Actor; e.Actor == "" && e.Session != "" {
		e.Actor = "agent"
	}
	s.cfg.Audit.Record(e)
}
