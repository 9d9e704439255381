package pty

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// The fake child's Linux modes: blocking in a chosen system call, and holding
// typed input unread in raw mode.

func init() {
	if os.Getenv("PTY_TEST_HELPER") != "1" {
		return
	}
	// /proc/<pid>/syscall shows the main thread only. Locked in init, the main
	// goroutine, and so the helper's blocking calls, stays on that thread.
	runtime.LockOSThread()
	helperModes["wait"] = helperWait
	helperModes["raw"] = helperRaw
}

// testCalls numbers, per architecture, the calls the "wait" mode can block in.
var testCalls = map[string]map[string]int{
	"amd64": {"read": 0, "poll": 7, "select": 23, "pselect6": 270, "ppoll": 271,
		"epoll_wait": 232, "epoll_pwait": 281, "epoll_pwait2": 441},
	"arm64": {"read": 63, "pselect6": 72, "ppoll": 73, "epoll_pwait": 22, "epoll_pwait2": 441},
}

// helperWait blocks, again and again, in system call args[0] on the terminal with
// a timeout of args[1] milliseconds (negative: none, a NULL pointer for calls that
// take one). args[2], if present, adds a descriptor to the set ("pipe", "socket",
// "ptmx", "inotify"), or is "pri": wait on the terminal for POLLPRI only, which
// typed input does not raise, so input stays unread.
func helperWait(args []string) int {
	nr, ok := testCalls[runtime.GOARCH][args[0]]
	ms, err := strconv.Atoi(args[1])
	if !ok || err != nil {
		fmt.Println("bad wait arguments", args)
		return 2
	}
	fds, events := []int{0}, int16(syscall.EPOLLIN)
	if len(args) > 2 && args[2] == "pri" {
		events = syscall.EPOLLPRI
	} else if len(args) > 2 {
		fd, err := openExtra(args[2])
		if err != nil {
			fmt.Println(err)
			return 1
		}
		fds = append(fds, fd)
	}
	block, err := blocker(args[0], uintptr(nr), fds, events, ms)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("ready")
	for {
		block() // returns at each timeout, and on EINTR
	}
}

// openExtra opens a descriptor to wait on beside the terminal, keeping any other
// end open so that it never becomes readable.
func openExtra(kind string) (int, error) {
	switch kind {
	case "pipe":
		var p [2]int
		err := syscall.Pipe2(p[:], syscall.O_CLOEXEC)
		return p[0], err
	case "socket":
		p, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		return p[0], err
	case "ptmx":
		return syscall.Open("/dev/ptmx", syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	case "inotify":
		return syscall.InotifyInit1(syscall.IN_CLOEXEC)
	}
	return -1, fmt.Errorf("unknown descriptor kind %q", kind)
}

// blocker returns one blocking call of the named system call on fds. Calls that
// overwrite their arguments on return (select's sets and timeval) get fresh ones
// each time.
func blocker(name string, nr uintptr, fds []int, events int16, ms int) (func(), error) {
	switch name {
	case "read":
		buf := make([]byte, 64)
		return func() { syscall.Syscall(nr, 0, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf))) }, nil
	case "poll", "ppoll":
		return pollBlocker(name, nr, fds, events, ms), nil
	case "select", "pselect6":
		return selectBlocker(name, nr, fds, ms), nil
	}
	return epollBlocker(name, nr, fds, events, ms)
}

func pollBlocker(name string, nr uintptr, fds []int, events int16, ms int) func() {
	type pollfd struct {
		fd             int32
		events, revent int16
	}
	set := make([]pollfd, len(fds))
	for i, fd := range fds {
		set[i] = pollfd{fd: int32(fd), events: events}
	}
	if name == "poll" {
		return func() {
			syscall.Syscall(nr, uintptr(unsafe.Pointer(&set[0])), uintptr(len(set)), uintptr(ms))
		}
	}
	return func() {
		ts := timespec(ms)
		syscall.Syscall6(nr, uintptr(unsafe.Pointer(&set[0])), uintptr(len(set)), uintptr(unsafe.Pointer(ts)), 0, 8, 0)
	}
}

func selectBlocker(name string, nr uintptr, fds []int, ms int) func() {
	return func() {
		var set syscall.FdSet
		for _, fd := range fds {
			set.Bits[fd/64] |= 1 << (fd % 64)
		}
		nfds := uintptr(fds[len(fds)-1] + 1)
		var t unsafe.Pointer // NULL unless ms >= 0
		if ms >= 0 && name == "select" {
			t = unsafe.Pointer(&syscall.Timeval{Sec: int64(ms / 1000), Usec: int64(ms%1000) * 1000})
		} else if ms >= 0 {
			t = unsafe.Pointer(timespec(ms))
		}
		syscall.Syscall6(nr, nfds, uintptr(unsafe.Pointer(&set)), 0, 0, uintptr(t), 0)
	}
}

func epollBlocker(name string, nr uintptr, fds []int, events int16, ms int) (func(), error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	for _, fd := range fds {
		ev := syscall.EpollEvent{Events: uint32(events), Fd: int32(fd)}
		if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
			return nil, err
		}
	}
	evs := make([]syscall.EpollEvent, 4)
	return func() {
		ts, arg := timespec(ms), uintptr(ms) // epoll_wait, epoll_pwait: milliseconds
		if name == "epoll_pwait2" {
			arg = uintptr(unsafe.Pointer(ts))
		}
		syscall.Syscall6(nr, uintptr(epfd), uintptr(unsafe.Pointer(&evs[0])), uintptr(len(evs)), arg, 0, 8)
		runtime.KeepAlive(ts)
	}, nil
}

// timespec converts ms to a struct timespec, nil (NULL) for a negative ms.
func timespec(ms int) *syscall.Timespec {
	if ms < 0 {
		return nil
	}
	ts := syscall.NsecToTimespec((time.Duration(ms) * time.Millisecond).Nanoseconds())
	return &ts
}

// helperRaw puts the terminal in raw mode, prints "ready", and reads nothing
// until SIGUSR1; then it echoes what it reads as "got: <bytes>" lines.
func helperRaw([]string) int {
	if err := makeRaw(0); err != nil {
		fmt.Println(err)
		return 1
	}
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	fmt.Println("ready")
	<-usr1
	buf := make([]byte, 64)
	for {
		n, err := os.Stdin.Read(buf)
		fmt.Printf("got: %s\n", buf[:n])
		if err != nil {
			return 0
		}
	}
}

// makeRaw does what cfmakeraw(3) does to fd's terminal.
func makeRaw(fd int) error {
	var t syscall.Termios
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TCGETS, uintptr(unsafe.Pointer(&t))); e != 0 {
		return fmt.Errorf("TCGETS: %w", e)
	}
	t.Iflag &^= syscall.IGNBRK | syscall.BRKINT | syscall.PARMRK | syscall.ISTRIP |
		syscall.INLCR | syscall.IGNCR | syscall.ICRNL | syscall.IXON
	t.Oflag &^= syscall.OPOST
	t.Lflag &^= syscall.ECHO | syscall.ECHONL | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
	t.Cflag = t.Cflag&^(syscall.CSIZE|syscall.PARENB) | syscall.CS8
	t.Cc[syscall.VMIN], t.Cc[syscall.VTIME] = 1, 0
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TCSETS, uintptr(unsafe.Pointer(&t))); e != 0 {
		return fmt.Errorf("TCSETS: %w", e)
	}
	return nil
}
