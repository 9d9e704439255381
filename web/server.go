package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcp-terminal/mcp-terminal/session"
)

// Secret is where a secret lies in a text: the bytes [Start, End), and its kind.
type Secret struct {
	Start, End int
	Kind       string
}

// Config is what the UI needs from the rest of the server.
type Config struct {
	Sessions *session.Manager
	// Prefix is the path the UI is served under, ending in "/": "/" on its own
	// listener (stdio mode), "/ui/" beside /mcp.
	Prefix string
	// BaseURL is scheme://host:port the UI is reached at, for watch URLs.
	BaseURL string
	// Login checks a sign-in token from source (the remote address) and names its
	// principal; ok is false for a wrong token (the caller rate-limits and audits).
	Login func(token, source string) (principal string, ok bool)
	// Check says whether a token signed in with still names its principal (a
	// reloaded tokens file may have revoked it; a JWT expires); it is asked on
	// every request of a sign-in, without Login's auditing. nil: a sign-in lasts
	// its cookie's lifetime.
	Check func(token string) (principal string, ok bool)
	// Gate returns the judge of lines a person submits (nil: none); with confirmed, a
	// line refused a moment ago runs.
	Gate func(s *session.Session, principal, remoteAddr string, confirmed bool) func(session.Pending) error
	// Explain turns a refusal into what the page shows: the line (empty when hidden),
	// why, and whether a person may confirm it.
	Explain func(*session.Refusal) (line, why string, confirmable bool)
	// Audit records a person taking (take) or giving back a session's keyboard, from
	// remoteAddr ("" when the server gives it back for them).
	Audit func(take bool, sessionID, principal, remoteAddr string)
	// Secrets, when set, says where secrets (tokens, keys, and what was typed at a
	// session's password prompts) lie in a text of that session's, which may run
	// over several rows of the screen: rows holding part of one are drawn plain,
	// with it replaced. The view must show no more than the agent's results.
	Secrets func(sessionID, text string) []Secret
	// LoopbackOnly refuses requests whose Host is not a loopback name (DNS
	// rebinding), for a listener on a loopback address.
	LoopbackOnly bool
	Logger       *slog.Logger
}

// Server serves the UI. Close ends every live stream.
type Server struct {
	cfg  Config
	key  []byte // signs view tokens; new each start, so old watch URLs stop working
	mux  *http.ServeMux
	done chan struct{}
	once sync.Once

	mu      sync.Mutex
	signins map[string]signin // cookie value -> who signed in
	pages   map[string]int    // session id + principal -> open control pages
	streams map[string]int    // session id -> open streams, of any page
}

type signin struct {
	principal string
	token     string // checked again on each request (Config.Check)
	expires   time.Time
}

// cookieName is the sign-in cookie; signinTTL how long a sign-in lasts.
const (
	cookieName = "mcp_terminal_ui"
	signinTTL  = 12 * time.Hour
	maxSignins = 1000
)

// New returns the UI's handlers.
func New(cfg Config) *Server {
	if cfg.Prefix == "" {
		cfg.Prefix = "/"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, key: randomBytes(32), mux: http.NewServeMux(), done: make(chan struct{}), signins: map[string]signin{}, pages: map[string]int{}, streams: map[string]int{}}
	p := cfg.Prefix
	s.mux.HandleFunc("GET "+p+"{$}", s.list)
	s.mux.HandleFunc("GET "+p+"assets/{file}", s.asset)
	s.mux.HandleFunc("POST "+p+"login", s.login)
	s.mux.HandleFunc("POST "+p+"logout", s.logout)
	s.mux.HandleFunc("GET "+p+"s/{id}", s.page)
	s.mux.HandleFunc("GET "+p+"s/{id}/events", s.events)
	s.mux.HandleFunc("POST "+p+"s/{id}/take", s.take)
	s.mux.HandleFunc("POST "+p+"s/{id}/give", s.give)
	s.mux.HandleFunc("POST "+p+"s/{id}/keys", s.keys)
	s.mux.HandleFunc("POST "+p+"s/{id}/confirm", s.confirm)
	return s
}

