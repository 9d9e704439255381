package record

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Header is what an asciicast v2 file says about the whole recording.
type Header struct {
	Width, Height int
	Started       time.Time
	Command       string // the program and its arguments, as the caller wants them shown (redacted)
	Title         string
	Env           map[string]string // asciicast allows TERM and SHELL
}

// Options configures the recordings of a server.
type Options struct {
	Dir      string // where <id>.cast files are created
	Input    bool   // record what is typed as "i" events (the caller never passes hidden input)
	MaxBytes int64  // size cap per file; 0 means DefaultMaxBytes
	// Filter, if set, rewrites each piece of output before it is written (redaction).
	// It runs on the Recorder's goroutine, never on the caller's.
	Filter func(string) string
	Logger *slog.Logger
}

// DefaultMaxBytes is the size cap of a recording when Options gives none: 100 MiB.
const DefaultMaxBytes = 100 << 20

// ErrLink: the recording's path exists as a symbolic link or something other than a
// regular file; nothing is written through it.
var ErrLink = errors.New("recording path is a symbolic link or not a regular file")

// maxQueue bounds the output waiting for the writer: beyond it (a disk that cannot
// keep up) output is dropped and a marker says how much, rather than the session
// waiting or the server's memory growing.
const maxQueue = 16 << 20

// Recorder appends one session's events to its file. Its methods are safe for
// concurrent use, never block on the disk, and do nothing after Close.
type Recorder struct {
	o     Options
	f     *os.File
	path  string
	start time.Time
	log   *slog.Logger

	full atomic.Bool // the writer stopped (size cap, write error): queue nothing more

	mu      sync.Mutex
	pending batch
	dropped int
	closed  bool

	wake      chan struct{} // one-slot: the writer has something to do
	closing   chan struct{} // closed by Close: write what is queued now
	done      chan struct{} // closed when the writer returns
	closeOnce sync.Once

	w writer // owned by the writer goroutine
}

// Create opens dir/<id>.cast (or <id>-2.cast... when a file of that name exists),
// mode 0600, without following a symbolic link, writes the header and starts the
// writer. Close stops it.
func Create(o Options, id string, h Header) (*Recorder, error) {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if !validID(id) {
		return nil, fmt.Errorf("record: session id %q cannot name a file", id)
	}
	f, path, err := create(o.Dir, id)
	if err != nil {
		return nil, err
	}
	// Event times count from now, the header's timestamp from when the session began.
	r := &Recorder{
		o: o, f: f, path: path, start: time.Now(), log: o.Logger.With("recording", path),
		wake: make(chan struct{}, 1), closing: make(chan struct{}), done: make(chan struct{}),
	}
	if h.Started.IsZero() {
		h.Started = r.start
	}
	r.w = writer{f: f, max: o.MaxBytes, filter: o.Filter}
	if err := r.w.header(h); err != nil {
		f.Close()
		return nil, fmt.Errorf("record: write header of %s: %w", path, err)
	}
	go r.loop()
	return r, nil
}

// create makes the file exclusively: O_EXCL never follows a symbolic link, and an
// existing path is used only to pick the next free name when it is a regular file.
func create(dir, id string) (*os.File, string, error) {
	for n := 1; n <= 100; n++ {
		name := id + ".cast"
		if n > 1 {
			name = id + "-" + strconv.Itoa(n) + ".cast"
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
		if err == nil {
			return f, path, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, "", fmt.Errorf("record: create %s: %w", path, err)
		}
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			return nil, "", fmt.Errorf("record: %s: %w", path, ErrLink)
		}
	}
	return nil, "", fmt.Errorf("record: no free file name for session %s in %s", id, dir)
}

func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Path is the file being written.
func (r *Recorder) Path() string { return r.path }

// Output records what the program printed. It copies b into the queue and returns.
func (r *Recorder) Output(b []byte) { r.add(kindOutput, b, "") }

// Input records bytes typed into the terminal, when Options.Input asks for them.
// The caller never passes what was typed at a hidden prompt.
func (r *Recorder) Input(b []byte) {
	if r.o.Input {
		r.add(kindInput, b, "")
	}
}

// Resize records a new terminal size.
func (r *Recorder) Resize(cols, rows int) {
	r.add(kindResize, nil, strconv.Itoa(cols)+"x"+strconv.Itoa(rows))
}

// Mark records a marker: a point a player can jump to, with a label.
func (r *Recorder) Mark(label string) { r.add(kindMarker, nil, label) }

func (r *Recorder) add(kind byte, b []byte, text string) {
	if len(b) == 0 && (kind == kindOutput || kind == kindInput) || r.full.Load() {
		return
	}
	r.mu.Lock()
	switch {
	case r.closed:
	case len(r.pending.data)+len(b) > maxQueue:
		r.dropped += len(b)
	default:
		r.pending.add(kind, time.Since(r.start), b, text)
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default: // the writer is already due to run
	}
}

// batchDelay is how long the writer lets events gather after the first of a batch:
// fewer, larger writes, and the session's read path seldom meets the writer at the
// lock. A crash loses at most this much.
const batchDelay = 5 * time.Millisecond

// loop writes each batch as it comes. It returns after Close, once the last batch
// is written.
func (r *Recorder) loop() {
	defer close(r.done)
	var spare batch
	delay := time.NewTimer(batchDelay)
	defer delay.Stop()
	for range r.wake {
		delay.Reset(batchDelay)
		select {
		case <-delay.C:
		case <-r.closing:
		}
		r.mu.Lock()
		b := r.pending
		r.pending = spare
		dropped, closed := r.dropped, r.closed
		r.dropped = 0
		r.mu.Unlock()
		if dropped > 0 {
			b.add(kindMarker, b.last(), nil, fmt.Sprintf("recording lost %d bytes of output here: the disk did not keep up", dropped))
		}
		if err := r.w.write(&b, closed); err != nil {
			r.log.Warn("recording stopped", "err", err)
		}
		if r.w.stopped {
			r.full.Store(true)
		}
		spare = b.reset()
		if closed {
			return
		}
	}
}

// Close writes what is queued and closes the file; safe to call more than once.
func (r *Recorder) Close() error {
	var err error
	r.closeOnce.Do(func() {
		r.mu.Lock()
		r.closed = true
		r.mu.Unlock()
		close(r.closing)
		select {
		case r.wake <- struct{}{}:
		default:
		}
		<-r.done
		err = r.f.Close()
	})
	return err
}
