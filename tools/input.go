package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// typed is one validated call that types into a session.
type typed struct {
	id      string
	sess    *session.Session
	in      session.Input
	limit   int
	confirm string // justification, for confirm_dangerous_command
	token   mcp.ProgressToken
	// ask, when set, puts dangerous lines to a person (see confirm.go); humanOnly
	// refuses them outright, as no person can be asked and the agent may not confirm.
	ask       asker
	humanOnly bool
	who       Caller
}

func (s *Server) sendCommand(ctx context.Context, req mcp.CallToolRequest, a CommandArgs) (*mcp.CallToolResult, error) {
	if res := s.resumed(ctx, req, "send_command", a.SessionID); res != nil {
		return res, nil
	}
	t := typed{id: a.SessionID, limit: s.maxOutput(a.MaxOutputChars), token: progressToken(req)}
	t.in = session.Input{Text: a.Input, AppendNewline: a.AppendNewline == nil || *a.AppendNewline, Timeout: s.timeout(a.TimeoutMS)}
	var err error
	if t.in.WaitFor, err = pattern(a.WaitFor); err != nil {
		return toolError("send_command: %v", err), nil
	}
	if res := s.open(ctx, &t, "send_command", "input"); res != nil {
		return res, nil
	}
	return s.dispatch(ctx, t, "send_command"), nil
}

func (s *Server) confirmDangerous(ctx context.Context, req mcp.CallToolRequest, a ConfirmArgs) (*mcp.CallToolResult, error) {
	if res := s.resumed(ctx, req, "confirm_dangerous_command", a.SessionID); res != nil {
		return res, nil
	}
	if len([]rune(strings.TrimSpace(a.Justification))) < 10 {
		return toolError("confirm_dangerous_command: justification must say in at least 10 characters why this input is necessary and safe here"), nil
	}
	t := typed{id: a.SessionID, limit: s.cfg.MaxOutput, confirm: a.Justification, token: progressToken(req)}
	t.in = session.Input{Text: a.Input, AppendNewline: true, Timeout: s.timeout(a.TimeoutMS)}
	if res := s.open(ctx, &t, "confirm_dangerous_command", "input"); res != nil {
		return res, nil
	}
	// Each line runs as confirmed only if it answers a refusal (the gate checks);
	// any other line is judged as send_command would judge it.
	return s.dispatch(ctx, t, "confirm_dangerous_command"), nil
}

func (s *Server) sendControl(ctx context.Context, req mcp.CallToolRequest, a ControlArgs) (*mcp.CallToolResult, error) {
	if res := s.resumed(ctx, req, "send_control", a.SessionID); res != nil {
		return res, nil
	}
	if (a.Cols == 0) != (a.Rows == 0) {
		return toolError("send_control: cols and rows resize together: give both"), nil
	}
	t := typed{id: a.SessionID, limit: s.cfg.MaxOutput, token: progressToken(req)}
	t.in = session.Input{Keys: a.Control, Timeout: s.timeout(a.TimeoutMS), Cols: a.Cols, Rows: a.Rows}
	if res := s.open(ctx, &t, "send_control", "control"); res != nil {
		return res, nil
	}
	switch hasKeys := strings.TrimSpace(a.Control) != "" || a.Control == " "; {
	case hasKeys:
		if _, err := session.Keys(a.Control, false); err != nil {
			return toolError("send_control: %v", err), nil
		}
	case a.Cols == 0:
		return toolError("send_control: control must name at least one key, e.g. \"ctrl+c\" or \"escape : w q enter\", or cols and rows must resize the terminal"), nil
	default:
		t.in.Keys = "" // a resize alone
	}
	// Keys pressed at a password prompt may spell the secret: record them as hidden,
	// also where the prompt echoes (read -p 'Password: '), as a line typed there is.
	hidden := t.sess.SecretExpected()
	s.record(t.who, redact.Event{Kind: redact.EventControl, Session: t.id, Input: t.in.Keys, Hidden: hidden})
	if t.in.Keys != "" {
		mark(t.sess, t.in.Keys, hidden)
	}
	return s.dispatch(ctx, t, "send_control"), nil
}

