package web

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcp-terminal/mcp-terminal/session"
)

// TestFramesSendEachScrolledRowOnce: while output scrolls, frames read with
// rows of context above them for secrets still send every scrolled row once, in
// order, and redact a secret whose first line went in an earlier frame and has
// scrolled off the screen by the time the rest comes.
func TestFramesSendEachScrolledRowOnce(t *testing.T) {
	m := session.NewManager(session.Config{IdleTimeout: -1})
	t.Cleanup(func() { m.Shutdown(t.Context()) })
	script := `for i in $(seq 1 400); do echo line-$i; done
echo BEGIN; sleep 0.3; k=$(printf 'key-%s\n' $(seq 1 15)); printf '%s\nEND\n' "$k"`
	sess, err := m.Create(session.CreateOptions{Command: "sh", Args: []string{"-c", script + "; sleep 30"}, Cols: 40, Rows: 10})
	if err != nil {
		t.Fatal(err)
	}
	// A stand-in for the redactor: a "key" runs from BEGIN to END, over rows.
	secrets := func(text string) []Secret {
		b, e := strings.Index(text, "BEGIN"), strings.Index(text, "END")
		if b < 0 || e < b {
			return nil
		}
		return []Secret{{b, e + len("END"), "private-key"}}
	}
	v := &viewer{sess: sess, secrets: secrets}
	var sent []string
	var last frame
	deadline := time.Now().Add(20 * time.Second)
	for {
		last = v.next()
		for _, row := range last.Append {
			sent = append(sent, text(row))
		}
		if strings.Contains(fmt.Sprint(last.Rows), "REDACTED") || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Frames go on while nothing scrolls: the key's first line is above the screen.
	for range 3 {
		last = v.next()
		for _, row := range last.Append {
			sent = append(sent, text(row))
		}
		for _, row := range last.Rows {
			sent = append(sent, text(row))
		}
	}
	next := 1
	for _, s := range sent {
		if strings.Contains(s, "key-") {
			t.Errorf("a key line was shown: %q", s)
		}
		if n := 0; strings.HasPrefix(s, "line-") {
			fmt.Sscanf(s, "line-%d", &n)
			if n != next {
				t.Fatalf("row %q where line-%d was due; rows sent: %q", s, next, sent)
			}
			next++
		}
	}
	if next != 401 {
		t.Errorf("rows line-1 to line-400 not all sent: up to line-%d", next-1)
	}
}

func text(row []run) string {
	var b strings.Builder
	for _, r := range row {
		b.WriteString(r[0])
	}
	return b.String()
}

// TestFramesSkipAFlood: a page behind a flood of output gets its newest rows and
// a line saying how many it skipped, not every row since its last frame.
func TestFramesSkipAFlood(t *testing.T) {
	m := session.NewManager(session.Config{IdleTimeout: -1})
	t.Cleanup(func() { m.Shutdown(t.Context()) })
	sess, err := m.Create(session.CreateOptions{Command: "sh", Args: []string{"-c", "read x; seq 1 3000; echo FLOOD-END; sleep 30"}, Cols: 40, Rows: 10})
	if err != nil {
		t.Fatal(err)
	}
	v := &viewer{sess: sess}
	v.next() // the page opens
	if _, err := sess.Send(t.Context(), session.Input{Text: "go", AppendNewline: true, Timeout: 10 * time.Second, WaitFor: regexp.MustCompile("FLOOD-END")}); err != nil {
		t.Fatal(err)
	}
	f := v.next()
	if len(f.Append) != floodCap+1 || !strings.Contains(text(f.Append[0]), "lines of output not shown") {
		t.Fatalf("%d rows appended, first %q", len(f.Append), text(f.Append[0]))
	}
	if last := text(f.Append[len(f.Append)-1]); !strings.HasPrefix(last, "29") {
		t.Errorf("the last row appended is %q, want one of the newest", last)
	}
}
