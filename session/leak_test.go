//go:build linux

package session

import (
	"context"
	"flag"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// counts is what a leak would grow: descriptors, goroutines, child processes and
// zombies of this process.
type counts struct{ fds, goroutines, children, zombies int }

func measure(t *testing.T) counts {
	t.Helper()
	var c counts
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc")
	}
	c.fds = len(fds)
	c.goroutines = runtime.NumGoroutine()
	self := strconv.Itoa(os.Getpid())
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == self {
			c.children++
			if f[0] == "Z" {
				c.zombies++
			}
		}
	}
	return c
}

// long runs the long form of the tests that have one (make test-long).
var long = flag.Bool("long", false, "run the long forms of tests: 500 create/close cycles instead of 100")

// TestCreateCloseLeaksNothing opens and closes sessions in a row, 100 (500 with
// -long); afterwards descriptors, goroutines, children and zombies are back where
// they started.
//
// Not parallel: it counts what the whole process holds.
func TestCreateCloseLeaksNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cycles := 100
	if *long {
		cycles = 500
	}
	m := newManager(t, Config{MaxSessions: 1000})
	// One session first, so that lazily created state (the shell integration
	// directory, the poller) exists before the baseline.
	warm, err := m.Create(CreateOptions{Command: "cat"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m.Close(ctx, warm.ID, 0)
	before := measure(t)
	for i := range cycles {
		command := []string{"cat", "bash", "sh"}[i%3]
		s, err := m.Create(CreateOptions{Command: command, Env: map[string]string{"PS1": "$ "}})
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		if i%25 == 0 { // some of them do real work first
			if _, err := s.Send(ctx, Input{Text: "echo x", AppendNewline: true, Timeout: 5 * time.Second}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := m.Close(ctx, s.ID, 0); err != nil {
			t.Fatalf("close %d: %v", i, err)
		}
	}
	var after counts
	deadline := time.Now().Add(10 * time.Second)
	for {
		after = measure(t)
		if after.fds <= before.fds && after.goroutines <= before.goroutines && after.children <= before.children && after.zombies == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("leak after %d sessions: before %+v, after %+v", cycles, before, after)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d sessions: before %+v after %+v", cycles, before, after)
}
