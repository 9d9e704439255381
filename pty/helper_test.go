package pty

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMain makes the test binary its own fake child program (see
// TestHelperProcess) and, as the server is, a subreaper, so that orphans of the
// sessions under test come back to it, with its inherited descriptors sealed, so
// that the sessions hold nothing of go test's parent (see SealInherited).
func TestMain(m *testing.M) {
	if os.Getenv("PTY_TEST_HELPER") == "1" {
		os.Exit(helperMain(os.Args[1:]))
	}
	if err := BecomeSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "subreaper:", err)
		os.Exit(2)
	}
	if err := SealInherited(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// helperMain is the fake child: the test binary re-executed with
// PTY_TEST_HELPER=1 runs one of these modes instead of the tests.
func helperMain(args []string) int {
	if len(args) == 0 {
		return 2
	}
	switch args[0] {
	case "print": // print N x's without a newline, then exit 0
		n, _ := strconv.Atoi(args[1])
		os.Stdout.Write(bytes.Repeat([]byte("x"), n))
		return 0
	case "exit": // exit with the given code
		code, _ := strconv.Atoi(args[1])
		return code
	case "env": // print the named variables, one "K=V" or "K unset" per line
		for _, k := range args[1:] {
			if v, ok := os.LookupEnv(k); ok {
				fmt.Printf("%s=%s\n", k, v)
			} else {
				fmt.Printf("%s unset\n", k)
			}
		}
		fmt.Println("END")
		return 0
	case "echo": // print "ready", then echo each input line back as "got: <line>"
		fmt.Println("ready")
		buf := make([]byte, 4096)
		for {
			n, err := os.Stdin.Read(buf)
			for _, line := range strings.Fields(string(buf[:n])) {
				fmt.Printf("got: %s\n", line)
			}
			if err != nil {
				return 0
			}
		}
	}
	if mode, ok := helperModes[args[0]]; ok {
		return mode(args[1:])
	}
	return 2
}

// helperModes holds the fake child's platform-specific modes, registered by init
// functions of the files that need them.
var helperModes = map[string]func(args []string) int{}

// helperEnv makes the test binary a fake child; without atexit_sleep_ms=0 a
// race-enabled child would linger a second before exiting.
var helperEnv = map[string]string{"PTY_TEST_HELPER": "1", "GORACE": "atexit_sleep_ms=0"}

// helper starts the fake child in mode with args, closing it at cleanup.
func helper(t testing.TB, mode string, args ...string) (*Process, *output) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return start(t, Options{
		Command: exe,
		Args:    append([]string{mode}, args...),
		Env:     helperEnv,
	})
}

// shell starts /bin/sh -c script.
func shell(t testing.TB, script string) (*Process, *output) {
	t.Helper()
	return start(t, Options{Command: "/bin/sh", Args: []string{"-c", script}})
}

// start starts opts with a reader collecting the output; at cleanup the
// process is closed and the reader goroutine waited for.
func start(t testing.TB, opts Options) (*Process, *output) {
	t.Helper()
	watchdog(t, 20*time.Second)
	p, err := Start(opts)
	if err != nil {
		t.Fatalf("Start(%q): %v", opts.Command, err)
	}
	out := &output{eof: make(chan struct{})}
	// The reader exits when Read fails: io.EOF once the child side is gone, or
	// ErrClosed once Close has closed the master.
	go func() {
		defer close(out.eof)
		buf := make([]byte, 32*1024)
		for {
			n, err := p.Read(buf)
			out.mu.Lock()
			out.buf.Write(buf[:n])
			if err != nil {
				out.err = err
			}
			out.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		if err := p.Close(t.Context()); err != nil {
			t.Errorf("Close: %v", err)
		}
		<-out.eof
	})
	return p, out
}

// output collects everything a Process printed.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
	err error         // the error that ended reading
	eof chan struct{} // closed when the reader has stopped
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// waitFor polls until the output contains want, failing with the output seen.
func (o *output) waitFor(t testing.TB, want string) {
	t.Helper()
	eventually(t, 10*time.Second, func() bool { return strings.Contains(o.String(), want) },
		func() string { return fmt.Sprintf("output %q never contained %q", o.String(), want) })
}

// waitEOF waits for the reader to stop and checks it stopped at io.EOF.
func (o *output) waitEOF(t testing.TB) {
	t.Helper()
	select {
	case <-o.eof:
	case <-time.After(10 * time.Second):
		t.Fatalf("no EOF; output so far %q", o.String())
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !errors.Is(o.err, io.EOF) {
		t.Fatalf("reading ended with %v, want io.EOF", o.err)
	}
}

// eventually polls cond until it holds or d passes.
func eventually(t testing.TB, d time.Duration, cond func() bool, msg func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for pause := time.Millisecond; !cond(); pause = min(2*pause, 50*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal(msg())
		}
		time.Sleep(pause)
	}
}

// waitDone waits for the leader to be reaped.
func waitDone(t testing.TB, p *Process) ExitStatus {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("process did not exit")
	}
	st, ok := p.Exit()
	if !ok {
		t.Fatal("Exit reports not exited after Done")
	}
	return st
}

// watchdog dumps every goroutine and aborts the test binary if the test is
// still running after d, so a PTY test can never hang the suite.
func watchdog(t testing.TB, d time.Duration) {
	t.Helper()
	name := t.Name()
	timer := time.AfterFunc(d, func() {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		fmt.Fprintf(os.Stderr, "watchdog: %s still running after %v\n%s\n", name, d, buf[:n])
		os.Exit(3)
	})
	t.Cleanup(func() { timer.Stop() })
}
