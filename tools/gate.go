package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
	person  bool // a person was asked (or declined before): the agent cannot confirm it
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
		// A line typed while the program in front does not read waits for whoever
		// reads next: the shell, once that program ends. It is judged as the shell
		// would take it too.
		ctxs := []danger.Context{ctx}
		if p.Ahead && ctx != danger.Shell {
			ctxs = append(ctxs, danger.Shell)
		}
		gd := s.guards.get(t.id, s.cfg.Redactor)
		if pol := s.cfg.Policy; len(pol.Allowed)+len(pol.Blocked)+len(pol.AllowedPaths) > 0 {
			// Read from /proc, so only when a policy asks: "~" is the session's HOME.
			pol.Home = t.sess.Home()
			cwd := t.sess.Cwd()
			for _, c := range ctxs {
				// As typed, and as the shell's aliases and functions make it (alias
				// g=curl in one call, g in the next).
				lines := []string{p.Line}
				if c == danger.Shell {
					if exp := gd.mem.Expand(p.Line); exp != p.Line {
						lines = append(lines, exp)
					}
				}
				for _, line := range lines {
					if err := pol.CheckInput(c, line, cwd); err != nil {
						s.record(t.who, redact.Event{Kind: redact.EventBlocked, Session: t.id, Input: p.Line, Hidden: p.Hidden, Detail: err.Error()})
						return &refusedInput{line: p.Line, hidden: p.Hidden, blocked: true, why: strings.TrimRight(err.Error(), ". ")}
					}
				}
			}
		}
		gd.dirSet.Do(func() { gd.mem.Dir = shellDir(t.sess) })
		memFor := func(c danger.Context) *danger.Memory { // what the session's shells ran and defined: "!!", aliases, functions
			if c == danger.Shell {
				return &gd.mem
			}
			return nil
		}
		mem := memFor(ctxs[len(ctxs)-1]) // the shell's, when the line may reach it
		if s.cfg.DangerDetection {
			// The line as the screen shows it, then what was typed since the last Enter
			// and what this call typed on their own: a line the screen shows in pieces
			// (a loop continued over several lines, text typed before the prompt was
			// drawn) must not hide what runs.
			var v danger.Verdict
			for _, c := range ctxs {
				for i, text := range []string{p.Line, p.Pieces, p.Text} {
					if v.Dangerous {
						break
					}
					if i == 0 || text != p.Line && strings.TrimSpace(text) != "" {
						v = danger.ClassifyIn(c, text, memFor(c))
					}
				}
			}
			if !v.Dangerous && mem != nil {
				v = repoDeletion(t.sess, p.Line)
			}
			if v.Dangerous {
				if err := s.confirmLine(t, gd, p, v); err != nil {
					return err
				}
			}
		}
		if p.Screen && p.Line != p.Text {
			// What runs is not what this call typed: record the whole line.
			s.record(t.who, redact.Event{Kind: redact.EventInput, Session: t.id, Input: p.Line, Hidden: p.Hidden, Detail: "the command line Enter submitted at the prompt"})
		}
		if mem != nil && !p.Hidden {
			mem.Remember(p.Line) // its aliases, functions and history explain later lines
		}
		return nil
	}
}

// confirmLine lets a dangerous line through only once it is confirmed: by a person
// when the call can ask one, else by the agent's confirm_dangerous_command answering
// an earlier refusal of the same line. A line a person declined is refused for good.
func (s *Server) confirmLine(t *typed, gd *guard, p session.Pending, v danger.Verdict) error {
	what := fmt.Sprintf("it matches danger rule %s (%s): %s", v.Rule, v.Category, strings.TrimRight(v.Why, ". "))
	switch {
	case gd.wasDeclined(p.Line):
		s.record(t.who, redact.Event{Kind: redact.EventRefused, Session: t.id, Input: p.Line, Hidden: p.Hidden, Rule: v.Rule, Detail: "declined earlier by a person"})
		return &refusedInput{line: p.Line, hidden: p.Hidden, person: true,
			why: what + ". A person declined this input in this session when asked; a decline is final, and it will not run here"}
	case t.ask != nil:
		return s.askPerson(t, gd, p, v)
	case t.humanOnly:
		s.record(t.who, redact.Event{Kind: redact.EventRefused, Session: t.id, Input: p.Line, Hidden: p.Hidden, Rule: v.Rule, Detail: "a person must confirm, and the client cannot ask one"})
		return &refusedInput{line: p.Line, hidden: p.Hidden, blocked: true,
			why: what + ". This server lets only a person confirm dangerous input (MCP_TERMINAL_CONFIRM=human), and this client cannot ask one: it did not declare the elicitation capability. " +
				"Use a client that supports elicitation, or have the person run it themselves"}
	case t.confirm != "" && gd.confirms(p.Line, t.sess.Cwd()):
		by := "agent"
		if t.who.Actor == "web" {
			by = "human" // a person, in the live view
		}
		s.record(t.who, redact.Event{Kind: redact.EventConfirmed, Session: t.id, Input: p.Line, Hidden: p.Hidden, Rule: v.Rule, Justification: t.confirm, ConfirmedBy: by})
		return nil
	}
	gd.refuse(p.Line, t.sess.Cwd())
	s.record(t.who, redact.Event{Kind: redact.EventRefused, Session: t.id, Input: p.Line, Hidden: p.Hidden, Rule: v.Rule})
	return &refusedInput{line: p.Line, hidden: p.Hidden, why: what}
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
	if !r.blocked && !r.person {
		input := "the same input"
		if !r.hidden {
			input = fmt.Sprintf("input %q", r.line)
		}
		fmt.Fprintf(&b, " If it is really intended, call confirm_dangerous_command within %d minutes with the same session_id, %s and a justification of at least 10 characters.",
			int(confirmWindow.Minutes()), input)
	}
	return b.String()
}

