package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// castEvent is one parsed event line.
type castEvent struct {
	At   float64
	Kind string
	Data string
}

// readCast parses a recording: its header and events, failing the test on any line
// that is not valid asciicast v2.
func readCast(t *testing.T, path string) (map[string]any, []castEvent) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	var header map[string]any
	var events []castEvent
	last := 0.0
	for n := 0; sc.Scan(); n++ {
		if n == 0 {
			if err := json.Unmarshal(sc.Bytes(), &header); err != nil {
				t.Fatalf("header %q: %v", sc.Text(), err)
			}
			continue
		}
		var raw []any
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil || len(raw) != 3 {
			t.Fatalf("line %d %q: not [time, kind, data]: %v", n+1, sc.Text(), err)
		}
		at, ok1 := raw[0].(float64)
		kind, ok2 := raw[1].(string)
		data, ok3 := raw[2].(string)
		if !ok1 || !ok2 || !ok3 || at < last {
			t.Fatalf("line %d %q: bad types or time going back", n+1, sc.Text())
		}
		last = at
		events = append(events, castEvent{at, kind, data})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return header, events
}

func output(events []castEvent, kind string) string {
	var b strings.Builder
	for _, e := range events {
		if e.Kind == kind {
			b.WriteString(e.Data)
		}
	}
	return b.String()
}

