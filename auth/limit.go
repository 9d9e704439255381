package auth

import (
	"sync"
	"time"
)

// Limiter counts failed authentication attempts per source address in fixed
// windows: a source that fails Max times within Window is refused until the window
// ends. A nil *Limiter limits nothing.
type Limiter struct {
	Max    int
	Window time.Duration
	Now    func() time.Time // default time.Now

	mu      sync.Mutex
	sources map[string]*window
}

type window struct {
	start  time.Time
	failed int
}

// maxSources bounds the table: past it, windows that ended are dropped.
const maxSources = 10000

// NewLimiter returns a limiter of max failures per window.
func NewLimiter(max int, per time.Duration) *Limiter {
	return &Limiter{Max: max, Window: per}
}

func (l *Limiter) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// Blocked says how long source must still wait, or 0 when it may try.
func (l *Limiter) Blocked(source string) time.Duration {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.sources[source]
	now := l.now()
	if w == nil || now.Sub(w.start) >= l.Window || w.failed < l.Max {
		return 0
	}
	return w.start.Add(l.Window).Sub(now)
}

// Fail counts one failed attempt from source.
func (l *Limiter) Fail(source string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.sources == nil {
		l.sources = map[string]*window{}
	}
	if len(l.sources) >= maxSources {
		for k, w := range l.sources {
			if now.Sub(w.start) >= l.Window {
				delete(l.sources, k)
			}
		}
	}
	w := l.sources[source]
	if w == nil || now.Sub(w.start) >= l.Window {
		w = &window{start: now}
		l.sources[source] = w
	}
	w.failed++
}
