package pty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	cpty "github.com/creack/pty"
)

// Sentinel errors; Start's errors wrap the first three, Read, Write and the
// terminal queries return ErrClosed after Close.
var (
	ErrNotFound      = errors.New("command not found") // not on PATH / no such file
	ErrNotExecutable = errors.New("command is not executable")
	ErrBadDir        = errors.New("working directory is not usable")
	ErrClosed        = errors.New("process closed")
)

// Options describe the program to start.
type Options struct {
	Command    string            // name looked up on PATH (the PATH of the final environment), or a path
	Args       []string          // arguments after the command name
	Dir        string            // "" = server's cwd; must exist and be a directory
	Env        map[string]string // overrides, applied last (see defaultEnv)
	Cols, Rows int               // zero means 120 x 40

	// Launcher, when set, is an argv prefix the program starts through: the
	// launcher is run with the program's resolved path, its argv[0] and its
	// arguments appended, on the same terminal, and must exec it (see sandbox).
	Launcher []string
	// BaseEnv, when not nil, replaces the server's environment as the base the
	// child's is built on (see environ).
	BaseEnv []string
}

// Default terminal size, and the largest a winsize can hold.
const (
	DefaultCols = 120
	DefaultRows = 40
	maxSize     = 1<<16 - 1
)

// Process is a program running as the leader of its own session on a
// pseudo-terminal. All methods are safe for concurrent use.
type Process struct {
	cmd    *exec.Cmd
	master *os.File // non-blocking, registered with the Go poller
	pid    int
	tty    string // the slave's path, e.g. /dev/pts/3: how a process's descriptors name our terminal

	done   chan struct{} // closed by the wait goroutine once the leader is reaped
	status ExitStatus    // written before done is closed

	writeMu sync.Mutex // one Write at a time, so one call's deadline never leaks into another

	closeOnce    sync.Once
	closeErr     error
	masterClosed atomic.Bool

	// The leader's /proc files that every look reads, kept open (Linux).
	files *leaderFiles

	// Output taken by Read, for Delivered: bytes in all, and reads under way.
	got     atomic.Uint64
	reading atomic.Int32
}

// Start runs opts.Command in a new session whose controlling terminal is a
// fresh pseudo-terminal of the requested size. On error nothing is left behind:
// no descriptor, no goroutine, no process.
func Start(opts Options) (*Process, error) {
	name := opts.Command
	cols, rows := opts.Cols, opts.Rows
	if cols == 0 {
		cols = DefaultCols
	}
	if rows == 0 {
		rows = DefaultRows
	}
	if err := checkSize(cols, rows); err != nil {
		return nil, fmt.Errorf("start %q: %w", name, err)
	}
	if err := checkDir(opts.Dir); err != nil {
		return nil, fmt.Errorf("start %q: %w: %w", name, ErrBadDir, err)
	}
	base := os.Environ()
	if opts.BaseEnv != nil {
		base = opts.BaseEnv
	}
	env := environ(base, opts.Env)
	path, err := lookPath(name, opts.Dir, lookupEnv(env, "PATH"))
	if err != nil {
		return nil, fmt.Errorf("start %q: %w", name, err)
	}

	master, tty, err := cpty.Open()
	if err != nil {
		return nil, fmt.Errorf("start %q: open pty: %w", name, err)
	}
	// The child gets its own copies of the slave; ours must go, or reading the
	// master would never report that the child side is gone.
	defer tty.Close()
	m, err := pollable(master)
	if err != nil {
		return nil, fmt.Errorf("start %q: %w", name, err)
	}
	p := &Process{master: m, tty: tty.Name(), done: make(chan struct{})}
	if err := p.Resize(cols, rows); err != nil {
		m.Close()
		return nil, fmt.Errorf("start %q: %w", name, err)
	}
	argv := append([]string{name}, opts.Args...)
	if len(opts.Launcher) > 0 {
		argv = append(append(append([]string(nil), opts.Launcher...), path), argv...)
		path = opts.Launcher[0]
	}
	p.cmd = &exec.Cmd{
		Path:   path,
		Args:   argv,
		Env:    env,
		Dir:    opts.Dir,
		Stdin:  tty,
		Stdout: tty,
		Stderr: tty,
		// Ctty 0 is the child's stdin, the slave.
		SysProcAttr: &syscall.SysProcAttr{Setsid: true, Setctty: true},
	}
	if err := p.launch(); err != nil {
		m.Close()
		return nil, startError(name, err)
	}
	p.files = newLeaderFiles(p.pid)
	return p, nil
}

