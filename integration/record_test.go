package integration

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// cast is a recording as the tests read it.
type cast struct {
	Header map[string]any
	Events []castEvent
	Raw    string
}

type castEvent struct {
	At         float64
	Kind, Data string
}

// of joins the data of every event of one kind.
func (c cast) of(kind string) string {
	var b strings.Builder
	for _, e := range c.Events {
		if e.Kind == kind {
			b.WriteString(e.Data)
		}
	}
	return b.String()
}

func (c cast) labels() []string {
	var l []string
	for _, e := range c.Events {
		if e.Kind == "m" {
			l = append(l, e.Data)
		}
	}
	return l
}

// readCast parses an asciicast v2 file, failing on any line asciinema would refuse.
func readCast(t *testing.T, path string) cast {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := cast{Raw: string(raw)}
	sc := bufio.NewScanner(strings.NewReader(c.Raw))
	sc.Buffer(nil, 64<<20)
	last := 0.0
	for n := 0; sc.Scan(); n++ {
		if n == 0 {
			if err := json.Unmarshal(sc.Bytes(), &c.Header); err != nil || c.Header["version"] != 2.0 {
				t.Fatalf("header %q: %v", sc.Text(), err)
			}
			continue
		}
		var e []any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || len(e) != 3 {
			t.Fatalf("line %d is not an event: %q (%v)", n+1, sc.Text(), err)
		}
		at, ok1 := e[0].(float64)
		kind, ok2 := e[1].(string)
		data, ok3 := e[2].(string)
		if !ok1 || !ok2 || !ok3 || at < last {
			t.Fatalf("line %d: bad event %q", n+1, sc.Text())
		}
		last = at
		c.Events = append(c.Events, castEvent{at, kind, data})
	}
	if !strings.HasSuffix(c.Raw, "\n") {
		t.Fatalf("the recording ends inside a line: %q", c.Raw[max(0, len(c.Raw)-200):])
	}
	return c
}

// castText joins a recording's output and its markers, for a benchmark.
func castText(path string) (out, marks string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	var o, m strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e []any
		if json.Unmarshal(sc.Bytes(), &e) != nil || len(e) != 3 {
			continue // the header
		}
		data, _ := e[2].(string)
		switch e[1] {
		case "o":
			o.WriteString(data)
		case "m":
			m.WriteString(data + "\n")
		}
	}
	return o.String(), m.String(), sc.Err()
}

// castFile is the one recording in dir.
func castFile(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.cast"))
	if len(files) != 1 {
		t.Fatalf("recordings in %s: %v, want one", dir, files)
	}
	return files[0]
}

var escapes = regexp.MustCompile(`\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78MDEc]`)

// asciinemaCat replays a recording with Debian's asciinema, which needs a terminal:
// script gives it one. It returns the text it printed without escape sequences.
func asciinemaCat(t *testing.T, path string) string {
	t.Helper()
	need(t, "asciinema", "script")
	cmd := exec.CommandContext(t.Context(), "script", "-qec", "asciinema cat "+path, os.DevNull)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("asciinema cat %s: %v\n%s", path, err, out)
	}
	return strings.ReplaceAll(escapes.ReplaceAllString(string(out), ""), "\r", "")
}

