package tools

import (
	"errors"
	"strings"
	"sync"

	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// guard is what the tools remember about one session to keep secrets out of its
// results: the redaction stream (a private key printed across several results is
// still hidden) and the secrets typed at its password prompts (a program may print
// them later).
type guard struct {
	stream *redact.Stream

	mu      sync.Mutex
	secrets []string
}

// maxSecrets bounds the secrets remembered per session.
const maxSecrets = 32

// guards maps session ids to their guards.
type guards struct {
	mu sync.Mutex
	m  map[string]*guard
}

func (g *guards) get(id string, r *redact.Redactor) *guard {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = make(map[string]*guard)
	}
	gd := g.m[id]
	if gd == nil {
		gd = &guard{stream: r.Stream()}
		g.m[id] = gd
	}
	return gd
}

// prune forgets the guards of sessions that no longer exist (closed, or reaped
// after being idle).
func (g *guards) prune(sessions *session.Manager) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for id := range g.m {
		if _, err := sessions.Get(id); errors.Is(err, session.ErrUnknown) {
			delete(g.m, id)
		}
	}
}

func (gd *guard) remember(secret string) {
	gd.stream.Answered() // the prompt before it got its value, unseen
	if len(strings.TrimSpace(secret)) < 3 {
		return
	}
	gd.mu.Lock()
	defer gd.mu.Unlock()
	if len(gd.secrets) == maxSecrets {
		gd.secrets = gd.secrets[1:]
	}
	gd.secrets = append(gd.secrets, secret)
}

// clean redacts known formats (statefully) and every remembered secret.
func (gd *guard) clean(out string) string {
	return gd.typed(gd.stream.Redact(out))
}

// peek redacts a look at the screen between results (a progress message) as clean
// would, without advancing the stream: the next result is still judged after the
// last one.
func (gd *guard) peek(screen string) string {
	return gd.typed(gd.stream.Peek(screen))
}

// typed replaces every secret typed at a password prompt.
func (gd *guard) typed(out string) string {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	for _, secret := range gd.secrets {
		out = strings.ReplaceAll(out, secret, "[REDACTED:typed-secret]")
	}
	return out
}
