package pty

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestEchoRoundTrip(t *testing.T) {
	t.Parallel()
	p, out := helper(t, "echo")
	out.waitFor(t, "ready")
	if _, err := p.Write(t.Context(), []byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "got: hello")
	if !strings.Contains(out.String(), "hello\r\n") {
		t.Errorf("terminal did not echo the input: %q", out.String())
	}
}

func TestEnvironment(t *testing.T) {
	t.Setenv("LINES", "99")
	t.Setenv("COLUMNS", "99")
	t.Setenv("PTY_TEST_INHERITED", "yes")
	t.Setenv("PAGER", "more")
	p, out := start(t, Options{
		Command: mustExecutable(t),
		Args: []string{"env", "TERM", "COLORTERM", "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER",
			"LESS", "LINES", "COLUMNS", "GIT_TERMINAL_PROMPT", "PTY_TEST_INHERITED", "FOO"},
		Env: map[string]string{"PTY_TEST_HELPER": "1", "GORACE": "atexit_sleep_ms=0", "MANPAGER": "less", "FOO": "bar"},
	})
	out.waitEOF(t)
	waitDone(t, p)
	got := strings.ReplaceAll(out.String(), "\r\n", "\n")
	for _, want := range []string{
		"TERM=xterm-256color\n", "COLORTERM=truecolor\n", "PAGER=cat\n", "GIT_PAGER=cat\n",
		"MANPAGER=less\n", "SYSTEMD_PAGER=cat\n", "LESS=-R\n", "LINES unset\n", "COLUMNS unset\n",
		"GIT_TERMINAL_PROMPT unset\n", "PTY_TEST_INHERITED=yes\n", "FOO=bar\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("environment lacks %q:\n%s", want, got)
		}
	}
}

func TestEnvironOrderAndOverride(t *testing.T) {
	t.Parallel()
	got := environ([]string{"A=1", "LINES=5", "B=2", "A=3", "TERM=dumb"}, map[string]string{"B": "x", "LINES": "7"})
	want := []string{"A=3", "LINES=7", "B=x", "TERM=xterm-256color"}
	for i, w := range want {
		if i >= len(got) || got[i] != w {
			t.Fatalf("environ = %q, want it to start with %q", got, want)
		}
	}
	if v := lookupEnv(got, "PAGER"); v != "cat" {
		t.Errorf("PAGER = %q, want cat", v)
	}
}

func TestSize(t *testing.T) {
	t.Parallel()
	const script = `stty size; read x; stty size; read x`
	t.Run("default", func(t *testing.T) {
		_, out := shell(t, script)
		out.waitFor(t, "40 120")
	})
	t.Run("start and resize", func(t *testing.T) {
		p, out := start(t, Options{Command: "sh", Args: []string{"-c", script}, Cols: 100, Rows: 30})
		out.waitFor(t, "30 100")
		if err := p.Resize(90, 25); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Write(t.Context(), []byte("\n")); err != nil {
			t.Fatal(err)
		}
		out.waitFor(t, "25 90")
	})
	t.Run("invalid", func(t *testing.T) {
		p, _ := helper(t, "echo")
		for _, size := range [][2]int{{0, 10}, {10, -1}, {70000, 10}} {
			if err := p.Resize(size[0], size[1]); err == nil {
				t.Errorf("Resize(%d, %d) succeeded", size[0], size[1])
			}
		}
	})
}

// Not parallel: it counts the descriptors of the whole test process.
func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "plain"), "#!/bin/sh\n", 0o644)
	writeFile(t, filepath.Join(dir, "tool"), "#!/bin/sh\necho tool ran\n", 0o755)
	writeFile(t, filepath.Join(dir, "noshebang"), "\x7fELF garbage", 0o755)
	tests := []struct {
		name string
		opts Options
		want error
	}{
		{"empty command", Options{}, ErrNotFound},
		{"not on PATH", Options{Command: "no-such-command-xyz"}, ErrNotFound},
		{"no such path", Options{Command: filepath.Join(dir, "missing")}, ErrNotFound},
		{"final PATH is used", Options{Command: "sh", Env: map[string]string{"PATH": dir}}, ErrNotFound},
		{"not executable", Options{Command: filepath.Join(dir, "plain")}, ErrNotExecutable},
		{"not executable on PATH", Options{Command: "plain", Env: map[string]string{"PATH": dir}}, ErrNotExecutable},
		{"directory", Options{Command: dir}, ErrNotExecutable},
		{"exec format", Options{Command: filepath.Join(dir, "noshebang")}, ErrNotExecutable},
		{"dir missing", Options{Command: "sh", Dir: filepath.Join(dir, "missing")}, ErrBadDir},
		{"dir is a file", Options{Command: "sh", Dir: filepath.Join(dir, "plain")}, ErrBadDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := openFDs(t)
			p, err := Start(tt.opts)
			if err == nil {
				p.Close(t.Context())
				t.Fatal("Start succeeded")
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Start error %v, want %v", err, tt.want)
			}
			if after := openFDs(t); after != before {
				t.Errorf("open descriptors: %d before, %d after", before, after)
			}
		})
	}
	t.Run("found on the final PATH, relative to Dir", func(t *testing.T) {
		_, out := start(t, Options{Command: "tool", Dir: dir, Env: map[string]string{"PATH": "/bin:/usr/bin:."}})
		out.waitFor(t, "tool ran")
	})
}

