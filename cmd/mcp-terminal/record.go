package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/record"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// recorder opens each session's recording when MCP_TERMINAL_RECORD_DIR is set.
type recorder struct {
	opts   record.Options // zero Dir: recording is off
	filter func(id string) func(string) string
	log    *slog.Logger
}

// newRecorder checks the recording directory at startup, creating it (0700) if
// needed, so that a wrong path is a startup error rather than silent sessions.
func newRecorder(cfg config, logger *slog.Logger) (*recorder, error) {
	r := &recorder{log: logger}
	if cfg.RecordDir == "" {
		return r, nil
	}
	if err := os.MkdirAll(cfg.RecordDir, 0o700); err != nil {
		return nil, fmt.Errorf("recording directory: %w", err)
	}
	if fi, err := os.Stat(cfg.RecordDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("recording directory %q is not a directory", cfg.RecordDir)
	}
	r.opts = record.Options{
		Dir: cfg.RecordDir, Input: cfg.RecordInput, MaxBytes: int64(cfg.RecordMaxMB) << 20, Logger: logger,
	}
	return r, nil
}

// commandRedactor redacts the command in a recording's header as the audit log does.
var commandRedactor = redact.NewRedactor(true)

// tapFunc is session.Config.Tap: nil when recording is off.
func (r *recorder) tapFunc() func(session.TapInfo) session.Tap {
	if r.opts.Dir == "" {
		return nil
	}
	return r.tap
}

// tap opens a session's recording: a session that cannot be recorded still runs, and the
// log says why it is not recorded.
func (r *recorder) tap(info session.TapInfo) session.Tap {
	o := r.opts
	if r.filter != nil {
		o.Filter = r.filter(info.ID)
	}
	h := record.Header{
		Width: info.Cols, Height: info.Rows, Started: info.Started,
		Command: commandRedactor.Redact(strings.Join(append([]string{info.Command}, info.Args...), " ")),
		Env:     map[string]string{},
	}
	if info.Name != info.Command {
		h.Title = info.Name
	}
	for k, v := range map[string]string{"TERM": info.Term, "SHELL": info.Shell} {
		if v != "" {
			h.Env[k] = v
		}
	}
	rec, err := record.Create(o, info.ID, h)
	if err != nil {
		level := slog.LevelWarn
		if errors.Is(err, record.ErrLink) {
			level = slog.LevelError
		}
		r.log.Log(context.Background(), level, "session not recorded", "session", info.ID, "err", err)
		return nil
	}
	r.log.Info("recording session", "session", info.ID, "file", rec.Path())
	return rec
}
