package pty

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// Output a program wrote before it blocked reading is not delivered until Read has
// returned it, however soon after the blocking Delivered is asked; then it is, and
// counted.
func TestDelivered(t *testing.T) {
	watchdog(t, 20*time.Second)
	p, err := Start(Options{Command: "/bin/sh", Args: []string{"-c", "printf 'one two'; read x"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(t.Context()) })
	if n, all := p.Delivered(); n != 0 {
		t.Fatalf("before any Read: %d bytes delivered (all %v)", n, all)
	}
	eventually(t, 5*time.Second, func() bool { return p.InputWait().Reading || !p.InputWait().Known },
		func() string { return fmt.Sprintf("never blocked reading: %+v", p.InputWait()) })
	if !p.InputWait().Known {
		t.Skip("input-wait detection unavailable: " + p.InputWait().Why)
	}
	if n, all := p.Delivered(); all || n != 0 {
		t.Fatalf("blocked after printing, nothing read: Delivered = %d, %v", n, all)
	}
	var got []byte
	buf := make([]byte, 64)
	for !bytes.Contains(got, []byte("one two")) {
		n, err := p.Read(buf)
		if err != nil {
			t.Fatalf("read after %q: %v", got, err)
		}
		got = append(got, buf[:n]...)
	}
	if n, all := p.Delivered(); !all || n != uint64(len(got)) {
		t.Fatalf("after reading %q: Delivered = %d, %v", got, n, all)
	}
}
