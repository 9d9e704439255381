package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcp-terminal/mcp-terminal/detect"
	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// Errors callers branch on (tested with errors.Is).
var (
	ErrUnknown      = errors.New("unknown session")
	ErrExited       = errors.New("session has exited")
	ErrLimit        = errors.New("session limit reached")
	ErrShuttingDown = errors.New("server is shutting down")
	ErrBusy         = errors.New("session is busy")
)

// ExitStatus is how a session's program ended.
type ExitStatus = pty.ExitStatus

// Settled is the reason of a wait that ended on quiet output: no evidence at all.
const Settled = detect.Settled

// Start failures, re-exported so that callers branch on them without knowing the pty
// package.
var (
	ErrNotFound      = pty.ErrNotFound
	ErrNotExecutable = pty.ErrNotExecutable
	ErrBadDir        = pty.ErrBadDir
)

// SignalByName reads a signal's name (SIGTERM, TERM, term) or number: pty's one table.
var SignalByName = pty.SignalByName

// SealInherited marks every descriptor this process inherited close-on-exec, so no
// session program receives one; main calls it before serving, test binaries in TestMain.
var SealInherited = pty.SealInherited

// SessionEnv names the variable every session's programs find their session id in.
// It also lets the server find a program that left its session (setsid and a double
// fork) when the session closes.
const SessionEnv = "MCP_TERMINAL_SESSION"

// exitDrain bounds how long output may still trickle in after the program exited:
// a background job can keep the terminal open, so EOF is not guaranteed.
const exitDrain = 100 * time.Millisecond

// Session is one program on a terminal.
type Session struct {
	ID      string
	Name    string
	Command string
	Args    []string
	Dir     string
	Created time.Time
	Owner   string // the principal it belongs to (CreateOptions.Owner); set before anyone can see the session

	proc *pty.Process
	scr  *screen.Screen
	log  *slog.Logger

	// turn is a one-slot semaphore: whoever holds the token types into the terminal
	// and waits for the answer. A channel, not a mutex, so waiting respects ctx.
	turn chan struct{}

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced whenever output or state changes
	lastOut  time.Time     // last output (or creation)
	lastUse  time.Time     // last call, for the idle timeout
	eof      bool          // the read loop saw the end of output
	prompted bool          // a known prompt has been seen: settling is not evidence
	holder   string        // the person holding the keyboard (control.go); "" when the agent has it

	settleDur time.Duration     // quiet period that counts as settled where allowed
	gaps      [16]time.Duration // recent pauses in the output shorter than maxSettle
	gapNext   int

	integrated bool // bash or zsh with shell integration: OSC 133 marks will come
	// readsAt is a mark sequence number whose mark, a command's start (C), was
	// the last when the shell itself was seen reading the terminal with no prompt
	// following: it exec'd a program (exec python3, exec bash --norc) or runs a
	// builtin that reads (a while read -e loop). Until the next mark it is not
	// the marked shell at its line editor (see markedShell).
	readsAt atomic.Uint64
	// editorMode: node's REPL took .editor and takes lines with no prompt (see
	// replEditor).
	editorMode atomic.Bool
	// typedMark is the newest mark's Seq when input was last written, and lineOpen
	// says that input did not end with a key that ends the line (Enter, Ctrl+C): with
	// neither since a prompt's B mark, the shell's command line there is empty,
	// whatever the screen shows after the prompt (see promptLine).
	typedMark atomic.Uint64
	lineOpen  atomic.Bool
	// replyOpen: the input last written was the terminal's answer to a program's
	// query, which a program that ended without reading it leaves to the shell's
	// line editor (binary output asks for them). gateLine clears it there.
	replyOpen atomic.Bool
	// cleared is the text gateLine cleared from the shell's command line this
	// turn, for the turn's Result.
	cleared string
	// addedTo is the text the shell's command line held when this turn typed a
	// line after it (gateLine), for the turn's Result.
	addedTo string
	// closing: the session is being closed (close_session, the idle reaper, the
	// server stopping), not just ended by its program.
	closing atomic.Bool
	// stopping: it is the server stopping that closes it.
	stopping atomic.Bool
	// typedPieces is what was typed since the last Enter (guarded by the turn).
	typedPieces string
	// typingAhead: the line being typed goes to a program in front that is not
	// reading the terminal (see Pending.Ahead; guarded by the turn).
	typingAhead bool

	// seen is where the last reply ended: output after it has not been given to the
	// agent. unseenEchoes are the lines typed since that are not output: those of
	// the last input when its reply ended before their echo could show, and those
	// of a call still waiting (or whose reply was never given).
	seen      mark
	seenReady bool // that reply had evidence the program was ready for input

	takenFor, takenAt time.Time // lineTaken's observation: for which input, since when
	unseenEchoes      []string
	gap               string // output that arrived between a reply and the next input
	ahead             []mark // lines typed ahead of the shell's prompt whose commands had not started
	entered           bool   // a line was typed (with its Enter) ...
	enteredAt         uint64 // ... when this was the newest shell-integration mark

	readDone chan struct{} // closed when readLoop returns
	fed      atomic.Uint64 // output bytes readLoop has put on the screen (see onScreen)

	tap Tap // the recording, or nil; set before readLoop starts and never changed

	replyMu  sync.Mutex
	replies  []byte         // terminal query replies not written yet
	replying bool           // the replier goroutine is running
	shut     bool           // close waits for the replier: no new one may start
	replier  sync.WaitGroup // the replier, started by reply when there is something to send
}

