package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// testHookBeforeStartup, when set by a test, runs between a session's start and
// its startup wait.
var testHookBeforeStartup func(*session.Session)

func (s *Server) createSession(ctx context.Context, req mcp.CallToolRequest, a CreateArgs) (*mcp.CallToolResult, error) {
	o, err := createOptions(a)
	if err != nil {
		return toolError("create_session: %v", err), nil
	}
	if o.Dir == "" && len(s.cfg.Policy.AllowedPaths) > 0 {
		o.Dir = s.cfg.Policy.AllowedPaths[0] // not the server's cwd, which may lie outside
	}
	if err := s.cfg.Policy.CheckProgramIn(o.Command, o.Dir); err != nil {
		s.audit(ctx, redact.Event{Kind: redact.EventBlocked, Command: o.Command, Detail: err.Error()})
		return toolError("refused to start %q: %v", o.Command, err), nil
	}
	if o.Dir != "" {
		if err := s.cfg.Policy.CheckDir(o.Dir); err != nil {
			s.audit(ctx, redact.Event{Kind: redact.EventBlocked, Command: o.Command, Detail: err.Error()})
			return toolError("refused cwd %q: %v", o.Dir, err), nil
		}
	}
	if err := s.checkStart(ctx, o); err != nil {
		return toolError("refused to start %q: %v.", shellJoin(append([]string{o.Command}, o.Args...)), err), nil
	}
	o.Owner = callerFrom(ctx).Principal
	sess, err := s.sessions.Create(o)
	if err != nil {
		return startError(o.Command, err), nil
	}
	s.audit(ctx, redact.Event{Kind: redact.EventSessionCreate, Session: sess.ID, Command: o.Command})
	s.cfg.Logger.Info("session created", "session", sess.ID, "command", o.Command, "pid", sess.PID())

	defer func() {
		if p := recover(); p != nil {
			// The caller never learns the id: a session left behind would run on,
			// counted against the limits, where nobody can reach it.
			_, _ = s.sessions.Close(context.WithoutCancel(ctx), sess.ID, syscall.SIGHUP)
			panic(p)
		}
	}()
	if testHookBeforeStartup != nil {
		testHookBeforeStartup(sess)
	}
	r := sess.Startup(ctx, s.cfg.StartupTimeout)
	out, truncated := s.render(sess.ID, r.Output, s.cfg.MaxOutput)
	res := CreateResult{
		SessionID: sess.ID, Name: sess.Name, PID: sess.PID(), Output: out,
		IsAlive: r.Alive, Ready: r.Complete, Reason: string(r.Reason),
		ExitCode: exitCode(r.Exit), Truncated: truncated, Sandbox: s.cfg.Sandbox,
		WatchURL: s.watchURL(sess.ID),
	}
	status := fmt.Sprintf("[session %s · pid %d · %s: %s · %s]", res.SessionID, res.PID, readiness(res.Ready), res.Reason, fmtDuration(r.Elapsed))
	if !r.Alive {
		status = fmt.Sprintf("[session %s · the program exited at once (%s) · its output is above]", res.SessionID, describe(r.Exit))
	}
	if res.Sandbox != "" {
		status += "\n[sandbox: " + res.Sandbox + "]"
	}
	if res.WatchURL != "" {
		status += "\n[watch live (view only): " + res.WatchURL + "]"
	}
	return mcp.NewToolResultStructured(res, textWith(out, status, "")), nil
}

func readiness(ready bool) string {
	if ready {
		return "ready"
	}
	return "not ready yet"
}

// createOptions checks what the schema cannot: names and values a program can be
// given (no NUL bytes, environment names without '=').
func createOptions(a CreateArgs) (session.CreateOptions, error) {
	o := session.CreateOptions{Command: a.Command, Args: a.Args, Name: a.Name, Dir: a.Cwd, Env: a.Env, Cols: a.Cols, Rows: a.Rows}
	if strings.TrimSpace(o.Command) == "" || strings.ContainsRune(o.Command, 0) {
		return o, fmt.Errorf("command must name a program, e.g. \"bash\"")
	}
	for i, arg := range o.Args {
		if strings.ContainsRune(arg, 0) {
			return o, fmt.Errorf("args[%d] contains a NUL byte, which no program argument can hold", i)
		}
	}
	for k, v := range o.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") || strings.ContainsRune(v, 0) {
			return o, fmt.Errorf("env[%q]: a variable's name must be non-empty without '=' or NUL, and its value without NUL", k)
		}
	}
	return o, nil // a zero size is the screen's and the terminal's default
}

