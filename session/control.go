package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcp-terminal/mcp-terminal/screen"
)

// What a live view and a person at the keyboard need from a session: a way to be
// told that the screen changed, the screen's cells, and who holds the keyboard.

// ErrHeld is returned when a person holds the session and someone else (the agent)
// wants to type into it or close it.
var ErrHeld = errors.New("a person has control of this session")

// Changed returns a channel that is closed at the next change of output or state;
// call it again after each wake-up. A viewer that waits on it never misses a change
// that happens after the call.
func (s *Session) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// Grid returns the visible screen's cells after the newest n scrollback rows.
func (s *Session) Grid(n int) screen.Grid { return s.scr.Grid(n) }

// Title is the window title the program set.
func (s *Session) Title() string { return s.scr.Snapshot().Title }

// Take gives the keyboard to a person (who names them, for messages); until
// GiveBack, Holder reports them. Taking a session one already holds succeeds.
func (s *Session) Take(who string) error {
	s.mu.Lock()
	if s.holder != "" && s.holder != who {
		h := s.holder
		s.mu.Unlock()
		return fmt.Errorf("%w: %s holds it", ErrHeld, h)
	}
	s.holder = who
	s.lastUse = time.Now()
	s.mu.Unlock()
	s.notify(false)
	return nil
}

// GiveBack returns the keyboard to the agent, if who holds it.
func (s *Session) GiveBack(who string) {
	s.mu.Lock()
	if s.holder != who {
		s.mu.Unlock()
		return
	}
	s.holder = ""
	s.mu.Unlock()
	s.notify(false)
}

// Holder names the person who holds the keyboard, "" when the agent has it.
func (s *Session) Holder() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holder
}

// Type is a person's typing: keys (names as Keys reads them) or, when keys is empty,
// text followed by Enter (a line a person confirmed). It types at once and does not
// wait for an answer: the person watches the screen. gate judges each line an Enter
// submits, as in Input.Gate; a refused line is erased from the line editor, so that
// confirming it types it afresh.
func (s *Session) Type(ctx context.Context, keys, text string, gate func(Pending) error) (*Refusal, error) {
	if key := interruptOnly(keys); key != nil && !s.tryAcquire() {
		// An agent's call holds the turn: the Ctrl+C goes in now (as the agent's own
		// does), and that call's reply shows what it did. A person who took the
		// keyboard to stop a runaway command is not kept waiting behind it (probe 11).
		return nil, s.interruptNow(ctx, key)
	} else if key == nil {
		if err := s.acquire(ctx); err != nil {
			return nil, err
		}
	}
	defer s.release()
	if !s.Alive() {
		return nil, s.exitedErr()
	}
	b := []byte(text + enter)
	if keys != "" {
		var err error
		if b, err = Keys(keys, s.scr.Counters().AppCursor); err != nil {
			return nil, err
		}
	}
	write := func(p []byte) error {
		s.tapInput(p, false) // a person's typing is recorded as an agent's is
		return s.writeInput(ctx, p)
	}
	if gate == nil {
		s.notePieces(b)
		return nil, write(b)
	}
	if i := bytes.IndexAny(b, submitKeys); i >= 0 {
		// A person's keys come a few at a time, and the echo of earlier ones may still
		// be on its way: the line is judged once the screen shows it.
		if i > 0 {
			s.notePieces(b[:i])
			if err := write(b[:i]); err != nil {
				return nil, err
			}
		}
		s.awaitEcho(ctx)
		b = b[i:]
	}
	ref, err := s.gateKeys(ctx, b, gate, write, func() {})
	if ref != nil && !ref.Cleared && ref.Line != "" && write(clearLine) == nil {
		ref.Cleared = true
	}
	return ref, err
}

// personQuiet is how long the screen must not change before a person's line is read
// back from it.
const personQuiet = 15 * time.Millisecond

// personEcho bounds awaitEcho: a line edited with keys the screen shows differently
// (a tab completed it, an arrow recalled history) costs this once, at Enter.
const personEcho = 500 * time.Millisecond

// awaitEcho waits until an integrated shell's prompt shows what was typed since the
// last Enter, or at most personEcho, and then until the screen is quiet.
func (s *Session) awaitEcho(ctx context.Context) {
	deadline := time.Now().Add(personEcho)
	for s.integrated && time.Now().Before(deadline) && ctx.Err() == nil {
		if cur, ok := s.promptLine(); ok && cur == s.typedPieces {
			break
		}
		t := time.NewTimer(time.Millisecond)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
	s.settle(ctx, s.scr.Counters().Written, false, personQuiet, echoSettle)
}
