package tools

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// CreateResult is create_session's structured result.
type CreateResult struct {
	SessionID string `json:"session_id" jsonschema:"short id of the new session; pass it to every other tool"`
	Name      string `json:"name"`
	PID       int    `json:"pid"`
	Output    string `json:"output" jsonschema:"the startup screen"`
	IsAlive   bool   `json:"is_alive"`
	Ready     bool   `json:"ready" jsonschema:"the program showed it is ready for input before the startup timeout"`
	Reason    string `json:"reason" jsonschema:"evidence for ready: prompt, settled, exit or timeout"`
	ExitCode  *int   `json:"exit_code,omitempty"`
	Truncated bool   `json:"truncated"`
	Sandbox   string `json:"sandbox,omitempty" jsonschema:"what the kernel (Landlock) enforces on this session, when a policy is configured"`
	WatchURL  string `json:"watch_url,omitempty" jsonschema:"the live view of this session for a person to watch (view only); tell your user"`
}

// CommandResult is the structured result of send_command, send_control and
// confirm_dangerous_command.
type CommandResult struct {
	Output      string   `json:"output" jsonschema:"new output caused by this input, echo removed, up to the cursor line"`
	IsComplete  bool     `json:"is_complete" jsonschema:"true only on positive evidence that the program is ready for input again or exited"`
	IsAlive     bool     `json:"is_alive"`
	Reason      string   `json:"reason" jsonschema:"evidence: exit, shell_mark, pattern, input_wait, prompt, settled or timeout"`
	Detail      string   `json:"detail,omitempty" jsonschema:"more about the evidence, e.g. which prompt matched, or why a better signal was unavailable"`
	ExitCode    *int     `json:"exit_code,omitempty" jsonschema:"exit status of the command (shell integration) or of the session's program once it has exited"`
	InputHidden bool     `json:"input_hidden" jsonschema:"the program now reads without echo (a password prompt): what is typed next is kept out of logs and results"`
	Truncated   bool     `json:"truncated"`
	Warning     string   `json:"warning,omitempty"`
	DurationMS  int64    `json:"duration_ms"`
	Highlighted []string `json:"highlighted,omitempty" jsonschema:"on a full-screen program's screen, the text shown in reverse video: the item its menu or list has selected"`
}

// Cursor is a position on the visible screen, zero-based.
type Cursor struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// ReadResult is read_output's structured result.
type ReadResult struct {
	Output      string   `json:"output"`
	IsAlive     bool     `json:"is_alive"`
	ExitCode    *int     `json:"exit_code,omitempty"`
	Cursor      Cursor   `json:"cursor"`
	AltScreen   bool     `json:"alt_screen" jsonschema:"a full-screen program (vim, less, htop) holds the alternate screen"`
	InputHidden bool     `json:"input_hidden" jsonschema:"the program reads without echo now (a password prompt)"`
	Title       string   `json:"title"`
	Cols        int      `json:"cols"`
	Rows        int      `json:"rows"`
	Matched     *bool    `json:"matched,omitempty" jsonschema:"with wait_for: whether the pattern matched before the timeout"`
	NewOutput   bool     `json:"new_output,omitempty" jsonschema:"with wait_for: output is what no reply had returned yet (echo removed), not the screen"`
	Truncated   bool     `json:"truncated"`
	Highlighted []string `json:"highlighted,omitempty" jsonschema:"on a full-screen program's screen, the text shown in reverse video: the item its menu or list has selected"`
}

// SessionInfo is one entry of list_sessions.
type SessionInfo struct {
	SessionID    string   `json:"session_id"`
	Name         string   `json:"name"`
	Command      string   `json:"command"`
	Args         []string `json:"args,omitempty"`
	PID          int      `json:"pid"`
	Cwd          string   `json:"cwd"`
	Foreground   string   `json:"foreground" jsonschema:"the program in front of the terminal now"`
	IsAlive      bool     `json:"is_alive"`
	ExitCode     *int     `json:"exit_code,omitempty"`
	CreatedAt    string   `json:"created_at"`
	LastActivity string   `json:"last_activity"`
	WatchURL     string   `json:"watch_url,omitempty" jsonschema:"the live view of this session (view only)"`
}

// ListResult is list_sessions' structured result.
type ListResult struct {
	Sessions []SessionInfo `json:"sessions"`
}

// CloseResult is close_session's structured result.
type CloseResult struct {
	Success  bool   `json:"success"`
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty" jsonschema:"the signal that ended the program, if one did"`
}

// status renders the one-line summary that follows the output in the text item.
func (r CommandResult) status() string {
	parts := []string{}
	switch {
	case r.IsComplete:
		parts = append(parts, "complete: "+r.Reason)
	default:
		parts = append(parts, "incomplete: "+r.Reason)
	}
	if r.Detail != "" && r.Reason != "shell_mark" {
		parts[0] += " (" + r.Detail + ")"
	}
	if r.ExitCode != nil {
		parts = append(parts, fmt.Sprintf("exit %d", *r.ExitCode))
	}
	if r.InputHidden {
		parts = append(parts, "input hidden: the program waits for a secret")
	}
	if !r.IsAlive {
		parts = append(parts, "session ended")
	}
	parts = append(parts, fmtDuration(time.Duration(r.DurationMS)*time.Millisecond))
	if r.Truncated {
		parts = append(parts, "truncated")
	}
	if len(r.Highlighted) > 0 {
		parts = append(parts, highlightedPart(r.Highlighted))
	}
	return "[" + strings.Join(parts, " · ") + "]"
}

// highlightedPart names the reverse-video text of a full-screen program's screen
// in a status line.
func highlightedPart(h []string) string {
	q := make([]string, len(h))
	for i, t := range h {
		q[i] = strconv.Quote(clip(t, 60))
	}
	return "highlighted: " + strings.Join(q, ", ")
}

func fmtDuration(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// text is the model-facing rendering: the output, then the status line, then any warning.
func textWith(output, status, warning string) string {
	var b strings.Builder
	b.WriteString(output)
	if output != "" && !strings.HasSuffix(output, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(status)
	if warning != "" {
		b.WriteString("\n")
		b.WriteString(warning)
	}
	return b.String()
}