func (s *Server) readOutput(ctx context.Context, req mcp.CallToolRequest, a ReadArgs) (*mcp.CallToolResult, error) {
	id, limit := a.SessionID, s.maxOutput(a.MaxOutputChars)
	o := session.ReadOptions{Full: a.FullScreen, Timeout: s.timeout(a.TimeoutMS)}
	var err error
	if o.WaitFor, err = pattern(a.WaitFor); err != nil {
		return toolError("read_output: %v", err), nil
	}
	sess, err := s.session(ctx, id)
	if err != nil {
		return sessionError(id, err), nil
	}
	stop := s.progress(ctx, progressToken(req), sess)
	r := sess.Read(ctx, o)
	stop()
	out, truncated := s.render(id, r.Output, limit)
	res := ReadResult{
		Output: out, IsAlive: r.Alive, ExitCode: exitCode(r.Exit),
		Cursor:    Cursor{Row: r.Screen.Cursor.Row, Col: r.Screen.Cursor.Col},
		AltScreen: r.Screen.AltScreen, Title: r.Screen.Title, Cols: r.Screen.Cols, Rows: r.Screen.Rows,
		InputHidden: sess.InputHidden(),
		Truncated:   truncated,
		NewOutput:   r.New,
	}
	parts := []string{fmt.Sprintf("screen %dx%d", res.Cols, res.Rows), fmt.Sprintf("cursor %d,%d", res.Cursor.Row, res.Cursor.Col)}
	switch {
	case r.New && strings.TrimSpace(r.Output) == "":
		parts = append([]string{"no output since the last reply"}, parts...)
	case r.New && res.AltScreen:
		// A full-screen program's answer is its whole screen, new or not.
	case r.New:
		parts = append([]string{"output not returned before"}, parts...)
	}
	if res.AltScreen {
		parts = append(parts, "full-screen program")
		if res.Highlighted = s.highlighted(id, sess); len(res.Highlighted) > 0 {
			parts = append(parts, highlightedPart(res.Highlighted))
		}
	}
	if o.WaitFor != nil {
		matched := r.Matched
		res.Matched = &matched
		switch {
		case matched:
			parts = append(parts, "wait_for matched")
		case r.Stopping:
			parts = append(parts, fmt.Sprintf("wait_for did not match: the server stopping closed the session after %s", fmtDuration(r.Elapsed)))
		case r.Closed:
			parts = append(parts, fmt.Sprintf("wait_for did not match: the session was closed after %s", fmtDuration(r.Elapsed)))
		case !r.Alive:
			parts = append(parts, fmt.Sprintf("wait_for did not match before the program ended (%s)", fmtDuration(r.Elapsed)))
		default:
			parts = append(parts, fmt.Sprintf("wait_for did not match within %s", fmtDuration(o.Timeout)))
		}
	}
	if !r.Alive {
		parts = append(parts, "session ended: "+describe(r.Exit))
	}
	return mcp.NewToolResultStructured(res, textWith(out, "["+strings.Join(parts, " · ")+"]", "")), nil
}

func (s *Server) listSessions(ctx context.Context, req mcp.CallToolRequest, _ ListArgs) (*mcp.CallToolResult, error) {
	infos := s.ownSessions(ctx)
	res := ListResult{Sessions: make([]SessionInfo, 0, len(infos))}
	var b strings.Builder
	for _, in := range infos {
		si := SessionInfo{
			SessionID: in.ID, Name: in.Name, Command: in.Command, Args: redactArgs(s.cfg.Redactor, in.Command, in.Args), PID: in.PID,
			Cwd: in.Cwd, Foreground: in.Foreground, IsAlive: in.Alive, ExitCode: exitCode(in.Exit),
			CreatedAt: in.Created.UTC().Format(time.RFC3339), LastActivity: in.LastActivity.UTC().Format(time.RFC3339),
			WatchURL: s.watchURL(in.ID),
		}
		res.Sessions = append(res.Sessions, si)
		state := "running " + si.Foreground
		if !si.IsAlive {
			state = "exited: " + describe(in.Exit)
		}
		fmt.Fprintf(&b, "%s  %-12s pid %-7d %s  (%s)\n", si.SessionID, si.Name, si.PID, si.Cwd, strings.TrimSpace(state))
	}
	status := fmt.Sprintf("[%d sessions]", len(infos))
	return mcp.NewToolResultStructured(res, textWith(b.String(), status, "")), nil
}

func (s *Server) closeSession(ctx context.Context, req mcp.CallToolRequest, a CloseArgs) (*mcp.CallToolResult, error) {
	id := a.SessionID
	var sig syscall.Signal
	if a.Signal != "" {
		var err error
		if sig, err = session.SignalByName(a.Signal); err != nil {
			return toolError("close_session: %v", err), nil
		}
	}
	// The session's processes are ended even if this call is cancelled.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if sess, err := s.session(ctx, id); err != nil {
		return sessionError(id, err), nil
	} else if sess.Holder() != "" {
		return sessionError(id, session.ErrHeld), nil
	}
	st, err := s.sessions.Close(cctx, id, sig)
	if err != nil {
		return sessionError(id, err), nil
	}
	// A shell ended by the hang-up that closing sends reports 129, as $? would.
	code := st.ShellCode()
	s.audit(ctx, redact.Event{Kind: redact.EventSessionClose, Session: id, ExitCode: &code})
	res := CloseResult{Success: true, ExitCode: &code, Signal: st.Signal}
	return mcp.NewToolResultStructured(res, fmt.Sprintf("[session %s closed · %s]", id, describe(&st))), nil
}

// redactArgs returns args with the secrets the redactor finds in the whole
// command line (mysql -pX, --password=X) replaced in the arguments that hold them.
func redactArgs(r *redact.Redactor, command string, args []string) []string {
	line := command
	at := make([]int, len(args)) // where each argument starts in line
	for i, a := range args {
		line += " "
		at[i] = len(line)
		line += a
	}
	spans := r.Secrets(line)
	if len(spans) == 0 {
		return args
	}
	out := slices.Clone(args)
	for i := len(args) - 1; i >= 0; i-- {
		start, end := at[i], at[i]+len(args[i])
		for j := len(spans) - 1; j >= 0; j-- {
			sp := spans[j]
			if lo, hi := max(sp.Start, start), min(sp.End, end); lo < hi {
				out[i] = out[i][:lo-start] + "[REDACTED:" + sp.Kind + "]" + out[i][hi-start:]
			}
		}
	}
	return out
}
