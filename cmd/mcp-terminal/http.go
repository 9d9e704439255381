package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-terminal/mcp-terminal/auth"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/tools"
)

// Limits of the HTTP transport.
const (
	drainTimeout      = 10 * time.Second // SIGTERM: in-flight calls finish or are cancelled within this
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 2 * time.Minute
	minBodyLimit      = 1 << 20
	authFailures      = 10 // failed attempts per source address per authWindow
	authWindow        = time.Minute
	maxCallTime       = 10 * time.Minute // the largest timeout_ms a call may give
)

// errRefused marks a configuration the HTTP transport will not serve.
var errRefused = errors.New("refusing to serve")

// serveHTTP serves streamable HTTP at /mcp until ctx ends, then stops accepting,
// lets in-flight calls finish for up to drainTimeout and cancels the rest.
// Sessions belong to principals, not to connections: they outlive both.
func serveHTTP(ctx context.Context, cfg config, a *app, logger *slog.Logger) error {
	h := cfg.HTTP
	guard, principals, err := newGuard(ctx, h, a.audit, logger)
	if err != nil {
		return err
	}
	if err := checkExposure(h, principals, a.isolationGap); err != nil {
		return err
	}
	handler := newHTTPHandler(cfg, a, guard, logger)

	ln, err := net.Listen("tcp", h.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", h.Addr, err)
	}
	base, cancelCalls := context.WithCancel(context.Background())
	defer cancelCalls()
	srv := &http.Server{
		Handler:           handler.mux,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		// A call may wait up to the largest timeout_ms; its reply must still get out.
		WriteTimeout: maxCallTime + time.Minute,
		IdleTimeout:  idleTimeout,
		BaseContext:  func(net.Listener) context.Context { return base },
		ErrorLog:     log.New(stderr(logger), "http: ", 0),
	}
	scheme := "http"
	if h.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(h.TLSCert, h.TLSKey)
		if err != nil {
			ln.Close()
			return fmt.Errorf("load TLS certificate: %w", err)
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		ln, scheme = tls.NewListener(ln, srv.TLSConfig), "https"
	}
	ui := mountWeb(cfg, a, handler.mux, scheme+"://"+ln.Addr().String(), guard, logger) // web.go
	handler.mcp = server.NewStreamableHTTPServer(a.mcp, append(handler.options, server.WithStreamableHTTPServer(srv))...)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }() // returns once Shutdown or Close is called
	logger.Info("mcp-terminal serving streamable HTTP", "url", scheme+"://"+ln.Addr().String()+"/mcp",
		"version", version, "pid", os.Getpid(), "auth", authKinds(h), "principals", len(principals))

	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
serving:
	for {
		select {
		case err := <-served:
			return fmt.Errorf("serve HTTP: %w", err)
		case <-hup:
			reloadTokens(h, guard, a.isolationGap, logger)
		case <-ctx.Done():
			break serving
		}
	}
	ui.Close() // its event streams would hold the drain below
	logger.Info("signal received; draining HTTP calls", "timeout", drainTimeout)
	drain, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	drained := make(chan error, 1)
	go func() { drained <- handler.mcp.Shutdown(drain) }()

	select {
	case err = <-drained:
	case <-time.After(drainTimeout - replyTime):
		// Calls still wait on their commands: the sessions end now, so that each
		// of them replies (its session closed as the server stops) while there is
		// time for the reply to get out. A cancelled call would send nothing.
		logger.Info("calls still waiting; ending the sessions so that they reply")
		end, cancelEnd := context.WithTimeout(context.Background(), replyTime/2)
		a.sessions.Shutdown(end)
		cancelEnd()
		err = <-drained
	}
	if err != nil {
		logger.Warn("in-flight calls did not finish in time; cancelling them", "err", err)
	}
	cancelCalls()
	srv.Close()
	<-served
	return nil
}

