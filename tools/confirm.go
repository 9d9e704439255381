package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-terminal/mcp-terminal/security/danger"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// Confirmation by a person. When the client can elicit (it declared the
// elicitation capability), dangerous input is put to the person at the keyboard
// instead of to the agent: the gate asks inside the session's turn, at the line
// that is dangerous, and types it only if the person accepts. The session's turn
// is held while the person decides, so what they are shown is what runs; other
// typing calls on that session meanwhile get a tool error saying a person is being
// asked (calls already waiting for the turn keep waiting), and reading works.
//
// Two protocol eras ask differently. Before 2026-07-28 the server sends
// elicitation/create and waits for the reply (askLegacy). From 2026-07-28 a server
// cannot send requests: the tool call returns input_required with the question, and
// the client retries the call with the answer (asks, in ask.go). Both block the
// same gate, so a multi-line input asks at the right line either way.

// ConfirmMode says who confirms dangerous input.
type ConfirmMode string

const (
	ConfirmAuto  ConfirmMode = "auto"  // a person when the client can elicit, else the agent
	ConfirmHuman ConfirmMode = "human" // a person only: refused outright when the client cannot elicit
	ConfirmAgent ConfirmMode = "agent" // the agent, with confirm_dangerous_command
)

// question is what a person is asked about one dangerous line.
type question struct {
	session, command, program string
	line                      string
	hidden                    bool
	verdict                   danger.Verdict
	justification             string // the agent's, when it came through confirm_dangerous_command
}

// answer is a person's answer; timedOut means none came within the limit, err
// that they could not be asked.
type answer struct {
	action   mcp.ElicitationResponseAction
	timedOut bool
	err      error
}

// asker asks a person one question and waits for the answer within the limit.
type asker func(question) answer

// askKey names the question in an input_required result and its answer on retry.
const askKey = "confirm_dangerous_input"

// params is the elicitation a person sees: the exact input (control characters
// made visible; hidden input is said to be hidden, never shown), the session, the
// rule and what it would do. Accepting runs it: the form asks for nothing else.
func (q question) params() mcp.ElicitationParams {
	var b strings.Builder
	where := fmt.Sprintf("terminal session %s (%s", q.session, q.command)
	if q.program != "" && q.program != programName(q.command) {
		where += ", now running " + q.program
	}
	where += ")"
	if q.hidden {
		fmt.Fprintf(&b, "The AI agent wants to type hidden input into %s: the terminal is asking for something it does not show (a password or similar), so it is not shown here either.\n\n", where)
	} else {
		fmt.Fprintf(&b, "The AI agent wants to type this into %s and press Enter:\n\n", where)
		for _, l := range strings.Split(visible(q.line), "\n") {
			b.WriteString("    " + l + "\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "It matches danger rule %s (%s): %s.\n", q.verdict.Rule, q.verdict.Category, strings.TrimRight(q.verdict.Why, ". "))
	if q.justification != "" {
		fmt.Fprintf(&b, "The agent's justification: %s\n", visible(q.justification))
	}
	b.WriteString("\nAccept to run it exactly as shown. Decline to refuse it for good in this session. Cancel to refuse it this time only.")
	return mcp.ElicitationParams{
		Mode:            mcp.ElicitationModeForm,
		Message:         b.String(),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	}
}

// visible shows control and format characters (escape sequences, carriage
// returns, bidirectional overrides) as escapes, so the text a person reads is the
// text that is typed, and nothing in it can redraw or reorder what they see.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// confirmer is how a call's dangerous input gets confirmed.
type confirmer int

const (
	byAgent  confirmer = iota // confirm_dangerous_command
	byLegacy                  // elicitation/create, inside the call
	byModern                  // input_required, and the client's retry
	byNobody                  // a person must, and this client cannot ask one
)

// confirmerFor picks the confirmer for a call, from the mode and what the client
// declared: with the 2026-07-28 protocol, in the request itself; before it, at
// initialize.
func (s *Server) confirmerFor(ctx context.Context) confirmer {
	if s.cfg.Confirm == ConfirmAgent || !s.cfg.DangerDetection {
		return byAgent
	}
	can, modern := canElicit(ctx)
	switch {
	case can && modern:
		return byModern
	case can:
		return byLegacy
	case s.cfg.Confirm == ConfirmHuman:
		return byNobody
	}
	return byAgent
}

// canElicit reports whether the client can show a person a form, and whether it
// speaks the 2026-07-28 protocol.
func canElicit(ctx context.Context) (can, modern bool) {
	var caps *mcp.ClientCapabilities
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		caps, modern = info.ClientCapabilities, true
	} else if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		c := cs.GetClientCapabilities()
		caps = &c
	}
	if caps == nil || caps.Elicitation == nil {
		return false, modern
	}
	e := caps.Elicitation
	return e.Form != nil || e.URL == nil, modern // no mode named: form, as before modes existed
}

// askLegacy asks with elicitation/create and waits for the reply within the
// limit; the call's progress notifications say meanwhile that a person is asked.
func (s *Server) askLegacy(ctx context.Context) asker {
	srv := server.ServerFromContext(ctx)
	return func(q question) answer {
		if srv == nil {
			return answer{err: errors.New("no MCP server in the call's context")}
		}
		actx, cancel := context.WithTimeout(ctx, s.cfg.ConfirmTimeout)
		defer cancel()
		res, err := srv.RequestElicitation(actx, mcp.ElicitationRequest{
			Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
			Params:  q.params(),
		})
		switch {
		case err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded):
			return answer{timedOut: true}
		case err != nil:
			return answer{err: err}
		case res == nil:
			return answer{err: errors.New("the client returned no answer")}
		}
		return answer{action: res.Action}
	}
}

