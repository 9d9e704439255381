package tools

import (
	"context"
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
// notifications/progress, if the call carried a progress token. The returned stop
// ends the reporter and waits for it: it is the goroutine's owner.
func (s *Server) progress(ctx context.Context, token mcp.ProgressToken, sess *session.Session) (stop func()) {
	srv := server.ServerFromContext(ctx)
	if token == nil || srv == nil {
		return func() {}
	}
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
				msg := s.cfg.Redactor.Redact(lastLine(sess))
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

func lastLine(sess *session.Session) string {
	snap := sess.Snapshot()
	for i := snap.Cursor.Row; i >= 0; i-- {
		if i < len(snap.Lines) && strings.TrimSpace(snap.Lines[i]) != "" {
			return strings.TrimSpace(snap.Lines[i])
		}
	}
	return ""
}