// Handler is the UI, to be mounted at Config.Prefix.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.LoopbackOnly && !loopbackHost(r.Host) {
			http.Error(w, "host not allowed", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost && !sameOrigin(r) {
			http.Error(w, "cross-origin request refused", http.StatusForbidden)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin") // a watch URL's token must not leak to other sites
		h.Set("Cache-Control", "no-store")
		s.mux.ServeHTTP(w, r)
	})
}

// Close ends every event stream (the server is stopping); safe to call twice.
func (s *Server) Close() { s.once.Do(func() { close(s.done) }) }

// WatchURL is the view-only address of a session, for the agent to pass on.
func (s *Server) WatchURL(id string) string {
	return s.cfg.BaseURL + s.cfg.Prefix + "s/" + id + "?view=" + s.viewToken(id)
}

// viewToken allows watching session id, nothing else.
func (s *Server) viewToken(id string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("view\x00" + id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:24])
}

// access is what a request may do with a session.
type access int

const (
	noAccess access = iota
	viewOnly
	control
)

// access finds the session and what the request may do with it: its owner signed in
// controls it, a view token watches it; anyone else learns nothing, not even that it
// exists.
func (s *Server) access(r *http.Request) (*session.Session, string, access) {
	sess, err := s.cfg.Sessions.Get(r.PathValue("id"))
	if err != nil {
		return nil, "", noAccess
	}
	if who, ok := s.principal(r); ok && who == sess.Owner {
		return sess, who, control
	}
	tok := r.URL.Query().Get("view")
	if tok != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.viewToken(sess.ID))) == 1 {
		return sess, "", viewOnly
	}
	return nil, "", noAccess
}

// principal is who signed in with this request's cookie.
func (s *Server) principal(r *http.Request) (string, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return "", false
	}
	s.mu.Lock()
	in, ok := s.signins[c.Value]
	if ok && time.Now().After(in.expires) {
		delete(s.signins, c.Value)
		ok = false
	}
	s.mu.Unlock()
	if !ok {
		return "", false
	}
	if s.cfg.Check != nil {
		if who, valid := s.cfg.Check(in.token); !valid || who != in.principal {
			// Revoked since the sign-in (the tokens file reloaded), or expired.
			s.mu.Lock()
			delete(s.signins, c.Value)
			s.mu.Unlock()
			return "", false
		}
	}
	return in.principal, true
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	token := strings.TrimSpace(r.PostFormValue("token"))
	who, ok := "", false
	if token != "" && s.cfg.Login != nil {
		who, ok = s.cfg.Login(token, r.RemoteAddr)
	}
	if !ok {
		s.render(w, http.StatusUnauthorized, "login.html", loginPage{Prefix: s.cfg.Prefix, Failed: true})
		return
	}
	value := base64.RawURLEncoding.EncodeToString(randomBytes(32))
	s.mu.Lock()
	now := time.Now()
	for v, in := range s.signins {
		if now.After(in.expires) {
			delete(s.signins, v)
		}
	}
	if len(s.signins) < maxSignins {
		s.signins[value] = signin{principal: who, token: token, expires: now.Add(signinTTL)}
	}
	s.mu.Unlock()
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: value, Path: s.cfg.Prefix, MaxAge: int(signinTTL.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	http.Redirect(w, r, s.cfg.Prefix, http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(cookieName); err == nil {
		s.mu.Lock()
		delete(s.signins, c.Value)
		s.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: s.cfg.Prefix, MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, s.cfg.Prefix, http.StatusSeeOther)
}

// sameOrigin refuses a browser's cross-site POST: the cookie is SameSite=Strict
// already; this also covers browsers that send it anyway.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" || o == "null" { // null: the browser hides the origin (a referrer policy)
		site := r.Header.Get("Sec-Fetch-Site")
		return site == "same-origin" || (o == "" && site == "")
	}
	i := strings.Index(o, "://")
	return i > 0 && strings.EqualFold(o[i+3:], r.Host)
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand panics rather than return an error)
	return b
}
