// Command mcp-terminal is an MCP server (over stdio, or streamable HTTP with
// --http) that gives AI agents real interactive terminals. `mcp-terminal doctor` checks the machine and runs one real
// session through the server in-process.
//
// Nothing but the MCP transport writes to stdout; logs go to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/sandbox"
	"github.com/mcp-terminal/mcp-terminal/security/policy"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
	"github.com/mcp-terminal/mcp-terminal/tools"
	"github.com/mcp-terminal/mcp-terminal/web"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(argv) > 0 && argv[0] == sandbox.Subcommand {
		// This binary re-executed as a session's launcher: restrict, then exec.
		return sandbox.Main(argv[1:], stderr)
	}
	if len(argv) > 0 && argv[0] == "doctor" {
		return doctor(argv[1:], stdout, stderr)
	}
	cfg, err := loadConfig(argv, os.Getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcp-terminal: %v\n", err)
		return 2
	}
	if cfg.Version {
		fmt.Fprintln(stdout, "mcp-terminal", version)
		return 0
	}
	j, err := newJail(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-terminal: %v\n", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	if err := serve(cfg, j, stdin, stdout, logger); err != nil {
		logger.Error("server stopped", "err", err)
		return 1
	}
	return 0
}

// app is the wired server: sessions, tool handlers and the MCP server around them.
type app struct {
	sessions *session.Manager
	audit    *redact.Audit
	mcp      *server.MCPServer
	// isolationGap says why sessions are not kept apart below the API, "" when
	// each runs secluded in a Landlock domain of its own (isolate.go).
	isolationGap string
	tools        *tools.Server
	web          *web.Server // the live view, once it listens (web.go)
	redactor     *redact.Redactor
}

func newApp(cfg config, j *jail, logger *slog.Logger) (*app, error) {
	launcher, err := j.launcher()
	if err != nil {
		return nil, err
	}
	audit, err := redact.OpenAudit(cfg.AuditLog)
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	rec, err := newRecorder(cfg, logger)
	if err != nil {
		return nil, err
	}
	sessions := session.NewManager(session.Config{
		MaxSessions:    cfg.MaxSessions,
		MaxPerOwner:    cfg.HTTP.MaxPerPrincipal,
		Scrollback:     scrollback(cfg.Scrollback),
		IdleTimeout:    idle(cfg.IdleTimeout),
		StartupTimeout: cfg.StartupTimeout,
		Logger:         logger,
		Launcher:       launcher,
		BaseEnv:        baseEnv(cfg, j),
		Tap:            rec.tapFunc(),
		OnExit: func(id string, st pty.ExitStatus) {
			code := st.Code
			audit.Record(redact.Event{Kind: redact.EventSessionExit, Session: id, ExitCode: &code, Detail: st.Signal})
			logger.Info("session ended", "session", id, "exit_code", st.Code, "signal", st.Signal)
		},
	})
	sessions.OnRemove(func(string) { j.removeEndedTmp() })
	a := &app{sessions: sessions, audit: audit, redactor: redact.NewRedactor(cfg.RedactSecrets)}
	handlers := tools.New(tools.Config{
		MaxOutput:       cfg.MaxOutput,
		DefaultTimeout:  cfg.DefaultTimeout,
		StartupTimeout:  cfg.StartupTimeout,
		MaxInput:        cfg.MaxInput,
		DangerDetection: cfg.DangerDetection,
		Policy: policy.Policy{
			Allowed: cfg.AllowedCommands, Blocked: cfg.BlockedCommands, AllowedPaths: cfg.AllowedPaths,
			Readable: readable(cfg), Writable: writable(cfg),
		},
		Redactor:  a.redactor,
		Audit:     audit,
		LogInputs: cfg.LogInputs,
		Logger:    logger,
		Sandbox:   j.sessionStatus(),

		Confirm:        tools.ConfirmMode(cfg.Confirm),
		ConfirmTimeout: cfg.ConfirmTimeout,
		WatchURL: func(id string) string {
			if a.web == nil {
				return ""
			}
			return a.web.WatchURL(id)
		},
	}, sessions)
	rec.filter = handlers.RecordFilter
	s := server.NewMCPServer("mcp-terminal", version,
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		server.WithInstructions(instructions),
	)
	s.AddTools(handlers.Tools()...)
	a.mcp, a.tools, a.isolationGap = s, handlers, j.isolationGap(cfg.HTTP)
	return a, nil
}

