package web

import (
	"embed"
	"html/template"
	"net/http"
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/session"
)

//go:embed assets
var assets embed.FS

var pages = template.Must(template.ParseFS(assets, "assets/*.html"))

// loginPage, listPage and sessionPage are the data of the three pages.
type loginPage struct {
	Prefix string
	Failed bool
}

type listPage struct {
	Prefix    string
	Principal string
	Sessions  []session.Info
}

type sessionPage struct {
	Prefix  string
	ID      string
	Name    string
	Command string
	Events  string // the event stream's URL, with the view token when there is one
	Control bool
}

// render writes a page with status.
func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := pages.ExecuteTemplate(w, name, data); err != nil {
		s.cfg.Logger.Warn("render page", "page", name, "err", err)
	}
}

// list is the signed-in principal's sessions, or the sign-in form.
func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	who, ok := s.principal(r)
	if !ok {
		s.render(w, http.StatusOK, "login.html", loginPage{Prefix: s.cfg.Prefix})
		return
	}
	p := listPage{Prefix: s.cfg.Prefix, Principal: who}
	for _, in := range s.cfg.Sessions.List() {
		if in.Owner == who {
			p.Sessions = append(p.Sessions, in)
		}
	}
	s.render(w, http.StatusOK, "list.html", p)
}

// page is one session's live view.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	sess, _, acc := s.access(r)
	if acc == noAccess {
		s.render(w, http.StatusNotFound, "login.html", loginPage{Prefix: s.cfg.Prefix})
		return
	}
	events := s.cfg.Prefix + "s/" + sess.ID + "/events"
	if acc == viewOnly {
		events += "?view=" + s.viewToken(sess.ID)
	}
	cmd := strings.Join(append([]string{sess.Command}, sess.Args...), " ")
	s.render(w, http.StatusOK, "session.html", sessionPage{Prefix: s.cfg.Prefix, ID: sess.ID, Name: sess.Name, Command: cmd, Events: events, Control: acc == control})
}

// asset serves the script and the style sheet.
func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	switch path.Ext(name) {
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	default:
		http.NotFound(w, r)
		return
	}
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	_, _ = w.Write(b)
}
