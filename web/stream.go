package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// heartbeat is how often an idle stream checks that its session still exists (and
// keeps proxies from timing it out).
const heartbeat = 15 * time.Second

// maxStreams bounds the streams open on one session: each builds its own frames,
// and a watch URL handed to an agent could open any number (twenty slowed the
// session's own command fifteen times in a flood; probe 11).
const maxStreams = 16

// events streams frames of a session as server-sent events: one at once, then one
// after each change of the screen or of who holds it. A burst of output costs one
// frame per round trip of building and writing one, not one per write. The stream
// ends when the page goes away, the session is closed or the server stops.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	sess, who, acc := s.access(r)
	if acc == noAccess {
		http.NotFound(w, r)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	if s.streams[sess.ID] >= maxStreams {
		s.mu.Unlock()
		http.Error(w, fmt.Sprintf("too many views of this session (at most %d): close one", maxStreams), http.StatusTooManyRequests)
		return
	}
	s.streams[sess.ID]++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.streams[sess.ID]--; s.streams[sess.ID] <= 0 {
			delete(s.streams, sess.ID)
		}
		s.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	if acc == control {
		defer s.opened(sess.ID, who)()
	}
	v := &viewer{sess: sess, control: acc == control}
	if s.cfg.Secrets != nil {
		v.secrets = func(text string) []Secret { return s.cfg.Secrets(sess.ID, text) }
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	var last []byte
	// gone tells the page its session was closed (close_session, the idle reaper),
	// and reports whether it was.
	gone := func() bool {
		if _, err := s.cfg.Sessions.Get(sess.ID); err == nil {
			return false
		}
		fmt.Fprint(w, "data: {\"gone\":true}\n\n")
		fl.Flush()
		return true
	}
	for {
		changed := sess.Changed() // before reading the screen: no change is missed
		b, err := json.Marshal(v.next())
		if err != nil {
			return
		}
		if string(b) != string(last) {
			_ = rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
				return
			}
			fl.Flush()
			last = b
		}
		if !sess.Alive() && gone() {
			return // said now, not at the next heartbeat (the page said "exited" meanwhile)
		}
		select {
		case <-changed:
		case <-tick.C:
			_ = rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if acc == control {
				if now, _, still := s.access(r); still != control || now != sess {
					return // signed out, or its token revoked: it watches no more
				}
			}
			if gone() {
				return
			}
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}

// pageGrace is how long a person may hold a session with no page of theirs on it
// open: a page's stream that dropped (it fell behind, the network blinked)
// reconnects within it and keeps the keyboard; a tab closed, or a take with no
// page at all, gives it back after it.
const pageGrace = 5 * time.Second

// opened counts a control page of principal on a session; the returned func, called
// when the page goes away, gives the keyboard back once the principal's last page on
// that session has been gone for pageGrace: a person who closed the tab must not
// lock the agent out.
func (s *Server) opened(id, principal string) (closed func()) {
	key := pageKey(id, principal)
	s.mu.Lock()
	s.pages[key]++
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.pages[key]--
		last := s.pages[key] == 0
		if last {
			delete(s.pages, key)
		}
		s.mu.Unlock()
		if last {
			s.releaseUnwatched(id, principal)
		}
	}
}

// releaseUnwatched gives the keyboard back to the agent after pageGrace if by
// then principal holds session id with no page of theirs open on it.
func (s *Server) releaseUnwatched(id, principal string) {
	time.AfterFunc(pageGrace, func() {
		s.mu.Lock()
		watched := s.pages[pageKey(id, principal)] > 0
		s.mu.Unlock()
		sess, err := s.cfg.Sessions.Get(id)
		if watched || err != nil || sess.Holder() != holderName(principal) {
			return
		}
		sess.GiveBack(holderName(principal))
		if s.cfg.Audit != nil {
			s.cfg.Audit(false, id, principal, "")
		}
	})
}

// pageKey names a principal's control pages on a session in Server.pages.
func pageKey(id, principal string) string { return id + "\x00" + principal }