// open checks what the typing tools share and finds the session: the typed text
// (Text, or Keys for send_control) is within the input limit and holds no NUL, and a
// program reading whole lines gets none longer than the kernel keeps.
func (s *Server) open(ctx context.Context, t *typed, toolName, inputKey string) *mcp.CallToolResult {
	t.who = callerFrom(ctx)
	text := t.in.Text + t.in.Keys
	if len(text) > s.cfg.MaxInput {
		return toolError("%s: %s is %d bytes, more than the limit of %d; write large content to a file another way, or send it in parts", toolName, inputKey, len(text), s.cfg.MaxInput)
	}
	if strings.ContainsRune(text, 0) {
		return toolError("%s: %s contains a NUL byte; use send_control ctrl+@ to type one", toolName, inputKey)
	}
	var err error
	if t.sess, err = s.session(ctx, t.id); err != nil {
		return sessionError(t.id, err)
	}
	if h := t.sess.Holder(); h != "" {
		return sessionError(t.id, session.ErrHeld)
	}
	if since, ok := s.guards.get(t.id, s.cfg.Redactor).askedFor(); ok {
		return busyAsking(toolName, t.id, since, s.cfg.ConfirmTimeout)
	}
	if inputKey == "input" && t.sess.LineMode() {
		for i, line := range strings.Split(t.in.Text, "\n") {
			if len(line) > session.MaxLine {
				return toolError("%s: line %d is %d bytes, but the program reads in line mode, where the kernel keeps at most %d bytes of a line and drops the rest; "+
					"write long content to a file another way, or split it into shorter lines", toolName, i+1, len(line), session.MaxLine)
			}
		}
	}
	return nil
}

// testHookBeforeTurn, when set by a test, runs after a call's arguments were checked
// and before it waits for the session's turn: another call may change the program in
// front meanwhile, and the gate must judge by what is in front when it types.
var testHookBeforeTurn func(*session.Session)

// dispatch runs a typing call with the confirmer its client allows (confirm.go).
func (s *Server) dispatch(ctx context.Context, t typed, toolName string) *mcp.CallToolResult {
	switch s.confirmerFor(ctx) {
	case byModern:
		return s.runAsking(ctx, t, toolName)
	case byLegacy:
		t.ask = s.askLegacy(ctx)
	case byNobody:
		t.humanOnly = true
	}
	return s.run(ctx, t, toolName)
}

// run types the input, every line through the gate, and renders what it caused.
func (s *Server) run(ctx context.Context, t typed, toolName string) *mcp.CallToolResult {
	gd := s.guards.get(t.id, s.cfg.Redactor)
	t.in.Gate = s.gate(&t)
	t.in.Typed = func(line string, hidden bool) {
		if hidden {
			gd.remember(line)
		}
		s.record(t.who, redact.Event{Kind: redact.EventInput, Session: t.id, Input: line, Hidden: hidden})
		if line != "" || t.in.AppendNewline { // not the empty line of a resize alone
			mark(t.sess, line, hidden)
		}
		if s.cfg.LogInputs && !hidden {
			s.cfg.Logger.Info("input", "session", t.id, "input", s.cfg.Redactor.Redact(line))
		}
	}
	began := time.Now()
	stop := s.progress(ctx, t.token, t.sess)
	if testHookBeforeTurn != nil {
		testHookBeforeTurn(t.sess)
	}
	r, err := t.sess.Send(ctx, t.in)
	stop()
	if err != nil {
		return sessionError(t.id, err)
	}
	typedBefore := r.Refused != nil && r.Refused.Index > 0
	if r.Refused != nil && !typedBefore {
		return toolError("%s: %s", toolName, refusal(toolName, r.Refused, false))
	}
	out, truncated := s.render(t.id, r.Output, t.limit)
	res := CommandResult{
		Output: out, IsComplete: r.Complete, IsAlive: r.Alive, ExitCode: exitCode(r.Exit),
		Reason: string(r.Reason), Detail: r.Detail, InputHidden: r.Hidden,
		Truncated: truncated || r.Lost, DurationMS: time.Since(began).Milliseconds(), // rendering included
	}
	if r.Code != nil && r.Alive {
		res.ExitCode = r.Code
	}
	res.Warning = warning(r, t.in.Timeout, s.cfg.MaxTimeout)
	res.Highlighted = s.highlighted(t.id, t.sess)
	if typedBefore {
		res.Warning = strings.TrimSpace(refusal(toolName, r.Refused, true) + " " + res.Warning)
		result := mcp.NewToolResultStructured(res, textWith(out, res.status(), res.Warning))
		result.IsError = true
		return result
	}
	return mcp.NewToolResultStructured(res, textWith(out, res.status(), res.Warning))
}

