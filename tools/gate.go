package tools

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/mcp-terminal/mcp-terminal/security/danger"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// The gate judges every line inside the session's turn, just before it is typed, with
// the rules of the program then in front: a multi-line input that starts sqlite3 has
// its later lines judged as SQL, a line finished at the shell's prompt by several calls
// (or edited there, or recalled from history) is judged as the prompt shows it when
// Enter is pressed, and input the terminal hides is checked like any other, only never
// logged or shown.

// refusedInput is a line the gate refused.
type refusedInput struct {
	line    string
	hidden  bool
	blocked bool // by the allow/block lists or allowed paths: no confirmation lifts it
	why     string
}

func (e *refusedInput) Error() string { return e.why }

// gate returns the session.Input.Gate for one typing call.
func (s *Server) gate(t *typed) func(session.Pending) error {
	return func(p session.Pending) error {
		if !p.Enter {
			return nil // text left at the prompt runs nothing until its Enter, judged then
		}
		ctx := contextFor(p.Program, p.Prompt, t.sess.Command)
		audited := p.Line
		if err := s.cfg.Policy.CheckInput(ctx, p.Line, t.sess.Cwd()); err != nil {
			s.audit(redact.Event{Kind: redact.EventBlocked, Session: t.id, Input: audited, Hidden: p.Hidden, Detail: err.Error()})
			return &refusedInput{line: p.Line, hidden: p.Hidden, blocked: true, why: strings.TrimRight(err.Error(), ". ")}
		}
		mem := s.memories.of(t.id, ctx)
		if s.cfg.DangerDetection {
			// The line as the screen shows it, then what was typed since the last Enter
			// and what this call typed on their own: a line the screen shows in pieces
			// (a loop continued over several lines, text typed before the prompt was
			// drawn) must not hide what runs.
			v := danger.ClassifyIn(ctx, p.Line, mem)
			for _, text := range []string{p.Pieces, p.Text} {
				if v.Dangerous {
					break
				}
				if text != p.Line && strings.TrimSpace(text) != "" {
					v = danger.ClassifyIn(ctx, text, mem)
				}
			}
			if v.Dangerous {
				if t.confirm != "" && s.refusals.take(t.id, p.Line) {
					s.audit(redact.Event{Kind: redact.EventConfirmed, Session: t.id, Input: audited, Hidden: p.Hidden, Rule: v.Rule, Justification: t.confirm})
				} else {
					s.refusals.add(t.id, p.Line)
					s.audit(redact.Event{Kind: redact.EventRefused, Session: t.id, Input: audited, Hidden: p.Hidden, Rule: v.Rule})
					return &refusedInput{line: p.Line, hidden: p.Hidden, why: fmt.Sprintf("it matches danger rule %s (%s): %s", v.Rule, v.Category, strings.TrimRight(v.Why, ". "))}
				}
			}
		}
		if p.Enter && p.Screen && p.Line != p.Text {
			// What runs is not what this call typed: record the whole line.
			s.audit(redact.Event{Kind: redact.EventInput, Session: t.id, Input: audited, Hidden: p.Hidden, Detail: "the command line Enter submitted at the prompt"})
		}
		if mem != nil && !p.Hidden {
			mem.Remember(p.Line) // its aliases, functions and history explain later lines
		}
		return nil
	}
}

// refusal explains a refused line to the agent; typedBefore says earlier lines of the
// same input were typed (and ran) before it.
func refusal(toolName string, ref *session.Refusal, typedBefore bool) string {
	r, _ := ref.Err.(*refusedInput)
	if r == nil {
		return fmt.Sprintf("%s: refused: %v", toolName, ref.Err)
	}
	what := fmt.Sprintf("%q", r.line)
	if r.hidden {
		what = "the hidden input (typed where the terminal does not echo; it is not shown or logged)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "refused: %s: %s.", what, r.why)
	switch {
	case typedBefore:
		fmt.Fprintf(&b, " Line %d of the input was not typed, nor any after it; the lines before it were typed, and their output is above.", ref.Index+1)
	case ref.Cleared:
		b.WriteString(" It was typed at the prompt to read the whole command line back, then erased: nothing ran.")
	default:
		b.WriteString(" Nothing was sent to the session.")
	}
	if !r.blocked {
		input := "the same input"
		if !r.hidden {
			input = fmt.Sprintf("input %q", r.line)
		}
		fmt.Fprintf(&b, " If it is really intended, call confirm_dangerous_command within %d minutes with the same session_id, %s and a justification of at least 10 characters.",
			int(confirmWindow.Minutes()), input)
	}
	return b.String()
}

// confirmWindow is how long a refusal can be confirmed.
const confirmWindow = 5 * time.Minute

// refusals remembers the lines refused per session, so that a confirmation lifts only a
// refusal it answers: same session, same line, within confirmWindow, once.
type refusals struct {
	mu sync.Mutex
	m  map[string]map[string]time.Time
}

func (r *refusals) add(id, line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = make(map[string]map[string]time.Time)
	}
	lines := r.m[id]
	if lines == nil {
		lines = make(map[string]time.Time)
		r.m[id] = lines
	}
	now := time.Now()
	for l, at := range lines {
		if now.Sub(at) > confirmWindow {
			delete(lines, l)
		}
	}
	if len(lines) < maxRefusals {
		lines[line] = now
	}
}

