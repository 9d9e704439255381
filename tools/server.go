package tools

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-terminal/mcp-terminal/security/policy"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// Config holds what the handlers need besides the sessions. A zero number or
// duration means the default given beside it; the flags are off unless set, and a
// nil Redactor or Audit redacts or records nothing.
type Config struct {
	MaxOutput       int           // characters per reply; default 20000
	DefaultTimeout  time.Duration // timeout_ms when the call gives none; default 10 s
	MaxTimeout      time.Duration // largest timeout_ms accepted; default 10 min
	StartupTimeout  time.Duration // create_session's wait for readiness; default 5 s
	MaxInput        int           // bytes per input; default 64 KiB
	DangerDetection bool
	Policy          policy.Policy
	Redactor        *redact.Redactor
	Audit           *redact.Audit
	LogInputs       bool // log typed input (redacted) at Info; off by default
	Logger          *slog.Logger
	// Sandbox, when set, says what the kernel enforces on every session (the
	// Landlock policy); create_session results carry it.
	Sandbox string
	// Confirm says who confirms dangerous input: ConfirmAuto (the default: a person
	// when the client can elicit, else the agent), ConfirmHuman or ConfirmAgent.
	Confirm ConfirmMode
	// ConfirmTimeout bounds the wait for a person's answer; default 5 min.
	ConfirmTimeout time.Duration
	// WatchURL, when set, returns the live view's address of a session with a
	// view-only token; create_session and list_sessions results carry it.
	WatchURL func(sessionID string) string
}

func (c *Config) defaults() {
	if c.MaxOutput <= 0 {
		c.MaxOutput = 20000
	}
	if c.DefaultTimeout <= 0 {
		c.DefaultTimeout = 10 * time.Second
	}
	if c.MaxTimeout <= 0 {
		c.MaxTimeout = 10 * time.Minute
	}
	if c.StartupTimeout <= 0 {
		c.StartupTimeout = 5 * time.Second
	}
	if c.MaxInput <= 0 {
		c.MaxInput = 64 * 1024
	}
	if c.Confirm == "" {
		c.Confirm = ConfirmAuto
	}
	if c.ConfirmTimeout <= 0 {
		c.ConfirmTimeout = 5 * time.Minute
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
}

// Server holds the tool handlers; it is the domain type the handlers are methods of.
type Server struct {
	cfg      Config
	sessions *session.Manager
	guards   guards
	asks     asks // questions to a person awaiting a retry (the 2026-07-28 era)
}

// New returns the handlers over a session manager.
func New(cfg Config, sessions *session.Manager) *Server {
	cfg.defaults()
	s := &Server{cfg: cfg, sessions: sessions}
	if sessions != nil { // tests of rendering alone have none
		sessions.OnRemove(s.guards.forget) // idle reaping included, not at the next create
		sessions.OnRemove(s.asks.end)      // a question about a session that went is moot
	}
	return s
}

// Tools lists every tool with its handler, in one place. Each tool's input schema is
// derived from its handler's argument struct (args.go) and states this server's
// configured defaults; each handler checks its calls against that schema (see
// typedTool), so the tools need no input validation from the server around them.
func (s *Server) Tools() []server.ServerTool {
	vars := s.schemaVars()
	return []server.ServerTool{
		typedTool(vars, createSessionTool(), s.createSession),
		typedTool(vars, sendCommandTool(), s.sendCommand),
		typedTool(vars, readOutputTool(), s.readOutput),
		typedTool(vars, listSessionsTool(), s.listSessions),
		typedTool(vars, closeSessionTool(), s.closeSession),
		typedTool(vars, sendControlTool(), s.sendControl),
		typedTool(vars, confirmDangerousTool(), s.confirmDangerous),
	}
}

// toolError is a failure the agent can act on: the text says what happened and what
// to do next.
func toolError(format string, a ...any) *mcp.CallToolResult {
	return mcp.NewToolResultError(fmt.Sprintf(format, a...))
}

// sessionError explains a failure from the session layer.
func sessionError(id string, err error) *mcp.CallToolResult {
	switch {
	case errors.Is(err, session.ErrUnknown):
		return toolError("unknown session %q: it was never created, was closed, or was reaped after being idle. list_sessions shows the sessions that exist; create_session starts a new one.", id)
	case errors.Is(err, session.ErrExited):
		return toolError("session %s: %v", id, err)
	case errors.Is(err, session.ErrBusy):
		return toolError("%v: this call waited its timeout_ms for it. read_output watches it; send_control ctrl+c interrupts the command it waits on at once.", err)
	case errors.Is(err, session.ErrUnknownKey):
		return toolError("%v", err)
	case errors.Is(err, session.ErrShuttingDown):
		return toolError("the server is shutting down; no new sessions can start")
	case errors.Is(err, session.ErrHeld):
		return toolError("session %s: %v in the web view: typing and close_session are refused until they give it back. read_output still works: watch what they do, or wait for a pattern.", id, err)
	}
	return toolError("session %s: %v", id, err)
}

// startError explains why a program could not start.
func startError(command string, err error) *mcp.CallToolResult {
	switch {
	case errors.Is(err, session.ErrNotFound):
		return toolError("command not found: %q is not an executable on PATH or an existing file. Check the spelling, give a full path, or start a shell (command \"bash\") and run it there.", command)
	case errors.Is(err, session.ErrNotExecutable):
		return toolError("%q cannot be executed (not an executable file, or permission denied): %v", command, err)
	case errors.Is(err, session.ErrBadDir):
		return toolError("cwd is not usable: %v. Give an existing directory.", err)
	case errors.Is(err, session.ErrLimit):
		return toolError("%v. Close a session you no longer need with close_session (list_sessions shows them), then try again.", err)
	case errors.Is(err, session.ErrShuttingDown):
		return toolError("the server is shutting down; no new sessions can start")
	}
	return toolError("could not start %q: %v", command, err)
}

func exitCode(st *session.ExitStatus) *int {
	if st == nil || st.Signal != "" {
		return nil
	}
	c := st.Code
	return &c
}

func programName(command string) string { return filepath.Base(command) }