// TestRecordingReplays: a session with output, a resize and a hidden prompt makes a
// file asciinema replays to the text the session showed, with markers at each input,
// raw input only where it was not hidden, and no secret anywhere.
func TestRecordingReplays(t *testing.T) {
	need(t, "asciinema", "script")
	dir := t.TempDir()
	s := startServer(t, "MCP_TERMINAL_RECORD_DIR="+dir, "MCP_TERMINAL_RECORD_INPUT=true")
	id := s.bash(nil)
	complete(t, s.send(id, `echo hello-recording; printf 'caf\xc3\xa9 \xe2\x82\xac\n'`, nil), "")
	if r := s.must("send_control", map[string]any{"session_id": id, "control": "", "cols": 100, "rows": 30}, nil); r.IsError {
		t.Fatal(r.Text)
	}
	if r := s.send(id, "tput cols", nil); !strings.Contains(r.str("output"), "100") {
		t.Fatalf("after the resize: %q", r.Text)
	}
	const secret = "correct-horse-battery-staple"
	complete(t, s.send(id, `read -s -p "Password: " pw; echo; echo "got ${#pw} characters"`, nil), "input_wait")
	complete(t, s.send(id, secret, nil), "")
	s.send(id, `echo "it was $pw"`, nil)
	// A token the program prints (the input does not hold it) is redacted as replies are.
	r := s.send(id, `printf 'ghp_%s\n' $(printf 'a1B2%.0s' 1 2 3 4 5 6 7 8 9)`, nil)
	if !strings.Contains(r.Text, "REDACTED") {
		t.Fatalf("the reply shows the token: %q", r.Text)
	}
	screen := s.must("read_output", map[string]any{"session_id": id, "full_screen": true}, nil).str("output")
	s.must("close_session", map[string]any{"session_id": id}, nil)

	path := castFile(t, dir)
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Perm() != 0o600 || filepath.Base(path) != id+".cast" {
		t.Fatalf("recording %s: %v %v, want %s.cast mode 0600", path, fi.Mode(), err, id)
	}
	c := readCast(t, path)
	env, _ := c.Header["env"].(map[string]any)
	if c.Header["width"] != 120.0 || c.Header["height"] != 40.0 || c.Header["command"] != "bash --norc --noprofile" || env["TERM"] != "xterm-256color" {
		t.Errorf("header %v", c.Header)
	}
	if _, ok := c.Header["timestamp"].(float64); !ok {
		t.Errorf("header without a timestamp: %v", c.Header)
	}
	if c.of("r") != "100x30" {
		t.Errorf("resize events %q, want 100x30", c.of("r"))
	}
	if slices.Contains(c.labels(), "") {
		t.Errorf("an empty marker (the resize alone is no input): %q", c.labels())
	}
	labels := strings.Join(c.labels(), "\n")
	for _, want := range []string{"tput cols", "read -s -p \"Password: \" pw; echo; echo \"got ${#pw} characters\"", "hidden", `echo "it was $pw"`} {
		if !strings.Contains(labels, want) {
			t.Errorf("no marker %q among %q", want, labels)
		}
	}
	if !strings.Contains(c.of("i"), "tput cols\r") {
		t.Errorf("input events %q lack the typed command", c.of("i"))
	}
	if strings.Contains(c.Raw, secret) || strings.Contains(c.Raw, "a1B2a1B2a1B2") {
		t.Errorf("the recording holds a secret:\n%s", c.Raw)
	}

	played := asciinemaCat(t, path)
	for _, want := range []string{"hello-recording", "café €", "got 28 characters", "it was [REDACTED:typed-secret]", "[REDACTED:"} {
		if !strings.Contains(played, want) {
			t.Errorf("asciinema cat lacks %q:\n%s", want, played)
		}
	}
	// Every line the session's screen showed, the replay shows.
	for _, line := range strings.Split(screen, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.Contains(played, line) {
			t.Errorf("screen line %q is not in the replay:\n%s", line, played)
		}
	}
	if strings.Contains(played, secret) {
		t.Error("the replay shows the secret")
	}
}

// TestRecordingSurvivesKill: kill -9 of the server while output is flowing leaves a
// valid recording of everything written before it, and no session process.
func TestRecordingSurvivesKill(t *testing.T) {
	need(t, "asciinema", "script")
	dir := t.TempDir()
	s := startServer(t, "MCP_TERMINAL_RECORD_DIR="+dir)
	id := s.bash(nil)
	// The reply times out while the loop prints on; the recording keeps up.
	s.send(id, "for i in $(seq 1 100000); do echo line-$i; done", map[string]any{"timeout_ms": 100})
	path := castFile(t, dir)
	eventually(t, 20*time.Second, "the recording to hold line-200", func() bool {
		b, _ := os.ReadFile(path)
		return strings.Contains(string(b), "line-200\\r\\n")
	})
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the session's bash to end with the server", func() bool { return len(markedProcesses(s.mark)) == 0 })
	c := readCast(t, path)
	if !strings.Contains(c.of("o"), "line-200\r\n") {
		t.Errorf("the recording lost output written before the kill")
	}
	if played := asciinemaCat(t, path); !strings.Contains(played, "\nline-200\n") {
		t.Errorf("asciinema cat after kill -9 lacks line-200:\n%.2000s", played)
	}
}

// TestRecordingSizeCap: a recording stops at MCP_TERMINAL_RECORD_MAX_MB with a final
// marker, still playable, while the session goes on.
func TestRecordingSizeCap(t *testing.T) {
	need(t, "asciinema", "script")
	dir := t.TempDir()
	s := startServer(t, "MCP_TERMINAL_RECORD_DIR="+dir, "MCP_TERMINAL_RECORD_MAX_MB=1")
	id := s.bash(nil)
	complete(t, s.send(id, "seq 1 400000", map[string]any{"timeout_ms": 60000}), "")
	complete(t, s.send(id, "echo still-working", nil), "")
	s.must("close_session", map[string]any{"session_id": id}, nil)
	path := castFile(t, dir)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 1<<20 || fi.Size() < 1<<19 {
		t.Errorf("size %d, want at most 1 MiB and near it", fi.Size())
	}
	c := readCast(t, path)
	if last := c.Events[len(c.Events)-1]; last.Kind != "m" || !strings.Contains(last.Data, "size limit of 1 MB") {
		t.Errorf("last event %+v, want the size-limit marker", last)
	}
	if strings.Contains(c.Raw, "still-working") {
		t.Error("output after the cap was recorded")
	}
	if played := asciinemaCat(t, path); !strings.Contains(played, "\n1000\n") {
		t.Errorf("asciinema cat of a capped recording lacks its beginning")
	}
}
