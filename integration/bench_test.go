package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cpty "github.com/creack/pty"
)

// End-to-end figures (make bench): each benchmark drives the built server over stdio
// and reports the median and 99th percentile latency of one call; the echo benchmark
// also reports how many times the raw-PTY floor (the same round trip with no server)
// it takes.

func percentile(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func report(b *testing.B, d []time.Duration) time.Duration {
	p50 := percentile(d, 0.5)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(d, 0.99).Microseconds())/1000, "p99-ms")
	return p50
}

var (
	floorOnce sync.Once
	floor     time.Duration
)

// rawShell is bash on a bare PTY with no server in between: the floor every
// end-to-end figure is compared with.
type rawShell struct {
	b   *testing.B
	f   *os.File
	cmd *exec.Cmd
	buf []byte
}

const rawPrompt = "READY> "

func startRawShell(b *testing.B) *rawShell {
	cmd := exec.Command("bash", "--norc", "--noprofile")
	cmd.Env = append(os.Environ(), "PS1="+rawPrompt)
	f, err := cpty.Start(cmd)
	if err != nil {
		b.Fatal(err)
	}
	r := &rawShell{b: b, f: f, cmd: cmd, buf: make([]byte, 64*1024)}
	r.waitPrompt()
	return r
}

func (r *rawShell) close() { r.cmd.Process.Kill(); r.cmd.Wait(); r.f.Close() }

// waitPrompt reads as fast as output comes until it ends with the prompt.
func (r *rawShell) waitPrompt() {
	tail := ""
	for !strings.HasSuffix(tail, rawPrompt) {
		n, err := r.f.Read(r.buf)
		if err != nil {
			r.b.Fatal(err)
		}
		tail += string(r.buf[:n])
		if len(tail) > 64 {
			tail = tail[len(tail)-64:]
		}
	}
}

// run times one command from Enter to the next prompt.
func (r *rawShell) run(command string) time.Duration {
	start := time.Now()
	r.f.Write([]byte(command + "\r"))
	r.waitPrompt()
	return time.Since(start)
}

// rawRun times one command on a fresh raw shell.
func rawRun(b *testing.B, command string) time.Duration {
	r := startRawShell(b)
	defer r.close()
	return r.run(command)
}

// rawFloor is the p50 of `echo hi` on a raw shell. Nothing can be faster than this.
func rawFloor(b *testing.B) time.Duration {
	floorOnce.Do(func() {
		r := startRawShell(b)
		defer r.close()
		d := make([]time.Duration, 300)
		for i := range d {
			d[i] = r.run("echo hi")
		}
		floor = percentile(d, 0.5)
	})
	return floor
}

// roundTrips times b.N send_command calls of input, checking each output, and
// returns the median after reporting it.
func roundTrips(b *testing.B, s *server, id, input, want string) time.Duration {
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		r := s.send(id, input, nil)
		d = append(d, time.Since(start))
		if r.str("output") != want {
			b.Fatalf("%s: output %q", input, r.str("output"))
		}
	}
	return report(b, d)
}

func BenchmarkEchoRoundTrip(b *testing.B) {
	floor := rawFloor(b)
	s := startServerTB(b)
	id := s.bash(nil)
	s.send(id, "echo warm", nil)
	p50 := roundTrips(b, s, id, "echo hi", "hi\n$ ")
	b.ReportMetric(float64(floor.Microseconds())/1000, "raw-pty-p50-ms")
	b.ReportMetric(float64(p50)/float64(floor), "x-floor")
}

func BenchmarkPythonOnePlusOne(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 not installed")
	}
	s := startServerTB(b)
	roundTrips(b, s, s.create("python3", nil), "1+1", "2\n>>> ")
}