// reloadTokens reads the tokens file again on SIGHUP and, if it is as valid as at
// startup would require, authenticates with it from the next request on: a token
// removed is refused at once, without a restart that would end every session. A
// removed principal's sessions run on until closed or idle (nobody can reach them).
// A file that would add a second principal to a server whose sessions are not
// started apart from each other is refused, as at startup.
func reloadTokens(h httpConfig, guard *auth.Guard, gap string, logger *slog.Logger) {
	if h.TokensFile == "" || guard == nil || guard.Tokens == nil {
		logger.Info("SIGHUP: no tokens file to read again")
		return
	}
	t, err := auth.LoadTokens(h.TokensFile)
	if err == nil {
		if err = checkExposure(h, t.Principals(), gap); err != nil {
			err = fmt.Errorf("%w (a server started with one principal does not start sessions apart: restart it to serve several)", err)
		}
	}
	if err != nil {
		logger.Error("SIGHUP: the tokens file was not taken; the tokens read before still hold", "file", h.TokensFile, "err", err)
		return
	}
	guard.Tokens.Replace(t)
	logger.Info("SIGHUP: tokens file read again", "file", h.TokensFile, "principals", len(t.Principals()))
}

// replyTime is what the drain keeps, at its end, for the calls still waiting to
// reply once their sessions are ended.
const replyTime = 2 * time.Second

// httpHandler is the routing in front of the MCP server: /healthz, the RFC 9728
// metadata, and /mcp behind the origin check, the body limit and the guard.
type httpHandler struct {
	mux     *http.ServeMux
	mcp     *server.StreamableHTTPServer
	options []server.StreamableHTTPOption
}

func newHTTPHandler(cfg config, a *app, guard *auth.Guard, logger *slog.Logger) *httpHandler {
	h := &httpHandler{mux: http.NewServeMux()}
	sessions := newMCPSessions() // mcpsessions.go
	h.options = []server.StreamableHTTPOption{
		server.WithStreamableHTTPLogger(logger),
		server.WithHTTPContextFunc(callerContext),
		server.WithSessionIdManagerResolver(sessions),
	}
	h.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	var mcpEndpoint http.Handler = sessions.guardDelete(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.mcp.ServeHTTP(w, r) }))
	if guard != nil {
		meta := auth.Metadata{PublicURL: cfg.HTTP.PublicURL, Scope: cfg.HTTP.Scope}
		if cfg.HTTP.Issuer != "" {
			meta.Issuers = []string{cfg.HTTP.Issuer}
		}
		h.mux.Handle(auth.MetadataPath, meta)
		h.mux.Handle(auth.MetadataPath+"/mcp", meta)
		mcpEndpoint = guard.Wrap(mcpEndpoint)
	}
	limit := int64(max(minBodyLimit, 8*cfg.MaxInput))
	h.mux.Handle("/mcp", checkOrigin(cfg.HTTP.AllowedOrigins, capBody(limit, dropUnscopedCancels(mcpEndpoint))))
	return h
}

// callerContext hands the authenticated principal to the tools (mcp-go's HTTP
// context function, run for every call in both protocol eras).
func callerContext(ctx context.Context, r *http.Request) context.Context {
	c := tools.Caller{RemoteAddr: r.RemoteAddr}
	if p, ok := auth.FromContext(r.Context()); ok {
		c.Principal = p.Name
		if p.Method == "jwt" {
			c.Claims = &redact.Claims{Issuer: p.Issuer, ClientID: p.ClientID, Scopes: p.Scopes}
		}
	}
	return tools.WithCaller(ctx, c)
}

