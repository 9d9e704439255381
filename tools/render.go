package tools

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"github.com/mcp-terminal/mcp-terminal/security"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// render prepares one session's output for the agent: secrets redacted first (so
// truncation can never leave half a secret), then head and tail kept within limit.
func (s *Server) render(id, output string, limit int) (string, bool) {
	return truncate(s.guards.get(id, s.cfg.Redactor).clean(output), limit)
}

func (s *Server) audit(e security.Event) { s.cfg.Audit.Record(e) }

func describe(st *session.ExitStatus) string {
	if st == nil {
		return "still running"
	}
	return st.String()
}

var signals = map[string]syscall.Signal{
	"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "QUIT": syscall.SIGQUIT, "KILL": syscall.SIGKILL,
	"TERM": syscall.SIGTERM, "USR1": syscall.SIGUSR1, "USR2": syscall.SIGUSR2, "CONT": syscall.SIGCONT,
	"STOP": syscall.SIGSTOP, "ABRT": syscall.SIGABRT, "ALRM": syscall.SIGALRM,
}

// parseSignal accepts SIGTERM, TERM, term or a number.
func parseSignal(name string) (syscall.Signal, error) {
	n := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(name)), "SIG")
	if sig, ok := signals[n]; ok {
		return sig, nil
	}
	if num, err := strconv.Atoi(n); err == nil && num > 0 && num < 32 {
		return syscall.Signal(num), nil
	}
	return 0, fmt.Errorf("unknown signal %q; use one of SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGKILL, SIGUSR1, SIGUSR2, SIGCONT, SIGSTOP, SIGABRT, SIGALRM or a number 1-31", name)
}