const instructions = "Real interactive terminals. create_session starts a program (bash, python3, psql, ssh, vim...); " +
	"send_command types a line and returns only the new output once the program is ready again; send_control presses keys; " +
	"read_output shows the screen or waits for a pattern; close_session ends every process of a session."

// scrollback maps the configuration's "0 lines" to the screen's "none".
func scrollback(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// idle maps the configuration's "0 disables" to the manager's negative.
func idle(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// serve runs the transport (stdio, or HTTP with --http) until it ends or a signal
// arrives, then ends
// every session's processes.
func serve(cfg config, j *jail, stdin io.Reader, stdout io.Writer, logger *slog.Logger) error {
	// Process-wide preparation, here rather than in the libraries, which must not
	// change their host process behind its back.
	if err := pty.BecomeSubreaper(); err != nil {
		logger.Warn("cannot become child subreaper; orphaned processes are reaped by init", "err", err)
	}
	if err := pty.SealInherited(); err != nil {
		logger.Warn("descriptors inherited from the client may reach sessions' programs", "err", err)
	}
	a, err := newApp(cfg, j, logger)
	if err != nil {
		return err
	}
	defer j.close()
	// A client that goes away closes our stdout and stderr: a write must fail with
	// EPIPE, not kill the server before it has ended its sessions' processes. Taken,
	// not ignored: an ignored signal stays ignored across exec, and every program in
	// every session ran with SIGPIPE ignored (yes | head -1 printed "yes: standard
	// output: Broken pipe"); a handled one is reset to the default there.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	// Over stdio a hang-up is the client's terminal going: stop. Over HTTP it asks
	// for the tokens file to be read again (serveHTTP).
	stopOn := []os.Signal{syscall.SIGTERM, syscall.SIGINT}
	if cfg.HTTP.Addr == "" {
		stopOn = append(stopOn, syscall.SIGHUP)
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopOn...)
	defer stop()
	a.audit.Record(redact.Event{Kind: redact.EventServerStart, Detail: version})
	if cfg.HTTP.Addr != "" {
		err = serveHTTP(ctx, cfg, a, logger) // http.go
	} else {
		err = serveStdio(ctx, cfg, a, stdin, stdout, logger)
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a.sessions.Shutdown(shutdown)
	a.audit.Record(redact.Event{Kind: redact.EventServerStop})
	if cerr := a.audit.Close(); cerr != nil {
		logger.Warn("close audit log", "err", cerr)
	}
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// serveStdio serves the one client on stdin and stdout until it disconnects or ctx
// ends.
func serveStdio(ctx context.Context, cfg config, a *app, stdin io.Reader, stdout io.Writer, logger *slog.Logger) error {
	logger.Info("mcp-terminal serving on stdio", "version", version, "pid", os.Getpid())
	if cfg.Web != "" {
		stopWeb, err := serveWeb(cfg, a, logger) // web.go
		if err != nil {
			return err
		}
		defer stopWeb()
	}

	stdio := server.NewStdioServer(a.mcp)
	stdio.SetErrorLogger(log.New(stderr(logger), "mcp: ", 0))
	server.WithWorkerPoolSize(min(100, max(16, 2*cfg.MaxSessions)))(stdio)
	err := stdio.Listen(ctx, stdin, stdout)
	if ctx.Err() != nil {
		logger.Info("signal received; closing every session")
		err = nil
	} else {
		logger.Info("client disconnected; closing every session")
	}
	return err
}

// stderr adapts the slog logger for mcp-go's *log.Logger.
func stderr(logger *slog.Logger) io.Writer { return logWriter{logger} }

type logWriter struct{ l *slog.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	w.l.Warn(string(p))
	return len(p), nil
}
