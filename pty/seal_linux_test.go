package pty

import (
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestSealInherited: a program started on a PTY holds the terminal and nothing else
// of ours; a descriptor this process holds without close-on-exec does reach it
// (Start does not seal), and after SealInherited it no longer does.
//
// Not parallel: it gives the whole test process an inheritable descriptor.
func TestSealInherited(t *testing.T) {
	if got := foreignDescriptors(t); len(got) > 0 {
		t.Fatalf("a program started by the test process holds more than its terminal: %v", got)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	leaked, err := syscall.Dup(int(w.Fd())) // dup(2) clears close-on-exec
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(leaked)
	if got := foreignDescriptors(t); !slices.ContainsFunc(got, isPipe) {
		t.Fatalf("the inheritable pipe did not reach the program (it holds %v): the leak cannot be seen", got)
	}
	if err := SealInherited(); err != nil {
		t.Fatal(err)
	}
	if got := foreignDescriptors(t); len(got) > 0 {
		t.Fatalf("after SealInherited the program still holds %v", got)
	}
}

func isPipe(target string) bool { return strings.HasPrefix(target, "pipe:") }

// foreignDescriptors starts a shell that lists its own descriptors (ls runs as its
// child, so its own directory descriptor is not among them) and returns the
// targets that are not the session's terminal.
func foreignDescriptors(t *testing.T) []string {
	t.Helper()
	p, out := shell(t, `ls -l /proc/$$/fd; echo listed`)
	out.waitFor(t, "listed")
	var foreign []string
	for _, line := range strings.Split(out.String(), "\n") {
		_, target, ok := strings.Cut(strings.TrimSpace(line), " -> ")
		target = strings.Trim(target, "'") // GNU ls quotes pipe:[…] on a terminal
		if ok && target != p.tty {
			foreign = append(foreign, target)
		}
	}
	return foreign
}
