package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-terminal/mcp-terminal/auth"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
	"github.com/mcp-terminal/mcp-terminal/tools"
	"github.com/mcp-terminal/mcp-terminal/web"
)

// The live view and take-over UI (package web): in stdio mode on its own loopback
// listener (--web), in HTTP mode at /ui/ beside /mcp. A person signs in with a
// token the agent never gets: on stdio a control token printed on stderr and written
// to a 0600 file; over HTTP their own bearer token from the tokens file.

func webSettings() []setting {
	return []setting{
		{"web", "MCP_TERMINAL_WEB", "", "stdio mode: serve the live view and take-over UI on this loopback address (e.g. 127.0.0.1:8765); with --http it is always at /ui/",
			func(c *config, v string) error { c.Web = v; return nil }},
	}
}

// checkWeb reports a --web that cannot work.
func (c config) checkWeb() error {
	if c.Web == "" {
		return nil
	}
	if c.HTTP.Addr != "" {
		return errors.New("--web is for stdio mode: with --http the UI is served at /ui/ on the same address")
	}
	host, _, err := net.SplitHostPort(c.Web)
	if err != nil {
		return fmt.Errorf("invalid --web %q: want host:port, e.g. 127.0.0.1:8765", c.Web)
	}
	if !loopback(host) {
		return fmt.Errorf("invalid --web %q: the UI listens on a loopback address only (it has no TLS); put a proxy in front to reach it from elsewhere", c.Web)
	}
	return nil
}

// newWebUI builds the UI over the app's sessions; login checks sign-in tokens.
// limit counts failed sign-ins (nil: a limiter of its own, as the bearer guard's).
func newWebUI(a *app, prefix, baseURL string, loopbackOnly bool, login func(token string) (string, bool), limit *auth.Limiter, logger *slog.Logger) *web.Server {
	if limit == nil {
		limit = auth.NewLimiter(authFailures, authWindow)
	}
	ui := web.New(web.Config{
		Sessions: a.sessions, Prefix: prefix, BaseURL: baseURL, LoopbackOnly: loopbackOnly, Logger: logger,
		Login: func(token, remote string) (string, bool) {
			src := remote
			if host, _, err := net.SplitHostPort(remote); err == nil {
				src = host
			}
			src = auth.LimitKey(src)
			if limit.Blocked(src) > 0 {
				return "", false
			}
			who, ok := login(token)
			if !ok {
				limit.Fail(src)
				a.audit.Record(redact.Event{Kind: redact.EventAuthFailed, RemoteAddr: remote, Detail: "web sign-in: wrong token"})
			}
			return who, ok
		},
		Check: login,
		Gate: func(s *session.Session, principal, remote string, confirmed bool) func(session.Pending) error {
			return a.tools.PersonGate(s, principal, remote, confirmed)
		},
		Explain: tools.PersonRefusal,
		Secrets: func(id, text string) []web.Secret {
			found := a.redactor.Secrets(text)
			out := make([]web.Secret, len(found))
			for i, sp := range found {
				out[i] = web.Secret{Start: sp.Start, End: sp.End, Kind: sp.Kind}
			}
			for _, sp := range a.tools.TypedSecrets(id, text) {
				out = append(out, web.Secret{Start: sp[0], End: sp[1], Kind: "typed-secret"})
			}
			return out
		},
		Audit: func(take bool, id, principal, remote string) {
			kind := redact.EventGiveBack
			if take {
				kind = redact.EventTakeOver
			}
			a.tools.AuditPerson(kind, id, principal, remote)
		},
	})
	a.web = ui
	return ui
}

// controlToken is a new random sign-in token for the principal "" (stdio, or HTTP
// without tokens).
func controlToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// tokenLogin accepts exactly tok, for principal "".
func tokenLogin(tok string) func(string) (string, bool) {
	return func(t string) (string, bool) {
		return "", subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1
	}
}

// writeControlToken writes the control token to a 0600 file in the user's runtime
// directory ($XDG_RUNTIME_DIR/mcp-terminal, else a 0700 directory of this user in the
// temporary directory) and returns its path. Any process of the same Unix user can
// read it: it keeps the token from the agent's results, not from the user's programs.
func writeControlToken(tok string) (string, error) {
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir != "" {
		dir = filepath.Join(dir, "mcp-terminal")
	} else {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("mcp-terminal-%d", os.Getuid()))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s is not a private directory of this user", dir)
	}
	path := filepath.Join(dir, fmt.Sprintf("web-%d.token", os.Getpid()))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	_, err = fmt.Fprintln(f, tok)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, err
}

// serveWeb serves the UI on its own loopback listener (stdio mode) until the
// returned stop is called.
func serveWeb(cfg config, a *app, logger *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", cfg.Web)
	if err != nil {
		return nil, fmt.Errorf("listen on --web %s: %w", cfg.Web, err)
	}
	tok := controlToken()
	path, err := writeControlToken(tok)
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("write the web control token: %w", err)
	}
	base := "http://" + ln.Addr().String()
	ui := newWebUI(a, "/", base, true, tokenLogin(tok), nil, logger)
	srv := &http.Server{
		Handler: ui.Handler(), ReadHeaderTimeout: readHeaderTimeout, IdleTimeout: idleTimeout,
		ErrorLog: log.New(stderr(logger), "web: ", 0),
	}
	served := make(chan struct{})
	go func() { // returns once stop closes the server
		defer close(served)
		_ = srv.Serve(ln)
	}()
	// The control token goes to stderr (the client's log) and the file, never to
	// the agent: watch URLs carry view tokens only.
	logger.Info("live view", "url", base+"/", "control_token", tok, "control_token_file", path)
	return func() {
		ui.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		<-served
		os.Remove(path)
	}, nil
}

// mountWeb serves the UI at /ui/ on the HTTP transport's mux. Principals sign in
// with their bearer token from the tokens file, as the guard loaded it; without
// one (loopback, no authentication) with a control token printed on stderr.
func mountWeb(cfg config, a *app, mux *http.ServeMux, baseURL string, guard *auth.Guard, logger *slog.Logger) *web.Server {
	var login func(string) (string, bool)
	switch {
	case guard != nil && guard.Tokens != nil:
		login = guard.Tokens.Lookup
	case !cfg.HTTP.authenticated():
		tok := controlToken()
		login = tokenLogin(tok)
		logger.Info("live view", "url", baseURL+"/ui/", "control_token", tok)
	default:
		// JWT only: the UI has no sign-in of its own; watch URLs still work.
		login = func(string) (string, bool) { return "", false }
	}
	if cfg.HTTP.PublicURL != "" {
		if u, err := url.Parse(cfg.HTTP.PublicURL); err == nil {
			baseURL = u.Scheme + "://" + u.Host
		}
	}
	host, _, _ := net.SplitHostPort(cfg.HTTP.Addr)
	var limit *auth.Limiter
	if guard != nil {
		limit = guard.Limit // a wrong guess counts the same at /ui/ and /mcp
	}
	ui := newWebUI(a, "/ui/", strings.TrimRight(baseURL, "/"), loopback(host), login, limit, logger)
	mux.Handle("/ui/", capBody(1<<20, ui.Handler()))
	return ui
}
