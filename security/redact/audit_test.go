package redact

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func openTestAudit(t *testing.T, path string) *Audit {
	t.Helper()
	a, err := OpenAudit(path)
	if err != nil {
		t.Fatalf("OpenAudit: %v", err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func readEvents(t *testing.T, path string) []Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q is not one JSON object: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

func TestOpenAuditEmptyPath(t *testing.T) {
	t.Parallel()
	a, err := OpenAudit("")
	if a != nil || err != nil {
		t.Fatalf("OpenAudit(\"\") = %v, %v; want nil, nil", a, err)
	}
	a.Record(Event{Kind: EventInput}) // nil-safe
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAuditFileMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.log")
	existing := filepath.Join(dir, "old.log")
	if err := os.WriteFile(existing, []byte("{\"event\":\"old\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fresh, existing} {
		openTestAudit(t, p).Record(Event{Kind: EventServerStart})
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), st.Mode().Perm())
		}
	}
	if got := readEvents(t, existing); len(got) != 2 || got[0].Kind != "old" {
		t.Errorf("existing log not appended to: %+v", got)
	}
}

func TestAuditRecordRedactsAndHides(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "audit.log")
	a := openTestAudit(t, path)
	code := 3
	a.Record(Event{Kind: EventInput, Session: "abcd1234", Input: "export GH=" + fakeGitHub})
	a.Record(Event{Kind: EventConfirmed, Rule: "rm-recursive-force", Justification: "use password=hunter2 to clean"})
	a.Record(Event{Kind: EventInput, Input: "hunter2", Hidden: true})
	a.Record(Event{Kind: EventSessionExit, ExitCode: &code})
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	for _, secret := range []string{fakeGitHub, "hunter2"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("audit log contains secret %q:\n%s", secret, raw)
		}
	}
	ev := readEvents(t, path)
	if len(ev) != 4 {
		t.Fatalf("got %d events, want 4", len(ev))
	}
	if ev[0].Time.IsZero() || !strings.Contains(ev[0].Input, "[REDACTED:github-token]") {
		t.Errorf("event 0 = %+v; want time filled and token redacted", ev[0])
	}
	if ev[2].Input != "" || !ev[2].Hidden {
		t.Errorf("hidden input recorded: %+v", ev[2])
	}
	if ev[3].ExitCode == nil || *ev[3].ExitCode != 3 {
		t.Errorf("exit code lost: %+v", ev[3])
	}
}

func TestAuditConcurrentRecord(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "audit.log")
	a := openTestAudit(t, path)
	const writers, each = 32, 50
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				a.Record(Event{Kind: EventInput, Session: "s", Input: strings.Repeat("x", w*i%500)})
			}
		})
	}
	wg.Wait()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(readEvents(t, path)); got != writers*each {
		t.Errorf("got %d lines, want %d", got, writers*each)
	}
}

func TestAuditWriteErrorRemembered(t *testing.T) {
	t.Parallel()
	a := openTestAudit(t, filepath.Join(t.TempDir(), "audit.log"))
	a.f.Close() // make the next write fail
	a.Record(Event{Kind: EventInput})
	if err := a.Close(); err == nil {
		t.Error("Close after a failed write returned nil")
	}
	a.Record(Event{Kind: EventInput}) // after Close: no panic
}

// TestAuditHiddenOnlyAsHidden: a hidden input leaves no trace of its text in
// any field, whatever the event kind, and the line says it was hidden.
func TestAuditHiddenOnlyAsHidden(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "audit.log")
	a := openTestAudit(t, path)
	for _, kind := range []EventKind{EventInput, EventConfirmed} {
		a.Record(Event{Kind: kind, Session: "s", Input: "correct horse battery staple", Hidden: true, Rule: "r", Justification: "typing the sudo password"})
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if strings.Contains(line, "horse") || strings.Contains(line, `"input":`) || !strings.Contains(line, `"hidden":true`) {
			t.Errorf("hidden input not recorded as hidden only: %s", line)
		}
	}
}

// TestEventKindsOnDisk pins the "event" values: the audit log is read by people and
// their tools, so a renamed constant must not rename what is written.
func TestEventKindsOnDisk(t *testing.T) {
	want := map[EventKind]string{
		EventServerStart: "server_start", EventServerStop: "server_stop",
		EventSessionCreate: "session_create", EventSessionClose: "session_close", EventSessionExit: "session_exit",
		EventInput: "input", EventControl: "control", EventRefused: "refused", EventConfirmed: "confirmed", EventBlocked: "blocked",
	}
	for kind, name := range want {
		line, err := json.Marshal(Event{Time: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Kind: kind, Session: "abcd1234"})
		if err != nil {
			t.Fatal(err)
		}
		if got, exp := string(line), `{"time":"2025-01-02T03:04:05Z","event":"`+name+`","session_id":"abcd1234"}`; got != exp {
			t.Errorf("%s is written as %s, want %s", name, got, exp)
		}
	}
}

// TestAuditRefusesLinks: records sent through a symlink or a hard link would land
// in (and chmod) whatever file the link names.
func TestAuditRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sym := filepath.Join(dir, "sym.log")
	if err := os.Symlink(target, sym); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.log")
	if err := os.Link(target, hard); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sym, hard, dir} {
		a, err := OpenAudit(p)
		if err == nil {
			a.Close()
			t.Errorf("OpenAudit(%s) accepted a link or a non-file", p)
		} else if p != dir && !errors.Is(err, ErrAuditLink) {
			t.Errorf("OpenAudit(%s) = %v, want ErrAuditLink", p, err)
		}
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target was chmodded to %v", fi.Mode().Perm())
	}
}