func TestEOFAfterExitWithAllOutput(t *testing.T) {
	t.Parallel()
	const size = 100 * 1024
	p, out := helper(t, "print", "102400")
	out.waitEOF(t)
	if n := strings.Count(out.String(), "x"); n != size {
		t.Errorf("read %d bytes, want %d", n, size)
	}
	if st := waitDone(t, p); st != (ExitStatus{Code: 0}) {
		t.Errorf("exit %+v, want 0", st)
	}
}

func TestExitStatus(t *testing.T) {
	t.Parallel()
	t.Run("code", func(t *testing.T) {
		p, _ := helper(t, "exit", "3")
		if st := waitDone(t, p); st != (ExitStatus{Code: 3}) {
			t.Errorf("exit %+v, want code 3", st)
		}
		if err := p.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		if st, _ := p.Exit(); st.Code != 3 {
			t.Errorf("Close changed the exit status to %+v", st)
		}
	})
	t.Run("signal", func(t *testing.T) {
		p, out := shell(t, "echo ready; sleep 1000; exit 0")
		out.waitFor(t, "ready")
		if _, ok := p.Exit(); ok {
			t.Fatal("Exit reports an exit while running")
		}
		if err := p.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if st := waitDone(t, p); st != (ExitStatus{Code: -1, Signal: "SIGTERM"}) {
			t.Errorf("exit %+v, want SIGTERM", st)
		}
	})
}

func TestWriteBoundedByContext(t *testing.T) {
	t.Parallel()
	p, _ := start(t, Options{Command: "sleep", Args: []string{"100"}})
	payload := []byte(strings.Repeat(strings.Repeat("a", 1023)+"\n", 1024)) // 1 MiB of lines
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		begin := time.Now()
		n, err := p.Write(ctx, payload)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Write = %d, %v; want context.DeadlineExceeded", n, err)
		}
		if n >= len(payload) {
			t.Errorf("wrote all %d bytes to a program that never reads", n)
		}
		if d := time.Since(begin); d > 5*time.Second {
			t.Errorf("Write took %v", d)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(100*time.Millisecond, cancel)
		if n, err := p.Write(ctx, payload); !errors.Is(err, context.Canceled) {
			t.Fatalf("Write = %d, %v; want context.Canceled", n, err)
		}
	})
	t.Run("after close", func(t *testing.T) {
		if err := p.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Write(t.Context(), []byte("x")); !errors.Is(err, ErrClosed) {
			t.Errorf("Write after Close: %v, want ErrClosed", err)
		}
		if _, err := p.Read(make([]byte, 10)); !errors.Is(err, ErrClosed) {
			t.Errorf("Read after Close: %v, want ErrClosed", err)
		}
		if _, err := p.Foreground(); !errors.Is(err, ErrClosed) {
			t.Errorf("Foreground after Close: %v, want ErrClosed", err)
		}
		if err := p.Signal(syscall.SIGINT); !errors.Is(err, ErrClosed) {
			t.Errorf("Signal after Close: %v, want ErrClosed", err)
		}
	})
}

func TestEchoEnabled(t *testing.T) {
	t.Parallel()
	p, out := shell(t, "echo ready; read x; stty -echo; echo silent; sleep 1000")
	out.waitFor(t, "ready")
	if on, err := p.EchoEnabled(); err != nil || !on {
		t.Fatalf("EchoEnabled = %v, %v; want true", on, err)
	}
	if _, err := p.Write(t.Context(), []byte("\n")); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "silent")
	if on, err := p.EchoEnabled(); err != nil || on {
		t.Fatalf("EchoEnabled = %v, %v; want false after stty -echo", on, err)
	}
}

func mustExecutable(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func writeFile(t *testing.T, name, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func resolve(t *testing.T, path string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	return len(entries)
}