func TestRecording(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	started := time.Unix(1_800_000_000, 0)
	r, err := Create(Options{Dir: dir, Filter: func(s string) string { return strings.ReplaceAll(s, "hunter2", "[REDACTED]") }},
		"1a2b3c4d", Header{Width: 80, Height: 24, Started: started, Command: "bash -l", Env: map[string]string{"TERM": "xterm-256color"}})
	if err != nil {
		t.Fatal(err)
	}
	r.Output([]byte("h\xc3"))        // é split between two reads
	r.Output([]byte("\xa9llo \xff")) // and a byte that is no UTF-8
	r.Output([]byte("\x1b[1mpw hunt"))
	r.Output([]byte("er2\r\n"))
	r.Resize(100, 30)
	r.Mark("ls -l")
	r.Input([]byte("ls -l\r"))   // not recorded: Options.Input is off
	r.Output([]byte("\xe2\x82")) // cut by the end of the session
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	r.Output([]byte("after close")) // ignored

	fi, err := os.Stat(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || filepath.Base(r.Path()) != "1a2b3c4d.cast" {
		t.Errorf("file %s mode %v, want 1a2b3c4d.cast 0600", r.Path(), fi.Mode().Perm())
	}
	h, events := readCast(t, r.Path())
	if h["version"] != 2.0 || h["width"] != 80.0 || h["height"] != 24.0 || h["timestamp"] != 1.8e9 || h["command"] != "bash -l" {
		t.Errorf("header %v", h)
	}
	// The secret cut between two reads is whole by the time the filter sees it only
	// when a read ends a line; this filter sees "pw hunt" and "er2": what the
	// session's redaction stream is for. Here the reads are joined by the test.
	got := output(events, "o")
	want := "h\u00e9llo \ufffd\x1b[1mpw hunter2\r\n\ufffd"
	if got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if output(events, "r") != "100x30" || output(events, "m") != "ls -l" || output(events, "i") != "" {
		t.Errorf("events %v", events)
	}
}

func TestInputRecordedWhenAsked(t *testing.T) {
	t.Parallel()
	r, err := Create(Options{Dir: t.TempDir(), Input: true}, "abc", Header{Width: 10, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	r.Input([]byte("echo \"hi\"\r"))
	r.Close()
	if _, events := readCast(t, r.Path()); output(events, "i") != "echo \"hi\"\r" {
		t.Errorf("events %v", events)
	}
}

func TestSizeCap(t *testing.T) {
	t.Parallel()
	const max = 8192
	r, err := Create(Options{Dir: t.TempDir(), MaxBytes: max}, "cap", Header{Width: 80, Height: 24})
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("x", 99) + "\n")
	for range 1000 {
		r.Output(line)
	}
	r.Close()
	fi, err := os.Stat(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > max || fi.Size() < max/2 {
		t.Errorf("size %d, want at most %d and near it", fi.Size(), max)
	}
	_, events := readCast(t, r.Path())
	last := events[len(events)-1]
	if last.Kind != "m" || !strings.Contains(last.Data, "size limit of 8192 bytes") {
		t.Errorf("last event %v, want the size-limit marker", last)
	}
}

// TestLinesWithinPages: no line crosses a page boundary of the file, so a write that
// SIGKILL stops between two pages (as Linux may) leaves only whole lines: the file
// cut at any page boundary is a valid recording, and what it holds is output the
// session printed, in order. Lines of every length, output longer than a page,
// escapes that grow in JSON, input and markers, in batches of many sizes.
func TestLinesWithinPages(t *testing.T) {
	t.Parallel()
	r, err := Create(Options{Dir: t.TempDir(), Input: true}, "pages", Header{Width: 80, Height: 24, Command: strings.Repeat("c", 300)})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := range 400 {
		chunk := strings.Repeat("é\"\x01", i%7) + strings.Repeat(string(rune('a'+i%26)), (i*37)%700) + "\r\n"
		if i%50 == 7 {
			chunk = strings.Repeat("line \x1b[1mbold\x1b[0m\t\"q\"\r\n", 900) // 24 KB, many pages
		}
		want.WriteString(chunk)
		r.Output([]byte(chunk))
		switch i % 9 {
		case 3:
			r.Input([]byte("ls\r"))
		case 5:
			r.Mark(fmt.Sprintf("mark %d", i))
		case 8:
			time.Sleep(6 * time.Millisecond) // a batch ends here
		}
	}
	r.Close()
	b, err := os.ReadFile(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	page := os.Getpagesize()
	for start := 0; start < len(b); {
		end := start + bytes.IndexByte(b[start:], '\n') + 1
		if end <= start || start/page != (end-1)/page {
			t.Fatalf("line at %d..%d crosses a page boundary: %.80q", start, end, b[start:])
		}
		start = end
	}
	_, events := readCast(t, r.Path())
	if got := output(events, "o"); got != want.String() {
		t.Fatalf("output differs: %d bytes recorded, %d printed", len(got), want.Len())
	}
	cut := filepath.Join(t.TempDir(), "cut.cast")
	for k := 1; k*page < len(b); k++ {
		if err := os.WriteFile(cut, b[:k*page], 0o600); err != nil {
			t.Fatal(err)
		}
		if _, events := readCast(t, cut); !strings.HasPrefix(want.String(), output(events, "o")) {
			t.Fatalf("cut at page %d: the output is not what was printed", k)
		}
	}
}

func TestSymlinkRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "s1.cast")); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(Options{Dir: dir}, "s1", Header{}); !errors.Is(err, ErrLink) {
		t.Errorf("Create through a symlink: %v, want ErrLink", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
}

func TestExistingFileKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "s2.cast")
	if err := os.WriteFile(old, []byte("old recording\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := Create(Options{Dir: dir}, "s2", Header{})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if filepath.Base(r.Path()) != "s2-2.cast" {
		t.Errorf("path %s, want s2-2.cast beside the old one", r.Path())
	}
	if b, _ := os.ReadFile(old); string(b) != "old recording\n" {
		t.Errorf("old recording changed: %q", b)
	}
	if _, err := Create(Options{Dir: dir}, "../x", Header{}); err == nil {
		t.Error("an id with a path separator was accepted")
	}
}

// FuzzUTF8Stream: however output is cut into reads, the recording decodes it as a
// whole read would be, and always writes valid UTF-8.
func FuzzUTF8Stream(f *testing.F) {
	f.Add([]byte("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80"), uint8(2))
	f.Add([]byte("\xff\xfe\xc3"), uint8(1))
	f.Fuzz(func(t *testing.T, p []byte, step uint8) {
		n := int(step%7) + 1
		var d utf8Stream
		var b strings.Builder
		for i := 0; i < len(p); i += n {
			b.WriteString(d.decode(p[i:min(i+n, len(p))]))
		}
		b.WriteString(d.flush())
		got := b.String()
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out: %q", got)
		}
		if utf8.ValidString(string(p)) && got != string(p) {
			t.Fatalf("valid input %q came out as %q", p, got)
		}
	})
}

// BenchmarkOutput: what recording costs the session's read path per read (here
// 1.2 KB): the queue's lock, a copy, a wake-up. The writer is left out (it runs on
// its own goroutine; BenchmarkWriter), and the queue is emptied as it would.
// FuzzJSONString: a piece of valid UTF-8 encoded into a room is valid JSON of at
// most the room, decodes to a prefix of the piece that ends at a character's start,
// and is the whole piece when it fits.
func FuzzJSONString(f *testing.F) {
	f.Add("h\u00e9llo \"q\" \x01\t\u20ac \U0001F600", uint16(9))
	f.Add(strings.Repeat("\x1b[1m\u00e9", 40), uint16(100))
	f.Fuzz(func(t *testing.T, s string, room uint16) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		r := int(room%300) + 8 // a room holds any one character (6 bytes escaped) and the quotes
		b, n := appendJSONString(nil, s, r)
		var got string
		if err := json.Unmarshal(b, &got); err != nil || len(b) > r || got != s[:n] || n < len(s) && !utf8.RuneStart(s[n]) || n == 0 && s != "" {
			t.Fatalf("%q in %d: %s (%d bytes) for %d bytes of it, %v", s, r, b, len(b), n, err)
		}
		if full, _ := appendJSONString(nil, s, math.MaxInt); len(full) <= r && n != len(s) {
			t.Fatalf("%q fits in %d but only %d bytes were taken", s, r, n)
		}
	})
}

func BenchmarkOutput(b *testing.B) {
	r := &Recorder{start: time.Now(), wake: make(chan struct{}, 1)}
	chunk := []byte(strings.Repeat("output line \x1b[32mok\x1b[0m é\r\n", 40))
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		r.Output(chunk)
		<-r.wake
		if n++; n%256 == 0 {
			r.pending = r.pending.reset()
		}
	}
}

// BenchmarkWriter: what the Recorder's goroutine does per 64 KiB read of output
// (decode, encode as JSON, append), off the session's read path.
func BenchmarkWriter(b *testing.B) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := writer{f: f, max: 1 << 62}
	chunk := []byte(strings.Repeat("output line \x1b[32mok\x1b[0m é\r\n", 64*1024/30))
	var bt batch
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		bt = bt.reset()
		bt.add(kindOutput, time.Second, chunk, "")
		if err := w.write(&bt, false); err != nil {
			b.Fatal(err)
		}
	}
}