// Info describes a session for list_sessions.
type Info struct {
	ID           string
	Name         string
	Command      string
	Args         []string
	PID          int
	Cwd          string
	Foreground   string
	Alive        bool
	Exit         *pty.ExitStatus
	Created      time.Time
	LastActivity time.Time
	Owner        string
}

// start runs the program; o is what the caller asked for, run what actually starts
// (with shell integration).
func start(id string, o, run CreateOptions, integrated bool, cfg Config) (*Session, error) {
	proc, err := pty.Start(pty.Options{
		Command: run.Command, Args: run.Args, Dir: run.Dir, Env: run.Env, Cols: run.Cols, Rows: run.Rows,
		Launcher: cfg.Launcher, BaseEnv: cfg.BaseEnv,
	})
	if err != nil {
		return nil, err
	}
	now := time.Now()
	s := &Session{
		ID: id, Name: o.Name, Command: o.Command, Args: o.Args, Dir: o.Dir, Created: now,
		proc:     proc,
		scr:      screen.New(screen.Options{Cols: o.Cols, Rows: o.Rows, Scrollback: cfg.Scrollback}),
		log:      cfg.Logger.With("session", id),
		turn:     make(chan struct{}, 1),
		changed:  make(chan struct{}),
		lastOut:  now,
		lastUse:  now,
		readDone: make(chan struct{}),

		settleDur:  cfg.Settle,
		integrated: integrated,
	}
	s.seen = mark{at: now}
	if s.Name == "" {
		s.Name = o.Command
	}
	s.startTap(cfg)
	go s.readLoop()
	return s, nil
}

// readLoop moves program output into the screen and the screen's query replies back
// to the program. It exits when the terminal reports end of output, which happens
// when every process holding the terminal is gone or Close closes the master.
func (s *Session) readLoop() {
	defer close(s.readDone)
	if s.tap != nil {
		defer s.closeTap()
	}
	buf := make([]byte, 64*1024)
	for {
		n, err := s.proc.Read(buf)
		if n > 0 {
			if feedHook != nil {
				feedHook(buf[:n])
			}
			if s.tap != nil {
				s.tap.Output(buf[:n])
			}
			s.scr.Write(buf[:n])
			s.fed.Add(uint64(n))
			if reply := s.scr.TakeReplies(); len(reply) > 0 {
				s.reply(reply)
			}
			s.notify(true)
		}
		if err != nil {
			s.mu.Lock()
			s.eof = true
			s.mu.Unlock()
			s.notify(false)
			return
		}
	}
}

// feedHook, when set (by tests, before any session starts), sees each piece of
// output between the terminal and the screen, and may hold it there: a reader that
// a loaded machine does not schedule.
var feedHook func(b []byte)

// onScreen reports whether everything the session's programs have written to the
// terminal so far is on the screen.
func (s *Session) onScreen() bool {
	n, all := s.proc.Delivered()
	return all && n == s.fed.Load()
}

// reply queues the answer to a terminal query for the replier. The read loop never
// writes itself: the input writer may be blocked on a program that is itself
// blocked writing output, which only the read loop can drain.
func (s *Session) reply(b []byte) {
	s.replyMu.Lock()
	defer s.replyMu.Unlock()
	if s.shut {
		return // the terminal is closed; a read loop that outlived close's ctx still answers
	}
	if len(s.replies)+len(b) > maxReplies {
		s.log.Debug("terminal replies dropped: the program is not reading them", "bytes", len(b))
		return
	}
	s.replies = append(s.replies, b...)
	if !s.replying {
		s.replying = true
		s.replier.Add(1)
		go s.sendReplies()
	}
}

// maxReplies bounds the replies waiting for a program that does not read them.
const maxReplies = 64 << 10

// sendReplies writes queued replies until the queue is empty, then exits; close
// waits for it. A program that asks is reading, so this is quick; the bound keeps a
// misbehaving one from holding the replier for ever.
func (s *Session) sendReplies() {
	defer s.replier.Done()
	for {
		s.replyMu.Lock()
		b := s.replies
		s.replies = nil
		if len(b) == 0 {
			s.replying = false
			s.replyMu.Unlock()
			return
		}
		s.replyMu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		if _, err := s.proc.Write(ctx, b); err != nil {
			s.log.Debug("terminal reply not delivered", "err", err)
		} else {
			s.typedMark.Store(s.scr.Counters().MarkSeq)
			s.lineOpen.Store(true)
			s.replyOpen.Store(true)
		}
		cancel()
	}
}

