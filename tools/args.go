package tools

import (
	"fmt"
	"regexp"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The argument structs below are the tools' input schemas: inputSchema derives each
// schema from its struct. The json tag names the argument (omitempty: optional),
// the jsonschema tag describes it, and the minimum, maximum, minLength and default
// tags say what jsonschema-go cannot read from a struct. A value in braces, such as
// {default_timeout_ms}, is the server's configured value (see schemaVars).
//
// Handlers get arguments that already satisfy the schema (see typedTool), so a zero
// number or an empty string means the argument was not given; append_newline,
// true by default, is a pointer to tell false from not given.

// CreateArgs are create_session's arguments.
type CreateArgs struct {
	Command string            `json:"command" jsonschema:"Program to run, looked up on PATH (e.g. \"bash\", \"python3\") or a path."`
	Args    []string          `json:"args,omitempty" jsonschema:"Arguments for the program."`
	Name    string            `json:"name,omitempty" jsonschema:"A name to recognise the session by in list_sessions."`
	Cwd     string            `json:"cwd,omitempty" jsonschema:"Working directory (default: the server's)."`
	Env     map[string]string `json:"env,omitempty" jsonschema:"Environment variables to set or override (TERM=xterm-256color, PAGER=cat and similar are preset)."`
	Cols    int               `json:"cols,omitempty" minimum:"20" maximum:"1000" default:"120" jsonschema:"Terminal width in columns (default 120)."`
	Rows    int               `json:"rows,omitempty" minimum:"5" maximum:"500" default:"40" jsonschema:"Terminal height in rows (default 40)."`
}

// CommandArgs are send_command's arguments.
type CommandArgs struct {
	SessionID      string `json:"session_id" jsonschema:"The session's id, as returned by create_session (8 hex characters)."`
	Input          string `json:"input" jsonschema:"Text to type. Newlines separate lines, each followed by Enter."`
	TimeoutMS      int    `json:"timeout_ms,omitempty" minimum:"1" maximum:"{max_timeout_ms}" jsonschema:"Longest wait in milliseconds for the program to be ready again (default {default_timeout_ms}, at most {max_timeout_ms}). The call returns as soon as the program is ready; on timeout it returns what arrived so far with is_complete false."`
	MaxOutputChars int    `json:"max_output_chars,omitempty" minimum:"{min_output_chars}" maximum:"{max_output_limit}" jsonschema:"Longest output returned (default {max_output_chars}). Longer output keeps its beginning and end with a marker in between."`
	AppendNewline  *bool  `json:"append_newline,omitempty" default:"true" jsonschema:"Press Enter after the input (default true). false types the text only, as keystrokes (vim commands like ixyz or dd, less keys): the reply comes once the program has taken them all and waits for more."`
	WaitFor        string `json:"wait_for,omitempty" jsonschema:"Regular expression (Go RE2) to wait for in output produced by this input; returns as soon as it matches (reason \"pattern\")."`
}

// ReadArgs are read_output's arguments.
type ReadArgs struct {
	SessionID      string `json:"session_id" jsonschema:"The session's id, as returned by create_session (8 hex characters)."`
	FullScreen     bool   `json:"full_screen,omitempty" default:"false" jsonschema:"Include the scrollback (up to {scrollback_lines} lines) before the visible screen."`
	WaitFor        string `json:"wait_for,omitempty" jsonschema:"Regular expression (Go RE2) to wait for in output that no reply has returned yet; returns as soon as it matches (reason \"pattern\")."`
	TimeoutMS      int    `json:"timeout_ms,omitempty" minimum:"1" maximum:"{max_timeout_ms}" jsonschema:"Longest wait in milliseconds for wait_for (default {default_timeout_ms}, at most {max_timeout_ms}). The call returns as soon as the pattern matches; on timeout it returns what arrived so far with matched false."`
	MaxOutputChars int    `json:"max_output_chars,omitempty" minimum:"{min_output_chars}" maximum:"{max_output_limit}" jsonschema:"Longest output returned (default {max_output_chars}). Longer output keeps its beginning and end with a marker in between."`
}

// ListArgs are list_sessions' arguments: none.
type ListArgs struct{}

// CloseArgs are close_session's arguments.
type CloseArgs struct {
	SessionID string `json:"session_id" jsonschema:"The session's id, as returned by create_session (8 hex characters)."`
	Signal    string `json:"signal,omitempty" jsonschema:"Signal to send first, e.g. SIGINT or SIGTERM (default: SIGHUP and SIGTERM, then SIGKILL)."`
}

// ControlArgs are send_control's arguments.
type ControlArgs struct {
	SessionID string `json:"session_id" jsonschema:"The session's id, as returned by create_session (8 hex characters)."`
	Control   string `json:"control,omitempty" jsonschema:"Key name or single character, or several separated by spaces. May be empty when cols and rows resize the terminal."`
	TimeoutMS int    `json:"timeout_ms,omitempty" minimum:"1" maximum:"{max_timeout_ms}" jsonschema:"Longest wait in milliseconds for the program to be ready again (default {default_timeout_ms}, at most {max_timeout_ms}). The call returns as soon as the program is ready; on timeout it returns what arrived so far with is_complete false."`
	Cols      int    `json:"cols,omitempty" minimum:"20" maximum:"1000" jsonschema:"New terminal width in columns (give rows too)."`
	Rows      int    `json:"rows,omitempty" minimum:"5" maximum:"500" jsonschema:"New terminal height in rows (give cols too)."`
}

// ConfirmArgs are confirm_dangerous_command's arguments.
type ConfirmArgs struct {
	SessionID     string `json:"session_id" jsonschema:"The session's id, as returned by create_session (8 hex characters)."`
	Input         string `json:"input" jsonschema:"The exact input that was refused."`
	Justification string `json:"justification" minLength:"10" jsonschema:"Why this is necessary and safe here (at least 10 characters)."`
	TimeoutMS     int    `json:"timeout_ms,omitempty" minimum:"1" maximum:"{max_timeout_ms}" jsonschema:"Longest wait in milliseconds for the program to be ready again (default {default_timeout_ms}, at most {max_timeout_ms}). The call returns as soon as the program is ready; on timeout it returns what arrived so far with is_complete false."`
}

// timeout is timeout_ms, or the configured default when it was not given.
func (s *Server) timeout(ms int) time.Duration {
	if ms == 0 {
		return s.cfg.DefaultTimeout
	}
	return time.Duration(ms) * time.Millisecond
}

// maxOutput is max_output_chars, or the configured default when it was not given.
func (s *Server) maxOutput(n int) int {
	if n == 0 {
		return s.cfg.MaxOutput
	}
	return n
}

// pattern compiles an optional wait_for.
func pattern(expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("wait_for is not a valid regular expression (Go RE2 syntax): %v", err)
	}
	return re, nil
}

func progressToken(req mcp.CallToolRequest) mcp.ProgressToken {
	if req.Params.Meta == nil {
		return nil
	}
	return req.Params.Meta.ProgressToken
}