// startError maps exec's error to the sentinels.
func startError(name string, err error) error {
	switch {
	case errors.Is(err, syscall.ENOENT):
		return fmt.Errorf("start %q: %w: %w", name, ErrNotFound, err)
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.ENOEXEC),
		errors.Is(err, syscall.EISDIR), errors.Is(err, syscall.EPERM):
		return fmt.Errorf("start %q: %w: %w", name, ErrNotExecutable, err)
	}
	return fmt.Errorf("start %q: %w", name, err)
}

// pollable returns a non-blocking, close-on-exec duplicate of master that the
// Go poller manages (so deadlines work and Close interrupts a blocked Read),
// and closes master. creack/pty's helpers call Fd(), which switches a file to
// blocking mode for good; a fresh os.NewFile of a non-blocking descriptor is
// registered with the poller on both Linux and macOS.
func pollable(master *os.File) (*os.File, error) {
	defer master.Close()
	rc, err := master.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	var errno syscall.Errno
	if err := rc.Control(func(raw uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, raw, syscall.F_DUPFD_CLOEXEC, 0)
		fd, errno = int(r), e
	}); err != nil {
		return nil, err
	}
	if errno != 0 {
		return nil, fmt.Errorf("dup pty master: %w", errno)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("pty master non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), master.Name()), nil
}

func checkSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > maxSize || rows > maxSize {
		return fmt.Errorf("invalid terminal size %dx%d", cols, rows)
	}
	return nil
}

// Pid is the session leader's process id (also its session and process group id).
func (p *Process) Pid() int { return p.pid }

// Done is closed once the session leader has exited and been reaped. Other
// processes of the session may still be running (see Close).
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit returns how the leader ended; false until Done is closed.
func (p *Process) Exit() (ExitStatus, bool) {
	select {
	case <-p.done:
		return p.status, true
	default:
		return ExitStatus{}, false
	}
}

// Resize sets the terminal size; the kernel sends SIGWINCH to the foreground
// process group.
func (p *Process) Resize(cols, rows int) error {
	if err := checkSize(cols, rows); err != nil {
		return fmt.Errorf("resize: %w", err)
	}
	ws := cpty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}
	if err := p.ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		return fmt.Errorf("resize: %w", err)
	}
	return nil
}

// Foreground returns the id of the process group in the terminal's foreground:
// the leader's own (its pid) while it runs in front, a job's under a shell with
// job control, 0 when there is none (the leader has exited).
func (p *Process) Foreground() (int, error) {
	var pgid int32
	if err := p.ioctl(syscall.TIOCGPGRP, unsafe.Pointer(&pgid)); err != nil {
		return 0, fmt.Errorf("foreground: %w", err)
	}
	return int(pgid), nil
}

// localModes reads the terminal's ECHO and ICANON flags. On Linux the master
// reports the slave's line discipline.
func (p *Process) localModes() (echo, canonical bool, err error) {
	var t syscall.Termios
	if err := p.ioctl(ioctlGetTermios, unsafe.Pointer(&t)); err != nil {
		return false, false, fmt.Errorf("termios: %w", err)
	}
	return t.Lflag&syscall.ECHO != 0, t.Lflag&syscall.ICANON != 0, nil
}

