package main

import (
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-terminal/mcp-terminal/auth"
)

// mcpSessions are the session-based era's MCP sessions, each bound to the principal
// that initialized it. mcp-go's default checks only an id's form: any well-formed id
// worked without initialize, for anyone, and went on working after DELETE. Here an
// id another principal initialized, one never issued, or one ended is answered 404,
// as the specification asks (a client then initializes again). Terminal sessions
// belong to principals, not to MCP sessions, and outlive them either way.
type mcpSessions struct {
	mu     sync.Mutex
	ids    map[string]*mcpSession
	pruned time.Time
}

type mcpSession struct {
	principal string
	used      time.Time
}

// mcpSessionIdle is how long an MCP session id no request uses is kept.
const mcpSessionIdle = 24 * time.Hour

// maxMCPSessions bounds the ids kept; beyond it the least recently used goes.
const maxMCPSessions = 100000

var errMCPSession = errors.New("unknown MCP session")

func newMCPSessions() *mcpSessions { return &mcpSessions{ids: map[string]*mcpSession{}} }

// ResolveSessionIdManager is mcp-go's hook: the ids of the request's principal.
func (m *mcpSessions) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	return principalIDs{m: m, principal: principalOf(r)}
}

func principalOf(r *http.Request) string {
	if r != nil {
		if p, ok := auth.FromContext(r.Context()); ok {
			return p.Name
		}
	}
	return ""
}

// guardDelete answers a DELETE of an MCP session that is not the caller's (another
// principal's, never issued, or ended) with 404 before mcp-go, which would answer
// 500 and clean up the session's state whoever asked.
func (m *mcpSessions) guardDelete(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get(server.HeaderKeySessionID); r.Method == http.MethodDelete && id != "" {
			m.mu.Lock()
			s, ok := m.ids[id]
			mine := ok && s.principal == principalOf(r)
			m.mu.Unlock()
			if !mine {
				http.Error(w, "Session not found", http.StatusNotFound)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

type principalIDs struct {
	m         *mcpSessions
	principal string
}

func (p principalIDs) Generate() string {
	id := "mcp-session-" + uuid.NewString()
	now := time.Now()
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	p.m.pruneLocked(now)
	p.m.ids[id] = &mcpSession{principal: p.principal, used: now}
	return id
}

func (p principalIDs) Validate(id string) (bool, error) {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	s, ok := p.m.ids[id]
	if !ok || s.principal != p.principal {
		return false, errMCPSession
	}
	s.used = time.Now()
	return false, nil
}

func (p principalIDs) Terminate(id string) (bool, error) {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	if s, ok := p.m.ids[id]; !ok || s.principal != p.principal {
		return false, errMCPSession
	}
	delete(p.m.ids, id)
	return false, nil
}

// pruneLocked drops ids unused for mcpSessionIdle (looking at most once a minute)
// and, over maxMCPSessions, the least recently used.
func (m *mcpSessions) pruneLocked(now time.Time) {
	if len(m.ids) < maxMCPSessions && now.Sub(m.pruned) < time.Minute {
		return
	}
	m.pruned = now
	var oldest string
	for id, s := range m.ids {
		if now.Sub(s.used) > mcpSessionIdle {
			delete(m.ids, id)
		} else if oldest == "" || s.used.Before(m.ids[oldest].used) {
			oldest = id
		}
	}
	if len(m.ids) >= maxMCPSessions {
		delete(m.ids, oldest)
	}
}