// maxRefusals bounds the refusals remembered per session.
const maxRefusals = 64

// take reports whether line was refused in session id within confirmWindow, and forgets
// that refusal.
func (r *refusals) take(id, line string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	at, ok := r.m[id][line]
	if !ok {
		return false
	}
	delete(r.m[id], line)
	return time.Since(at) <= confirmWindow
}

// forget drops a session's refusals.
func (r *refusals) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, id)
}

// memories keeps, per session, what its shells have run and defined: "!!", "r", an
// alias or a function name are judged as the commands they stand for.
type memories struct {
	mu sync.Mutex
	m  map[string]*danger.Memory
}

// of returns the session's memory for a line in context ctx; nil unless a shell reads it.
func (ms *memories) of(id string, ctx danger.Context) *danger.Memory {
	if ctx != danger.Shell {
		return nil
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.m == nil {
		ms.m = make(map[string]*danger.Memory)
	}
	m := ms.m[id]
	if m == nil {
		m = new(danger.Memory)
		ms.m[id] = m
	}
	return m
}

func (ms *memories) forget(id string) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	delete(ms.m, id)
}

// prune forgets the refusals and memories of sessions that no longer exist (closed,
// or reaped after being idle).
func (s *Server) prune() {
	s.guards.prune(s.sessions)
	gone := func(id string) bool {
		_, err := s.sessions.Get(id)
		return errors.Is(err, session.ErrUnknown)
	}
	s.refusals.mu.Lock()
	for id := range s.refusals.m {
		if gone(id) {
			delete(s.refusals.m, id)
		}
	}
	s.refusals.mu.Unlock()
	s.memories.mu.Lock()
	for id := range s.memories.m {
		if gone(id) {
			delete(s.memories.m, id)
		}
	}
	s.memories.mu.Unlock()
}

// proxies hand what is typed to a program elsewhere, usually a shell: the prompt at the
// cursor says what reads the line there.
var proxies = map[string]bool{
	"ssh": true, "mosh-client": true, "telnet": true, "docker": true, "podman": true, "kubectl": true, "oc": true,
	"lxc": true, "lxc-attach": true, "incus": true, "nsenter": true, "machinectl": true, "vagrant": true,
	"su": true, "sudo": true, "doas": true, "runuser": true, "toolbox": true, "distrobox": true,
}

var (
	sqlPrompt    = regexp.MustCompile(`^(?:[A-Za-z0-9_$.-]+[=(\-'"*][#>]|mysql>|MariaDB \[[^\]]*\]>|sqlite>|\s+\.\.\.>|\s+->|duckdb>)$`)
	pythonPrompt = regexp.MustCompile(`^(?:>>>|\.\.\.|In \[\d+\]:|\s*\.\.\.:)\s*$`)
)

// contextFor picks the danger rules for what reads the line: the foreground program,
// or the session's own program when that is unknown; behind a proxy, a shell unless
// the prompt at the cursor is a known SQL or Python prompt.
func contextFor(program, prompt, command string) danger.Context {
	if program == "" {
		program = programName(command)
	}
	if !proxies[strings.TrimPrefix(program, "-")] {
		return danger.ContextOf(program)
	}
	prompt = strings.TrimRight(prompt, " ")
	switch {
	case pythonPrompt.MatchString(strings.TrimSpace(prompt)):
		return danger.Python
	case sqlPrompt.MatchString(prompt):
		return danger.SQL
	}
	return danger.Shell
}
