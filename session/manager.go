package session

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/mcp-terminal/mcp-terminal/pty"
)

// Config holds the limits of a Manager. Zero values mean the defaults the README
// gives under "Configuration".
type Config struct {
	MaxSessions    int           // live sessions at once; default 10
	MaxPerOwner    int           // live sessions of one owner at once; default MaxSessions
	Scrollback     int           // lines per session; default 10000
	IdleTimeout    time.Duration // close sessions unused this long; default 30 min, negative disables
	StartupTimeout time.Duration // how long create waits for the first prompt; default 5 s
	Settle         time.Duration // quiet period that counts as settled where nothing better exists; default 300 ms
	Logger         *slog.Logger
	OnExit         func(id string, st pty.ExitStatus) // called once when a program exits on its own or is closed
	Launcher       []string                           // pty.Options.Launcher: every program starts through it (the sandbox)
	BaseEnv        []string                           // pty.Options.BaseEnv: nil means the server's environment
	// Tap, if set, is asked once per session, before its output is read, for the tap
	// that records it; nil means that session is not recorded.
	Tap func(TapInfo) Tap
}

func (c *Config) defaults() {
	if c.MaxSessions <= 0 {
		c.MaxSessions = 10
	}
	if c.MaxPerOwner <= 0 {
		c.MaxPerOwner = c.MaxSessions
	}
	if c.Scrollback == 0 {
		c.Scrollback = 10000
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = 30 * time.Minute
	}
	if c.StartupTimeout <= 0 {
		c.StartupTimeout = 5 * time.Second
	}
	if c.Settle <= 0 {
		c.Settle = 300 * time.Millisecond
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
}

// Manager is the registry of sessions.
type Manager struct {
	cfg Config

	mu       sync.Mutex
	sessions map[string]*Session
	starting map[string]int // owner -> sessions being started
	closed   bool

	stop   chan struct{}
	wg     sync.WaitGroup // the reaper and the exit watchers
	closeO sync.Once

	shells integrationDir

	hooksMu  sync.Mutex
	onRemove []func(id string)
}

// OnRemove registers f to be called with a session's id once it has been removed
// from the registry: closed, reaped after being idle, or ended by Shutdown. What
// callers keep per session (the tools' redaction state and remembered secrets) can
// go with it.
func (m *Manager) OnRemove(f func(id string)) {
	m.hooksMu.Lock()
	defer m.hooksMu.Unlock()
	m.onRemove = append(m.onRemove, f)
}

func (m *Manager) removed(id string) {
	m.hooksMu.Lock()
	hooks := m.onRemove
	m.hooksMu.Unlock()
	for _, f := range hooks {
		f(id)
	}
}

// NewManager starts a registry and its idle reaper; Shutdown stops both.
func NewManager(cfg Config) *Manager {
	cfg.defaults()
	m := &Manager{cfg: cfg, sessions: make(map[string]*Session), starting: map[string]int{}, stop: make(chan struct{})}
	if cfg.IdleTimeout > 0 {
		m.wg.Add(1)
		go m.reapIdle()
	}
	return m
}

// Config returns the effective configuration.
func (m *Manager) Config() Config { return m.cfg }

// CreateOptions describes a program to start.
type CreateOptions struct {
	Command    string
	Args       []string
	Name       string
	Dir        string
	Env        map[string]string
	Cols, Rows int
	Owner      string // the principal the session belongs to; "" on stdio
}

// Create starts a session. It fails without leaving anything behind when the limit
// is reached or the program cannot start.
func (m *Manager) Create(o CreateOptions) (*Session, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrShuttingDown
	}
	if live := m.liveLocked(); live >= m.cfg.MaxSessions {
		m.mu.Unlock()
		return nil, fmt.Errorf("%w: %d of %d sessions are running", ErrLimit, live, m.cfg.MaxSessions)
	}
	if own := m.ownedLocked(o.Owner); own >= m.cfg.MaxPerOwner {
		m.mu.Unlock()
		return nil, fmt.Errorf("%w: %d of your %d sessions are running", ErrLimit, own, m.cfg.MaxPerOwner)
	}
	id := m.newIDLocked()
	// Reserve the id while the program starts, so a concurrent Create counts it.
	m.sessions[id] = nil
	m.starting[o.Owner]++
	m.mu.Unlock()

	run, integrated := m.shells.integrate(o)
	run.Env = withEnv(run.Env, SessionEnv, id)
	s, err := start(id, o, run, integrated, m.cfg)
	m.mu.Lock()
	if m.starting[o.Owner]--; m.starting[o.Owner] == 0 {
		delete(m.starting, o.Owner)
	}
	if err != nil {
		delete(m.sessions, id)
		m.mu.Unlock()
		return nil, err
	}
	if m.closed {
		// Shutdown ran while the program started: it has closed everything it
		// found and may be waiting already, so this one is ours to end, and the
		// wait group must not grow.
		m.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := s.close(ctx, 0); err != nil {
			m.cfg.Logger.Warn("close session started during shutdown", "session", id, "err", err)
		}
		return nil, ErrShuttingDown
	}
	s.Owner = o.Owner
	m.sessions[id] = s
	m.wg.Add(1)
	go m.watchExit(s)
	m.mu.Unlock()
	return s, nil
}