// proxies hand what is typed to a program elsewhere, usually a shell: the prompt at the
// cursor says what reads the line there.
var proxies = map[string]bool{
	"ssh": true, "mosh-client": true, "telnet": true, "docker": true, "podman": true, "kubectl": true, "oc": true,
	"lxc": true, "lxc-attach": true, "incus": true, "nsenter": true, "machinectl": true, "vagrant": true,
	"su": true, "sudo": true, "doas": true, "runuser": true, "toolbox": true, "distrobox": true,
}

// contextFor picks the danger rules for what reads the line: the foreground program,
// or the session's own program when that is unknown; behind a proxy, the program whose
// prompt is at the cursor (the prompt library knows psql, mysql, sqlite3, python...),
// else a shell.
func contextFor(program, prompt, command string) danger.Context {
	if program == "" {
		program = programName(command)
	}
	if !proxies[strings.TrimPrefix(program, "-")] {
		return danger.ContextOf(program)
	}
	if ctx := danger.ContextOf(session.PromptFamily(prompt)); ctx != danger.Unknown {
		return ctx
	}
	return danger.Shell
}

// shellDir tells the danger rules where a session's shell is: the working
// directory of the shell in front, "~" for its HOME. Read from /proc, only for
// a line the directory can make dangerous (rm .bashrc typed in the home
// directory). Behind ssh, docker exec or tmux (or sudo) the directory of the
// shell that reads the line is not this machine's to read: none is given.
func shellDir(sess *session.Session) func() string {
	return func() string {
		if !localShell(sess) {
			return ""
		}
		dir := sess.Cwd()
		home := strings.TrimSuffix(sess.Home(), "/")
		switch {
		case home == "" || dir == "":
		case dir == home:
			return "~"
		case strings.HasPrefix(dir, home+"/"):
			return "~" + dir[len(home):]
		}
		return dir
	}
}

// localShell reports whether the program in front of sess is a shell on this
// machine, whose directory and HOME /proc shows: not one behind ssh, docker exec,
// tmux or sudo.
func localShell(sess *session.Session) bool {
	front := strings.TrimPrefix(sess.Foreground(), "-")
	return !proxies[front] && danger.ContextOf(front) == danger.Shell
}

// repoDeletion judges a recursive deletion by what is on the disk, where the
// rules judge the text: rm -rf /work/app or /usr/src/app passes by its name, yet
// deletes a project when a .git is there (found by an independent probe). Only
// for a local shell in front, whose directory and HOME are this machine's.
func repoDeletion(sess *session.Session, line string) danger.Verdict {
	paths := danger.RecursiveDeletions(line)
	if len(paths) == 0 {
		return danger.Verdict{}
	}
	if !localShell(sess) {
		return danger.Verdict{}
	}
	cwd, home := sess.Cwd(), sess.Home()
	for _, p := range paths {
		abs := p
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			if home == "" {
				continue
			}
			abs = filepath.Join(home, p[1:])
		case !filepath.IsAbs(p):
			if cwd == "" {
				continue
			}
			abs = filepath.Join(cwd, p)
		}
		matches := []string{abs}
		if strings.ContainsAny(abs, "*?[") {
			matches, _ = filepath.Glob(abs)
		}
		for i, m := range matches {
			if i == maxRepoChecks {
				break
			}
			if _, err := os.Lstat(filepath.Join(m, ".git")); err == nil {
				return danger.RepositoryDeletion(p)
			}
		}
	}
	return danger.Verdict{}
}

// maxRepoChecks bounds the matches of one glob looked at on disk.
const maxRepoChecks = 64