func BenchmarkCreateSession(b *testing.B) {
	s := startServerTB(b)
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		r := s.call("create_session", map[string]any{"command": "bash", "args": []any{"--norc", "--noprofile"},
			"env": map[string]any{"PS1": "$ ", "MCPT_TEST_MARK": s.mark}})
		d = append(d, time.Since(start))
		if r.IsError || !r.boolean("ready") {
			b.Fatalf("create: %s", r.Text)
		}
		b.StopTimer()
		s.call("close_session", map[string]any{"session_id": r.str("session_id")})
		b.StartTimer()
	}
	report(b, d)
}

func BenchmarkInterrupt(b *testing.B) {
	s := startServerTB(b)
	id := s.bash(nil)
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if r := s.send(id, "sleep 100", map[string]any{"timeout_ms": 30}); r.boolean("is_complete") {
			b.Fatalf("sleep completed: %s", r.Text)
		}
		b.StartTimer()
		start := time.Now()
		r := s.control(id, "ctrl+c")
		d = append(d, time.Since(start))
		if !r.boolean("is_complete") {
			b.Fatalf("ctrl+c: %s", r.Text)
		}
	}
	report(b, d)
}

// BenchmarkManySessions opens 100 bash sessions and, per iteration, runs a command in
// all of them at once. It reports call latency under that load and the server's
// memory per idle session, and per session with a full 10000-line scrollback.
func BenchmarkManySessions(b *testing.B) {
	const n = 100
	s := startServerTB(b, "MCP_TERMINAL_MAX_SESSIONS=200")
	base := serverRSS(b, s)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = s.bash(nil)
	}
	idle := serverRSS(b, s)
	var mu sync.Mutex
	var d []time.Duration
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				r := s.send(id, "echo session-"+strconv.Itoa(i), nil)
				took := time.Since(start)
				if r.str("output") != "session-"+strconv.Itoa(i)+"\n$ " {
					b.Errorf("session %d output %q: reason %v detail %v", i, r.str("output"), r.S["reason"], r.S["detail"])
				}
				mu.Lock()
				d = append(d, took)
				mu.Unlock()
			}()
		}
		wg.Wait()
	}
	b.StopTimer()
	report(b, d)
	b.ReportMetric(float64(idle-base)/n/(1<<20), "MiB/idle-session")
	const full = 10
	for _, id := range ids[:full] {
		s.send(id, "seq 1 10000", map[string]any{"max_output_chars": 200})
	}
	b.ReportMetric(float64(serverRSS(b, s)-idle)/full/(1<<20), "MiB/full-scrollback")
}

// BenchmarkSeqMillion prints 6.9 MB through the server and checks the tail;
// BenchmarkSeqMillionRecorded does so with the session recorded (record_test.go).
func BenchmarkSeqMillion(b *testing.B) { seqMillion(b) }

func BenchmarkSeqMillionRecorded(b *testing.B) {
	dir := b.TempDir()
	seqMillion(b, "MCP_TERMINAL_RECORD_DIR="+dir, "MCP_TERMINAL_RECORD_MAX_MB=4096")
	files, _ := filepath.Glob(filepath.Join(dir, "*.cast"))
	if len(files) != 1 {
		b.Fatalf("recordings: %v", files)
	}
	// The writer may still be appending the last batch.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out, marks, err := castText(files[0])
		if strings.Contains(marks, "recording lost") {
			b.Fatal("the recording dropped output")
		}
		if err == nil && strings.Count(out, "\n1000000\r\n") == b.N {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the recording does not hold all the output (%v, %d bytes)", err, len(out))
		}
	}
}

func seqMillion(b *testing.B, env ...string) {
	raw := rawRun(b, "seq 1 1000000")
	s := startServerTB(b, env...)
	id := s.bash(nil)
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		r := s.send(id, "seq 1 1000000", map[string]any{"max_output_chars": 2000, "timeout_ms": 60000})
		d = append(d, time.Since(start))
		if !r.boolean("is_complete") || !strings.HasSuffix(r.str("output"), "999999\n1000000\n$ ") {
			b.Fatalf("seq: %+v", r.S)
		}
	}
	report(b, d)
	b.ReportMetric(float64(raw.Microseconds())/1000, "raw-pty-ms")
}