// checkOrigin refuses a browser request from an origin not allowed (403); requests
// without an Origin (every non-browser client) pass. It answers an allowed origin's
// CORS preflight itself, before authentication (a browser never sends credentials
// on one), and lets every response to that origin be read, a 401's challenge
// included, or a browser client could not find where to get a token.
func checkOrigin(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o := r.Header.Get("Origin")
		if o == "" {
			next.ServeHTTP(w, r)
			return
		}
		if !slices.ContainsFunc(allowed, func(a string) bool { return sameOrigin(a, o) }) {
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", o)
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate, Retry-After")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin compares an allowed origin, as the operator wrote it, with a
// request's: the scheme and host ignore case, and a trailing slash is no part of an
// origin.
func sameOrigin(allowed, origin string) bool {
	return strings.EqualFold(strings.TrimRight(allowed, "/"), origin)
}

// capBody refuses a request body over limit bytes with 413, whether it says its
// length or comes in chunks.
func capBody(limit int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			http.Error(w, fmt.Sprintf("request body over %d bytes", limit), http.StatusRequestEntityTooLarge)
			return
		}
		if r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody {
			// Chunked: its size is known once read (mcp-go would answer a body cut
			// at the limit with a JSON parse error, 400).
			body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
			switch {
			case err != nil:
				http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
				return
			case int64(len(body)) > limit:
				http.Error(w, fmt.Sprintf("request body over %d bytes", limit), http.StatusRequestEntityTooLarge)
				return
			}
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

// dropUnscopedCancels answers notifications/cancelled outside an MCP session (the
// stateless 2026-07-28 era) with 202 and drops it. mcp-go finds the call to cancel
// by its request id within the MCP session, and every stateless request has the
// same, empty, session: any principal could cancel another's call by guessing a
// small id. A stateless call is cancelled by closing its request, which mcp-go's
// client does and which still works.
func dropUnscopedCancels(next http.Handler) http.Handler {
	marker := []byte(mcp.MethodNotificationCancelled)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get(server.HeaderKeySessionID) != "" {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body) // capped by capBody
		if err != nil {
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		if bytes.Contains(body, marker) {
			var msg struct {
				Method string          `json:"method"`
				ID     json.RawMessage `json:"id"`
			}
			if json.Unmarshal(body, &msg) == nil && msg.Method == string(mcp.MethodNotificationCancelled) && msg.ID == nil {
				w.WriteHeader(http.StatusAccepted)
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// newGuard builds the authentication the settings ask for (nil for none) and
// returns the static principals' names; an issuer counts as many principals.
func newGuard(ctx context.Context, h httpConfig, audit *redact.Audit, logger *slog.Logger) (*auth.Guard, []string, error) {
	if !h.authenticated() {
		return nil, nil, nil
	}
	g := &auth.Guard{Scope: h.Scope, PublicURL: h.PublicURL, Limit: auth.NewLimiter(authFailures, authWindow)}
	g.Failed = func(r *http.Request, source, reason string) {
		audit.Record(redact.Event{Kind: redact.EventAuthFailed, RemoteAddr: r.RemoteAddr, Detail: reason})
		logger.Warn("authentication failed", "source", source, "reason", reason)
	}
	var principals []string
	if h.TokensFile != "" {
		t, err := auth.LoadTokens(h.TokensFile)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errRefused, err)
		}
		g.Tokens, principals = t, t.Principals()
	}
	if h.Issuer != "" || h.JWKSURL != "" {
		dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		j, err := auth.NewJWT(dctx, auth.JWTConfig{Issuer: h.Issuer, JWKSURL: h.JWKSURL, Audience: h.PublicURL, Scope: h.Scope})
		if err != nil {
			return nil, nil, err
		}
		if h.Issuer == "" {
			logger.Warn("no --oauth-issuer: JWTs' iss is not checked, only their signature, audience, lifetime and scope")
		}
		g.JWT = j
		// An issuer vouches for any number of subjects: count it as several.
		principals = append(principals, "every subject of "+cmp.Or(h.Issuer, h.JWKSURL), "...")
	}
	return g, principals, nil
}

// checkExposure refuses what would hand out shells carelessly: a non-loopback
// address without authentication, and several principals whose sessions would
// share this Unix user with nothing below the API to keep them apart (gap says
// why not, "" when each session runs secluded in a Landlock domain of its own,
// isolate.go).
func checkExposure(h httpConfig, principals []string, gap string) error {
	host, _, _ := net.SplitHostPort(h.Addr)
	if !h.authenticated() && !loopback(host) && !h.InsecureNoAuth {
		return fmt.Errorf("%w on %s without authentication: give --auth-tokens-file or --oauth-issuer, bind 127.0.0.1, "+
			"or pass --insecure-no-auth (MCP_TERMINAL_INSECURE_NO_AUTH) if every client that can reach it may run anything as this user", errRefused, h.Addr)
	}
	if len(principals) > 1 && gap != "" && !h.AllowSharedUser {
		return fmt.Errorf("%w %d principals (%s) whose sessions all run as this Unix user: %s. Run one server per Unix user (see README, "+
			"threat model), or pass --allow-shared-user (MCP_TERMINAL_ALLOW_SHARED_USER) if the principals trust each other",
			errRefused, len(principals), strings.Join(principals, ", "), gap)
	}
	return nil
}

// loopback says whether host names only this machine. An empty host (":8080")
// means every interface.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

func authKinds(h httpConfig) string {
	var k []string
	if h.TokensFile != "" {
		k = append(k, "tokens")
	}
	if h.Issuer != "" || h.JWKSURL != "" {
		k = append(k, "jwt")
	}
	if len(k) == 0 {
		return "none"
	}
	return strings.Join(k, "+")
}
