package pty

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestCloseHonoursContext(t *testing.T) {
	t.Parallel()
	p, out := shell(t, `trap '' HUP TERM; echo ready; sleep 1000`)
	out.waitFor(t, "ready")
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // no grace: straight to SIGKILL
	begin := time.Now()
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d > closeGrace {
		t.Errorf("Close with an ended context took %v", d)
	}
	if st, _ := p.Exit(); st.Signal != "SIGKILL" {
		t.Errorf("exit %+v, want SIGKILL", st)
	}
}

func TestCloseTwiceAndConcurrently(t *testing.T) {
	t.Parallel()
	p, out := shell(t, `echo ready; sleep 1000`)
	out.waitFor(t, "ready")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = p.Close(t.Context()) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Close #%d: %v", i, err)
		}
	}
	if err := p.Close(t.Context()); err != nil {
		t.Errorf("Close again: %v", err)
	}
	select {
	case <-p.Done():
	default:
		t.Error("Done not closed after Close")
	}
	<-out.eof
}
