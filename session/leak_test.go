//go:build linux

package session

import (
	"context"
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

// TestCreateCloseLeaksNothing opens and closes 500 sessions in a row; afterwards
// descriptors, goroutines, children and zombies are back where they started.
func TestCreateCloseLeaksNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
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
	for i := 0; i < 500; i++ {
		command := []string{"cat", "bash", "sh"}[i%3]
		s, err := m.Create(CreateOptions{Command: command, Env: map[string]string{"PS1": "$ "}})
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		if i%50 == 0 { // some of them do real work first
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
			t.Fatalf("leak after 500 sessions: before %+v, after %+v", before, after)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("before %+v after %+v", before, after)
}