// notify wakes every waiter; output also restarts the quiet clock.
func (s *Session) notify(output bool) {
	s.mu.Lock()
	if output {
		now := time.Now()
		if gap := now.Sub(s.lastOut); gap >= minGap && gap < maxSettle {
			s.gaps[s.gapNext] = gap
			s.gapNext = (s.gapNext + 1) % len(s.gaps)
		}
		s.lastOut = now
	}
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// Bounds of the settle window: the configured quiet period, lengthened to half again
// the longest recent pause in this program's output (a remote shell that prints in
// bursts), never beyond maxSettle. Pauses under minGap are a stream's normal pace.
const (
	maxSettle = 500 * time.Millisecond
	minGap    = 20 * time.Millisecond
)

// settleWindow is how long output must be quiet before a wait without evidence ends.
func (s *Session) settleWindow() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.settleDur
	for _, g := range s.gaps {
		d = max(d, g*3/2)
	}
	return min(d, max(maxSettle, s.settleDur))
}

// acquire takes the session's turn, or fails when ctx ends first.
func (s *Session) acquire(ctx context.Context) error {
	if s.tryAcquire() {
		return nil // a free turn is taken even when ctx has ended: the call says what then
	}
	select {
	case s.turn <- struct{}{}:
		s.touch()
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%w: another call is still running on session %s", ErrBusy, s.ID)
	}
}

// tryAcquire takes the session's turn if no call holds it.
func (s *Session) tryAcquire() bool {
	select {
	case s.turn <- struct{}{}:
		s.touch()
		return true
	default:
		return false
	}
}

func (s *Session) release() { <-s.turn }

func (s *Session) touch() {
	s.mu.Lock()
	s.lastUse = time.Now()
	s.mu.Unlock()
}

func (s *Session) idleSince() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastUse
}

// Alive reports whether the session's program is still running.
func (s *Session) Alive() bool {
	select {
	case <-s.proc.Done():
		return false
	default:
		return true
	}
}

// ExitStatus returns the program's exit status once it has exited.
func (s *Session) ExitStatus() (pty.ExitStatus, bool) { return s.proc.Exit() }

// PID is the process id of the session's program.
func (s *Session) PID() int { return s.proc.Pid() }

// Snapshot returns the current screen.
func (s *Session) Snapshot() screen.Snapshot { return s.scr.Snapshot() }

// Foreground names the program in front of the terminal now ("" when unknown), e.g.
// "python3" after `python3` was started inside a bash session.
func (s *Session) Foreground() string {
	if !s.Alive() {
		return ""
	}
	pgid, err := s.proc.Foreground()
	if err != nil || pgid <= 0 {
		return ""
	}
	return s.proc.ProcessName(pgid)
}

// Home is the HOME the session's program was started with, "" if unknown.
func (s *Session) Home() string { return s.proc.Getenv(s.proc.Pid(), "HOME") }

// Cwd is the working directory of the program in front (a shell's after `cd`), or
// of the session's program, or the directory it started in.
func (s *Session) Cwd() string {
	if s.Alive() {
		if pgid, err := s.proc.Foreground(); err == nil && pgid > 0 {
			if cwd := s.proc.Cwd(pgid); cwd != "" {
				return cwd
			}
		}
		if cwd := s.proc.Cwd(s.proc.Pid()); cwd != "" {
			return cwd
		}
	}
	return s.Dir
}

// Info describes the session now.
func (s *Session) Info() Info {
	s.mu.Lock()
	last := s.lastUse
	if s.lastOut.After(last) {
		last = s.lastOut
	}
	s.mu.Unlock()
	info := Info{
		ID: s.ID, Name: s.Name, Command: s.Command, Args: s.Args, PID: s.proc.Pid(),
		Alive: s.Alive(), Created: s.Created, LastActivity: last, Owner: s.Owner,
	}
	if info.Alive {
		info.Foreground = s.Foreground()
	}
	info.Cwd = s.Cwd()
	if st, ok := s.proc.Exit(); ok {
		info.Exit = &st
	}
	return info
}

// Resize changes the terminal and the screen together.
func (s *Session) Resize(cols, rows int) error {
	if err := s.proc.Resize(cols, rows); err != nil {
		return err
	}
	s.scr.Resize(cols, rows)
	if s.tap != nil {
		s.tap.Resize(cols, rows)
	}
	return nil
}

// close ends every process of the session, optionally sending sig first and giving
// the program a moment to act on it, and waits for the read loop.
func (s *Session) close(ctx context.Context, sig syscall.Signal) (pty.ExitStatus, error) {
	s.closing.Store(true)
	if sig != 0 && s.Alive() {
		_ = s.proc.Signal(sig) // the foreground group: what a key press would reach
		grace, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		select {
		case <-s.proc.Done():
		case <-grace.Done():
		}
		cancel()
	}
	err := s.proc.Close(ctx)
	pty.KillAdopted(SessionEnv, s.ID)
	select {
	case <-s.readDone:
	case <-ctx.Done():
	}
	s.replyMu.Lock()
	s.shut = true // no Add may race the Wait below
	s.replyMu.Unlock()
	s.replier.Wait() // its write fails at once on the closed terminal
	st, _ := s.proc.Exit()
	return st, err
}
