package tools

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-terminal/mcp-terminal/session"
)

// progressEvery is how often a waiting call reports progress. Many clients reset
// their own timeout on progress and show its message.
const progressEvery = time.Second

// progress reports, while a call waits, the last line of output as
// notifications/progress, redacted as the session's results are (its stream and
// typed secrets), if the call carried a progress token. The returned stop
// ends the reporter and waits for it: it is the goroutine's owner.
func (s *Server) progress(ctx context.Context, token mcp.ProgressToken, sess *session.Session) (stop func()) {
	srv := server.ServerFromContext(ctx)
	if token == nil || srv == nil {
		return func() {}
	}
	gd := s.guards.get(sess.ID, s.cfg.Redactor)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				msg := lastLine(gd.peek(screenText(sess)))
				if since, ok := gd.askedFor(); ok {
					msg = fmt.Sprintf("waiting for a person to confirm dangerous input (%s so far, at most %s)", since.Round(time.Second).String(), s.cfg.ConfirmTimeout.String())
				}
				err := srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
					"progressToken": token, "progress": n, "message": msg,
				})
				if err != nil {
					s.cfg.Logger.Debug("progress notification", "err", err)
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		wg.Wait()
	}
}

// screenText is the screen down to the cursor's row: what a progress message may
// quote, redacted as a whole so a key's body lines are known for what they are.
func screenText(sess *session.Session) string {
	snap := sess.Snapshot()
	return strings.Join(snap.Lines[:min(snap.Cursor.Row+1, len(snap.Lines))], "\n")
}

func lastLine(screen string) string {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}