// watchExit reports the program's exit once. It returns when the program exits,
// which Close and Shutdown guarantee.
func (m *Manager) watchExit(s *Session) {
	defer m.wg.Done()
	<-s.proc.Done()
	s.notify(false)
	if st, ok := s.proc.Exit(); ok && m.cfg.OnExit != nil {
		m.cfg.OnExit(s.ID, st)
	}
}

// withEnv returns a copy of env with k=v added.
func withEnv(env map[string]string, k, v string) map[string]string {
	out := maps.Clone(env)
	if out == nil {
		out = map[string]string{}
	}
	out[k] = v
	return out
}

// liveLocked counts sessions whose program is running (or starting).
func (m *Manager) liveLocked() int {
	n := 0
	for _, s := range m.sessions {
		if s == nil || s.Alive() {
			n++
		}
	}
	return n
}

// ownedLocked counts an owner's sessions whose program is running (or starting).
func (m *Manager) ownedLocked(owner string) int {
	n := m.starting[owner]
	for _, s := range m.sessions {
		if s != nil && s.Owner == owner && s.Alive() {
			n++
		}
	}
	return n
}

// newIDLocked returns 8 hex characters from a UUID, unique among current sessions.
func (m *Manager) newIDLocked() string {
	for {
		id := uuid.New().String()[:8]
		if _, taken := m.sessions[id]; !taken {
			return id
		}
	}
}

// Get finds a session.
func (m *Manager) Get(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknown, id)
	}
	return s, nil
}

// List describes every session, oldest first.
func (m *Manager) List() []Info {
	m.mu.Lock()
	all := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		if s != nil {
			all = append(all, s)
		}
	}
	m.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].Created.Before(all[j].Created) })
	infos := make([]Info, len(all))
	for i, s := range all {
		infos[i] = s.Info()
	}
	return infos
}

// Close ends a session's processes and removes it. sig, when non-zero, is sent first.
func (m *Manager) Close(ctx context.Context, id string, sig syscall.Signal) (pty.ExitStatus, error) {
	m.mu.Lock()
	s := m.sessions[id]
	if s == nil {
		m.mu.Unlock()
		return pty.ExitStatus{}, fmt.Errorf("%w %q", ErrUnknown, id)
	}
	delete(m.sessions, id)
	m.mu.Unlock()
	defer m.removed(id)
	return s.close(ctx, sig)
}

// Shutdown closes every session in parallel and stops the reaper. It is safe to call
// more than once; later calls wait like the first.
func (m *Manager) Shutdown(ctx context.Context) {
	m.closeO.Do(func() {
		m.mu.Lock()
		m.closed = true
		all := make([]*Session, 0, len(m.sessions))
		for id, s := range m.sessions {
			if s != nil {
				all = append(all, s)
			}
			delete(m.sessions, id)
		}
		m.mu.Unlock()
		close(m.stop)
		var wg sync.WaitGroup
		for _, s := range all {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.stopping.Store(true)
				if _, err := s.close(ctx, 0); err != nil {
					m.cfg.Logger.Warn("close session", "session", s.ID, "err", err)
				}
				m.removed(s.ID)
			}()
		}
		wg.Wait()
		pty.KillOrphans() // whatever escaped its session still ends with the server, whatever its environment
		m.shells.remove()
	})
	m.wg.Wait()
}

// reapIdle closes sessions that nobody has used for IdleTimeout. It exits when
// Shutdown closes m.stop.
func (m *Manager) reapIdle() {
	defer m.wg.Done()
	period := min(m.cfg.IdleTimeout/4, time.Minute)
	period = max(period, 10*time.Millisecond)
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case now := <-t.C:
			for _, id := range m.idle(now) {
				m.cfg.Logger.Info("closing idle session", "session", id, "idle_timeout", m.cfg.IdleTimeout)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				_, _ = m.Close(ctx, id, 0)
				cancel()
			}
		}
	}
}

func (m *Manager) idle(now time.Time) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for id, s := range m.sessions {
		if s != nil && now.Sub(s.idleSince()) >= m.cfg.IdleTimeout && len(s.turn) == 0 {
			ids = append(ids, id)
		}
	}
	return ids
}