// warning says what a reply leaves undone and what to do about it; maxTimeout is
// the longest timeout_ms the agent may ask for.
func warning(r session.Result, timeout, maxTimeout time.Duration) string {
	var w []string
	switch {
	case r.Complete || !r.Alive:
	case r.Reason == session.Settled:
		w = append(w, "There is no evidence the program is ready: its output went quiet, nothing more. "+
			"Check the output; if more is expected, wait with read_output (wait_for a pattern).")
	case r.Detail == session.Cancelled:
		w = append(w, "The call was cancelled (its client gave up on it, or the server is stopping) before the program showed it was ready; it is still running. "+
			"Wait for it with read_output (wait_for a pattern), or interrupt it with send_control ctrl+c.")
	case r.Reading:
		w = append(w, fmt.Sprintf("The program is waiting for input, but there was no evidence within %s that it finished with this one "+
			"(wait_for did not match, or it asks something unrecognised). Answer it, or interrupt it with send_control ctrl+c.", fmtDuration(timeout)))
	default:
		w = append(w, fmt.Sprintf("The program did not show it was ready within %s; it is still running. "+
			"Wait for it with read_output (wait_for a pattern, timeout_ms up to %d), or interrupt it with send_control ctrl+c.", fmtDuration(timeout), maxTimeout.Milliseconds()))
	}
	if r.Owed && !r.Complete {
		w = append(w, "This input was typed before the previous command's prompt appeared (type-ahead): the reply starts after that prompt, and output of the previous command may still be mixed in.")
	}
	if r.Unseen {
		w = append(w, "Output arrived after the last reply and before this input (an earlier command's); it is not part of this reply: read_output shows the screen.")
	}
	if r.WholeScreen {
		w = append(w, "The program moved the cursor above where its output began (cursor addressing, a scroll region): the output is the whole screen as it shows now.")
	}
	if r.Cleared != "" {
		w = append(w, fmt.Sprintf("The shell's command line held %q, which no input typed: the terminal's answers to a program's queries (binary output asks for them), left unread when it ended. It was cleared before this line was typed.", clip(r.Cleared, 120)))
	}
	if r.AddedTo != "" {
		w = append(w, fmt.Sprintf("The shell's command line already held %q (typed earlier without Enter): this line was added to it, and they ran as one.", clip(r.AddedTo, 120)))
	}
	if r.Pending != "" {
		w = append(w, fmt.Sprintf("The shell's command line now holds %q, not run: send_control enter runs it, ctrl+u clears it, and text sent next is added to it.", clip(r.Pending, 120)))
	}
	if r.Skipped {
		w = append(w, "The previous command was still running when this input was typed, and its late output came during this call; it is not part of this reply: read_output shows the screen.")
	}
	if r.Unsent > 0 && r.Refused == nil {
		w = append(w, fmt.Sprintf("%d later input line(s) were not typed because an earlier line did not finish.", r.Unsent))
	}
	if r.Lost {
		w = append(w, "The beginning of the output scrolled out of the scrollback and is lost: "+
			"for long output, redirect it to a file (cmd > out.txt 2>&1) and read the parts you need.")
	}
	switch {
	case r.Closed && r.Stopping:
		w = append(w, "The server is stopping: it closed the session while this call waited, and the session's program ended because of that.")
	case r.Closed:
		w = append(w, "The session was closed while this call waited: its program ended because of that.")
	case !r.Alive:
		w = append(w, "The session's program has exited; close_session removes the session.")
	}
	return strings.Join(w, " ")
}

// clip shortens s to n characters, marking the cut.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// highlighted is sess.Highlighted, redacted as output is.
func (s *Server) highlighted(id string, sess *session.Session) []string {
	h := sess.Highlighted()
	if len(h) == 0 {
		return nil
	}
	return strings.Split(s.guards.get(id, s.cfg.Redactor).peek(strings.Join(h, "\n")), "\n")
}
