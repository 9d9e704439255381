package redact

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

// EventKind names what an audit record is about. The values are the "event" field
// of the audit log's lines, which people and their tools read: they never change.
type EventKind string

const (
	EventServerStart   EventKind = "server_start"   // the server began serving; Detail is its version
	EventServerStop    EventKind = "server_stop"    // the server ended every session and stopped
	EventSessionCreate EventKind = "session_create" // a program started in a new session
	EventSessionClose  EventKind = "session_close"  // close_session ended a session
	EventSessionExit   EventKind = "session_exit"   // a session's program exited, on its own or closed
	EventInput         EventKind = "input"          // a line was typed into a session
	EventControl       EventKind = "control"        // keys were pressed in a session
	EventRefused       EventKind = "refused"        // input matched a danger rule and was not sent
	EventConfirmed     EventKind = "confirmed"      // refused input was confirmed with a justification
	EventBlocked       EventKind = "blocked"        // the policy (allow and block lists, paths) refused a program or input
	EventAuthFailed    EventKind = "auth_failed"    // an HTTP request's credentials were refused; Detail says why
	EventTakeOver      EventKind = "take_over"      // a person took the keyboard of a session in the web view
	EventGiveBack      EventKind = "give_back"      // the person gave the keyboard back to the agent
)

// Event is one audit record, written as one JSON object per line.
type Event struct {
	Time          time.Time `json:"time"`
	Kind          EventKind `json:"event"`
	Session       string    `json:"session_id,omitempty"`
	Command       string    `json:"command,omitempty"`
	Input         string    `json:"input,omitempty"`  // Record redacts it (and Justification) with a default-on Redactor it owns
	Hidden        bool      `json:"hidden,omitempty"` // hidden input: Record drops Input entirely
	Rule          string    `json:"rule,omitempty"`
	Justification string    `json:"justification,omitempty"`
	ConfirmedBy   string    `json:"confirmed_by,omitempty"` // confirmed input: "human" (a person, asked by elicitation) or "agent"
	ExitCode      *int      `json:"exit_code,omitempty"`
	Detail        string    `json:"detail,omitempty"`
	Principal     string    `json:"principal,omitempty"`   // who called, over HTTP: the token's name or the JWT's sub
	RemoteAddr    string    `json:"remote_addr,omitempty"` // the address the call came from, over HTTP
	Claims        *Claims   `json:"claims,omitempty"`      // the caller's non-secret JWT claims
	Actor         string    `json:"actor,omitempty"`       // who typed: "agent" (a tool call) or "web" (a person in the live view)
}

// Claims are the non-secret claims of the access token a call was made with.
type Claims struct {
	Issuer   string   `json:"iss,omitempty"`
	ClientID string   `json:"client_id,omitempty"`
	Scopes   []string `json:"scopes,omitempty"`
}

// Audit appends Events to a file. A nil *Audit records nothing, so callers
// need not check whether auditing is configured. Safe for concurrent use.
type Audit struct {
	mu     sync.Mutex
	f      *os.File
	redact *Redactor
	err    error // first write error, reported by Close
}

var errAuditClosed = errors.New("audit log closed")

// ErrAuditLink: the audit log path is a symbolic link, a hard link or not a
// regular file.
var ErrAuditLink = errors.New("the audit log must be a regular file, not a link")

// linkCount is the number of hard links to fi's file, 1 where unknown.
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// OpenAudit opens path for appending, creating it with mode 0600 and
// tightening an existing file to 0600. An empty path means no audit log and
// returns (nil, nil). It refuses a path that is a symbolic link or a file with
// other hard links, which would send the records (and the chmod) to another file.
func OpenAudit(path string) (*Audit, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("open audit log %q: %w", path, ErrAuditLink)
	}
	if err != nil {
		return nil, fmt.Errorf("open audit log %q: %w", path, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || linkCount(fi) > 1 {
		f.Close()
		return nil, fmt.Errorf("open audit log %q: not a regular file with one link: %w", path, ErrAuditLink)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("restrict audit log %q to 0600: %w", path, err)
	}
	return &Audit{f: f, redact: NewRedactor(true)}, nil
}

// Record appends e as one line. It fills Time when zero, redacts secrets in
// Command, Input, Justification and Detail, and drops Input when Hidden.
// It never fails: a write error is kept and reported by Close.
func (a *Audit) Record(e Event) {
	if a == nil {
		return
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	if e.Hidden {
		e.Input = ""
	}
	e.Input = a.redact.Redact(e.Input)
	e.Justification = a.redact.Redact(e.Justification)
	e.Command = a.redact.Redact(e.Command)
	e.Detail = a.redact.Redact(e.Detail)
	line, err := json.Marshal(e)
	line = append(line, '\n')

	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case err != nil:
	case a.f == nil:
		err = errAuditClosed
	default:
		_, err = a.f.Write(line) // one write per line: lines never interleave
	}
	if err != nil && a.err == nil {
		a.err = fmt.Errorf("write audit log: %w", err)
	}
}

// Close closes the file and reports the first write error, if any. It is
// safe to call on nil and more than once.
func (a *Audit) Close() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	return errors.Join(a.err, err)
}