// askPerson puts a dangerous line to a person and lets it through only if they
// accept. A decline is remembered: that line is refused from then on in this
// session, whoever sends it.
func (s *Server) askPerson(t *typed, gd *guard, p session.Pending, v danger.Verdict) error {
	q := question{session: t.id, command: t.sess.Command, program: p.Program, line: p.Line, hidden: p.Hidden, verdict: v, justification: t.confirm}
	gd.asking(true)
	a := t.ask(q)
	gd.asking(false)
	ev := redact.Event{Kind: redact.EventRefused, Session: t.id, Input: p.Line, Hidden: p.Hidden, Rule: v.Rule, Justification: t.confirm}
	ref := &refusedInput{line: p.Line, hidden: p.Hidden, person: true}
	switch {
	case a.err != nil:
		ev.Detail = "a person could not be asked: " + a.err.Error()
		ref.why = fmt.Sprintf("it matches danger rule %s, and the person at the client could not be asked to confirm it (%v)", v.Rule, a.err)
	case a.timedOut:
		ev.Detail = "no answer from a person"
		ref.why = fmt.Sprintf("it matches danger rule %s, and the person asked to confirm it gave no answer within %s", v.Rule, s.cfg.ConfirmTimeout.String())
	case a.action == mcp.ElicitationResponseActionAccept:
		s.record(t.who, redact.Event{Kind: redact.EventConfirmed, Session: t.id, Input: p.Line, Hidden: p.Hidden, Rule: v.Rule, Justification: t.confirm, ConfirmedBy: "human"})
		return nil
	case a.action == mcp.ElicitationResponseActionDecline:
		gd.decline(p.Line)
		ev.Detail = "declined by a person"
		ref.why = fmt.Sprintf("it matches danger rule %s, and the person asked to confirm it declined. A decline is final: this input will not run in this session, through confirm_dangerous_command or otherwise", v.Rule)
	default:
		ev.Detail = "cancelled by a person"
		ref.why = fmt.Sprintf("it matches danger rule %s, and the person asked to confirm it cancelled the question without deciding. Sending it again asks again", v.Rule)
	}
	s.record(t.who, ev)
	return ref
}

// busyAsking is the tool error for a typing call on a session whose turn is held
// while a person decides.
func busyAsking(toolName, id string, since time.Duration, limit time.Duration) *mcp.CallToolResult {
	return toolError("%s: session %s is waiting for a person to confirm dangerous input (asked %s ago; the question lapses after %s). "+
		"Nothing was typed. Try again once they have answered; read_output works meanwhile.", toolName, id, since.Round(time.Second).String(), limit.String())
}
