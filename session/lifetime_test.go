//go:build linux

package session

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// running lists the processes whose command line contains want.
func running(t *testing.T, want string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if strings.Contains(string(b), want) && !strings.Contains(string(stat), ") Z ") {
			pids = append(pids, pid)
		}
	}
	return pids
}

// A Create that started its program while Shutdown ran must not register it after
// Shutdown has closed everything: the program would outlive the server.
func TestCreateRacingShutdownLeavesNothing(t *testing.T) {
	const tag = "31.4159"
	for i := range 30 {
		m := NewManager(Config{MaxSessions: 10})
		var wg sync.WaitGroup
		var s *Session
		var err error
		wg.Go(func() {
			s, err = m.Create(CreateOptions{Command: "sleep", Args: []string{tag}})
		})
		if i%2 == 0 {
			time.Sleep(time.Duration(i) * 100 * time.Microsecond) // vary who wins
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		m.Shutdown(ctx)
		cancel()
		wg.Wait()
		if err == nil {
			if _, gerr := m.Get(s.ID); gerr == nil {
				t.Errorf("iteration %d: session %s registered after Shutdown", i, s.ID)
			}
		} else if !errors.Is(err, ErrShuttingDown) {
			t.Fatalf("iteration %d: Create: %v", i, err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(running(t, "sleep\x00"+tag)) > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("iteration %d: sleep %s outlived Shutdown: %v", i, tag, running(t, "sleep\x00"+tag))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// The output reader never waits for the input writer: a program that asks the
// terminal a question (a cursor position report) and then prints a lot, while a
// large input waits for it to read, still has its output drained. Before, the
// reply was written under the lock the blocked input held, so output stopped until
// the input's timeout.
func TestReaderNotBlockedByInput(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	m := newManager(t, Config{})
	script := `import sys, time, tty
tty.setraw(0)
sys.stdout.write("go\r\n"); sys.stdout.flush()
time.sleep(0.5)
sys.stdout.write("\x1b[6n"); sys.stdout.flush()
for i in range(20000):
    sys.stdout.write("line %d of the flood\r\n" % i)
sys.stdout.write("FLOOD-DONE\r\n"); sys.stdout.flush()
sys.stdin.buffer.read(1)
time.sleep(1000)
`
	s, err := m.Create(CreateOptions{Command: "python3", Args: []string{"-c", script}})
	if err != nil {
		t.Fatal(err)
	}
	waitScreen(t, s, "go", 10*time.Second)
	// Far more than the terminal buffers, so the write blocks until the program reads.
	big := strings.Repeat("x", 1<<20)
	sent := make(chan error, 1)
	go func() {
		_, err := s.Send(context.Background(), Input{Text: big, Timeout: 30 * time.Second})
		sent <- err
	}()
	waitScreen(t, s, "FLOOD-DONE", 10*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m.Close(ctx, s.ID, 0)
	<-sent
}

// waitScreen polls the session's full text for want.
func waitScreen(t *testing.T, s *Session, want string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !strings.Contains(s.scr.AllText(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("%q never appeared; screen:\n%s", want, s.Snapshot().Lines)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
