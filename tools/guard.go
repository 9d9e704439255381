package tools

import (
	"strings"
	"sync"
	"time"

	"github.com/mcp-terminal/mcp-terminal/security/danger"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
)

// guard is what the tools remember about one session to guard it: the redaction
// stream (a private key printed across several results is still hidden), the secrets
// typed at its password prompts (a program may print them later), the lines refused
// (a confirmation lifts only a refusal it answers) and what its shells ran and defined
// (judging "!!" or an alias needs them).
type guard struct {
	stream *redact.Stream
	mem    danger.Memory
	dirSet sync.Once // mem.Dir, set by the first gate

	mu      sync.Mutex
	secrets []string
	refused map[string]refusedAt // line -> when and where it was refused
	// declined holds the lines a person declined: final for this session.
	declined map[string]bool
	// askedAt is when the person was asked, while the session's turn waits for them.
	askedAt time.Time
}

// maxSecrets and maxRefusals bound what is remembered per session; confirmWindow is
// how long a refusal can be confirmed.
const (
	maxSecrets    = 32
	maxRefusals   = 64
	maxDeclined   = 256
	confirmWindow = 5 * time.Minute
)

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

// lookup finds a session's guard without creating one.
func (g *guards) lookup(id string) *guard {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m[id]
}

// forget drops a closed session's guard; the session manager calls it whenever a
// session goes (Manager.OnRemove).
func (g *guards) forget(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.m, id)
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

// typedSpans returns where text holds a secret typed at a password prompt.
func (gd *guard) typedSpans(text string) [][2]int {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	var spans [][2]int
	for _, secret := range gd.secrets {
		for at := 0; ; {
			i := strings.Index(text[at:], secret)
			if i < 0 {
				break
			}
			spans = append(spans, [2]int{at + i, at + i + len(secret)})
			at += i + len(secret)
		}
	}
	return spans
}

// refusedAt is when a line was refused, and the directory it would have run in.
type refusedAt struct {
	at  time.Time
	dir string
}

// refuse remembers that line was refused now, typed in dir.
func (gd *guard) refuse(line, dir string) {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	if gd.refused == nil {
		gd.refused = make(map[string]refusedAt)
	}
	now := time.Now()
	for l, r := range gd.refused {
		if now.Sub(r.at) > confirmWindow {
			delete(gd.refused, l)
		}
	}
	if len(gd.refused) < maxRefusals {
		gd.refused[line] = refusedAt{at: now, dir: dir}
	}
}

// confirms reports whether line was refused within confirmWindow in the directory
// it is typed in now, and forgets that refusal: each is confirmed once. A cd since
// makes the same text mean another thing (rm -rf .git in the home directory, not
// the project's): what is confirmed must be what was refused.
func (gd *guard) confirms(line, dir string) bool {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	r, ok := gd.refused[line]
	delete(gd.refused, line)
	return ok && time.Since(r.at) <= confirmWindow && r.dir == dir
}

// decline remembers that a person declined line: it never runs in this session.
func (gd *guard) decline(line string) {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	if gd.declined == nil {
		gd.declined = make(map[string]bool)
	}
	if len(gd.declined) < maxDeclined {
		gd.declined[line] = true
	}
	delete(gd.refused, line)
}

// wasDeclined reports whether a person declined line in this session.
func (gd *guard) wasDeclined(line string) bool {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	return gd.declined[line]
}

// asking marks the session as waiting for a person, or no longer.
func (gd *guard) asking(on bool) {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	if on {
		gd.askedAt = time.Now()
	} else {
		gd.askedAt = time.Time{}
	}
}

// askedFor says how long a person has been asked, and whether one is.
func (gd *guard) askedFor() (time.Duration, bool) {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	if gd.askedAt.IsZero() {
		return 0, false
	}
	return time.Since(gd.askedAt), true
}