// EchoEnabled reports the terminal's ECHO flag; it is off while a program reads
// a password.
func (p *Process) EchoEnabled() (bool, error) {
	echo, _, err := p.localModes()
	return echo, err
}

// InputHidden reports whether what is typed now stays invisible: echo off in
// canonical (line) mode, which is how getpass, sudo, ssh and `read -s` read a
// secret. Line editors (readline, vim) also turn echo off, but in raw mode, and
// draw what is typed themselves, so they do not count.
func (p *Process) InputHidden() (bool, error) {
	echo, canonical, err := p.localModes()
	return !echo && canonical, err
}

// Canonical reports whether the terminal is in line mode (ICANON): programs reading
// with a line editor (readline, vim) turn it off; `read`, cat, getpass leave it on.
func (p *Process) Canonical() (bool, error) {
	_, canonical, err := p.localModes()
	return canonical, err
}

// Wrote returns how many bytes pid has written, to any file, in all its life; ok is
// false where the kernel does not say. A reader that wrote more since an input than
// has come out of the terminal has output on its way to the screen: the kernel moves
// it to the master's side in a worker.
func (p *Process) Wrote(pid int) (n uint64, ok bool) { return wrote(p.files, pid) }

// ProcessName returns the short program name of pid, "" if unknown.
func (p *Process) ProcessName(pid int) string { return processName(pid) }

// Args returns the arguments pid was started with, its program's name first; nil
// if unknown.
func (p *Process) Args(pid int) []string { return processArgs(pid) }

// Getenv returns key in the environment pid was started with, "" if unknown.
func (p *Process) Getenv(pid int, key string) string { return processEnv(pid, key) }

// StartEnv returns key in the environment the session's program was started
// with ("" if unset): what Getenv of its pid says once it runs, without the
// moment after Start in which it says nothing. Start returns when the child's
// close-on-exec descriptors close, early in execve, and the kernel lays out
// the new program's environment a little later; under load that moment lasts
// long enough for /proc/<pid>/environ to read empty.
func (p *Process) StartEnv(key string) string { return lookupEnv(p.cmd.Env, key) }

// Cwd returns the working directory of pid, "" if unknown.
func (p *Process) Cwd(pid int) string { return processCwd(pid) }

// Signal sends sig to the terminal's foreground process group, as a key press
// (Ctrl+C, Ctrl+Z, Ctrl+\) would; while the leader lives and the foreground
// cannot be read, to the leader's group.
func (p *Process) Signal(sig syscall.Signal) error {
	if p.masterClosed.Load() {
		return fmt.Errorf("signal: %w", ErrClosed)
	}
	pgid, err := p.Foreground()
	if err != nil || pgid <= 0 {
		select {
		case <-p.done:
			return fmt.Errorf("signal: no foreground process group: %w", ErrClosed)
		default:
			pgid = p.pid // the leader is alive, so its group id cannot have been reused
		}
	}
	if err := syscall.Kill(-pgid, sig); err != nil {
		return fmt.Errorf("signal %s to group %d: %w", SignalName(sig), pgid, err)
	}
	return nil
}

// ioctl runs one ioctl on the master without switching it to blocking mode
// (which os.File.Fd would do).
func (p *Process) ioctl(req uintptr, arg unsafe.Pointer) error {
	rc, err := p.master.SyscallConn()
	if err != nil {
		return p.ioError(err)
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
	}); err != nil {
		return p.ioError(err)
	}
	if errno != 0 {
		return errno
	}
	return nil
}

// ioError maps errors of the master: closed by us is ErrClosed; EIO, which
// Linux returns once no process holds the slave open any more, is io.EOF.
func (p *Process) ioError(err error) error {
	switch {
	case errors.Is(err, os.ErrClosed), p.masterClosed.Load():
		return ErrClosed
	case errors.Is(err, syscall.EIO):
		return io.EOF
	}
	return err
}
