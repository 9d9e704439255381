package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// With the 2026-07-28 protocol a server cannot ask the client anything in the
// middle of a call: the call returns input_required, carrying the question and an
// opaque request state, and the client retries the call with the person's answer.
// To keep the session's turn (and the gate's place in a multi-line input) across
// that round trip, the call types in a goroutine of its own; its gate hands the
// question to whichever handler is waiting, and blocks until the retry brings the
// answer or the limit passes. The request state names the open question here; the
// client cannot change what runs by changing it.

// ask is one call whose typing runs across round trips.
type ask struct {
	id        string // the request state
	session   string
	tool      string
	principal string // who made the call (HTTP); only they can answer

	questions chan question            // gate -> the handler waiting
	answers   chan answer              // the retry's handler -> gate (buffered: the gate may have given up)
	done      chan *mcp.CallToolResult // the typing's result (buffered: its handler may be gone)
	cancel    context.CancelFunc       // ends the typing when the client gives up on the call
}

// asks are the calls waiting for a retry, by request state.
type asks struct {
	mu sync.Mutex
	m  map[string]*ask
}

func (as *asks) add(a *ask) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if as.m == nil {
		as.m = make(map[string]*ask)
	}
	as.m[a.id] = a
}

func (as *asks) get(id string) *ask {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.m[id]
}

func (as *asks) drop(id string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	delete(as.m, id)
}

// end stops the typing of the calls waiting for an answer about session id (it
// was closed), and forgets their questions.
func (as *asks) end(id string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	for state, a := range as.m {
		if a.session == id {
			a.cancel()
			delete(as.m, state)
		}
	}
}

// runAsking types as run does, in a goroutine that lives until the typing ends:
// at most the call's timeout plus, per dangerous line, the limit on a person's
// answer. Its owner is the ask: whichever handler receives done (or the
// limit, when no retry comes) ends it.
func (s *Server) runAsking(ctx context.Context, t typed, toolName string) *mcp.CallToolResult {
	a := &ask{id: newRequestState(), session: t.id, tool: toolName, principal: t.who.Principal,
		questions: make(chan question), answers: make(chan answer, 1), done: make(chan *mcp.CallToolResult, 1)}
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	a.cancel = cancel
	t.token = nil // a progress token belongs to the request that carried it, which ends at the question
	t.ask = func(q question) answer {
		select {
		case a.questions <- q:
		case <-bg.Done():
			return answer{err: bg.Err()}
		}
		limit := time.NewTimer(s.cfg.ConfirmTimeout)
		defer limit.Stop()
		select {
		case ans := <-a.answers:
			return ans
		case <-limit.C:
			s.asks.drop(a.id) // a retry from now on finds no question
			return answer{timedOut: true}
		case <-bg.Done():
			return answer{err: bg.Err()}
		}
	}
	s.asks.add(a)
	go func() {
		defer cancel()
		a.done <- s.run(bg, t, toolName)
	}()
	return s.await(ctx, a)
}

// await returns what the typing does next: a question for the person (as an
// input_required result) or its result.
func (s *Server) await(ctx context.Context, a *ask) *mcp.CallToolResult {
	select {
	case q := <-a.questions:
		return server.NewInputRequestBuilder(a.id).Elicit(askKey, q.params()).ToolResult()
	case res := <-a.done:
		s.asks.drop(a.id)
		return res
	case <-ctx.Done():
		a.cancel() // the client gave up on the call: stop waiting for its output
		s.asks.drop(a.id)
		return <-a.done
	}
}

// resumed answers a retry that carries a person's answer: it hands the answer to
// the waiting gate and returns what follows. It returns nil for a first call.
func (s *Server) resumed(ctx context.Context, req mcp.CallToolRequest, toolName, sessionID string) *mcp.CallToolResult {
	state := req.Params.RequestState
	if state == "" && len(req.Params.InputResponses) == 0 {
		return nil
	}
	a := s.asks.get(state)
	if a != nil && a.principal != callerFrom(ctx).Principal {
		a = nil // another principal's question is answered like one that does not exist
	}
	if a == nil {
		return toolError("%s: this retry answers a question that is no longer open (it was answered already, or no answer came within %s, and the input stopped there). "+
			"Nothing more was typed; read_output shows the session. Send the input again to ask again.", toolName, s.cfg.ConfirmTimeout.String())
	}
	if a.session != sessionID || a.tool != toolName {
		return toolError("%s: the request state belongs to a %s call on session %s, not to this one; nothing was typed.", toolName, a.tool, a.session)
	}
	ans := answer{action: mcp.ElicitationResponseActionCancel} // a retry without the answer decides nothing
	if res := server.ElicitationResponse(req.Params.InputResponses, askKey); res != nil {
		ans.action = res.Action
	}
	select {
	case a.answers <- ans:
	default: // answered already by a duplicate retry; the first answer stands
	}
	return s.await(ctx, a)
}

// newRequestState is an unguessable name for an open question.
func newRequestState() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err)) // never fails on Linux since Go 1.24
	}
	return "confirm-" + hex.EncodeToString(b)
}
