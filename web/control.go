package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/mcp-terminal/mcp-terminal/session"
)

// typeTimeout bounds a person's wait for the session's turn (an agent's call that
// began before the take-over may still be running).
const typeTimeout = 10 * time.Second

// holderName is how a signed-in principal is named as a session's holder.
func holderName(principal string) string {
	if principal == "" {
		return "a person at the web view"
	}
	return "a person at the web view (" + principal + ")"
}

// controlled finds the session for a control request, or answers it.
func (s *Server) controlled(w http.ResponseWriter, r *http.Request) (*session.Session, string, bool) {
	sess, who, acc := s.access(r)
	switch acc {
	case noAccess:
		http.NotFound(w, r)
		return nil, "", false
	case viewOnly:
		reply(w, http.StatusForbidden, result{Error: "this link is for watching only: sign in to take control"})
		return nil, "", false
	}
	return sess, who, true
}

// result is what a control request answers, as JSON.
type result struct {
	Error   string   `json:"error,omitempty"`
	Refused *refused `json:"refused,omitempty"`
}

// refused is a line the danger rules or the policy refused.
type refused struct {
	Line        string `json:"line"` // "" when the terminal hides it
	Why         string `json:"why"`
	Confirmable bool   `json:"confirmable"`
}

func reply(w http.ResponseWriter, status int, res result) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(res)
}

func (s *Server) take(w http.ResponseWriter, r *http.Request) {
	sess, who, ok := s.controlled(w, r)
	if !ok {
		return
	}
	if err := sess.Take(holderName(who)); err != nil {
		reply(w, http.StatusConflict, result{Error: err.Error()})
		return
	}
	if s.cfg.Audit != nil {
		s.cfg.Audit(true, sess.ID, who, r.RemoteAddr)
	}
	s.releaseUnwatched(sess.ID, who) // a take with no page open does not lock the agent out
	reply(w, http.StatusOK, result{})
}

func (s *Server) give(w http.ResponseWriter, r *http.Request) {
	sess, who, ok := s.controlled(w, r)
	if !ok {
		return
	}
	if sess.Holder() == holderName(who) {
		sess.GiveBack(holderName(who))
		if s.cfg.Audit != nil {
			s.cfg.Audit(false, sess.ID, who, r.RemoteAddr)
		}
	}
	reply(w, http.StatusOK, result{})
}

// keys types keys (send_control names, space-separated) for the person holding the
// session.
func (s *Server) keys(w http.ResponseWriter, r *http.Request) {
	s.typeFor(w, r, false)
}

// confirm types a line the danger rules refused, which the person confirmed.
func (s *Server) confirm(w http.ResponseWriter, r *http.Request) {
	s.typeFor(w, r, true)
}

func (s *Server) typeFor(w http.ResponseWriter, r *http.Request, confirmed bool) {
	sess, who, ok := s.controlled(w, r)
	if !ok {
		return
	}
	if sess.Holder() != holderName(who) {
		reply(w, http.StatusConflict, result{Error: "take control first"})
		return
	}
	var body struct {
		Keys string `json:"keys"`
		Line string `json:"line"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&body); err != nil {
		reply(w, http.StatusBadRequest, result{Error: "bad request: " + err.Error()})
		return
	}
	keys, line := body.Keys, ""
	if confirmed {
		keys, line = "", body.Line
	}
	if keys == "" && line == "" {
		reply(w, http.StatusBadRequest, result{Error: "nothing to type"})
		return
	}
	var gate func(session.Pending) error
	if s.cfg.Gate != nil {
		gate = s.cfg.Gate(sess, who, r.RemoteAddr, confirmed)
	}
	ctx, cancel := context.WithTimeout(r.Context(), typeTimeout)
	defer cancel()
	ref, err := sess.Type(ctx, keys, line, gate)
	switch {
	case errors.Is(err, session.ErrUnknownKey):
		reply(w, http.StatusBadRequest, result{Error: err.Error()})
	case err != nil:
		reply(w, http.StatusConflict, result{Error: err.Error()})
	case ref != nil:
		res := &refused{Line: ref.Line, Why: ref.Error()}
		if s.cfg.Explain != nil {
			res.Line, res.Why, res.Confirmable = s.cfg.Explain(ref)
		}
		reply(w, http.StatusOK, result{Refused: res})
	default:
		reply(w, http.StatusOK, result{})
	}
}
