package integration

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	soak = flag.Duration("soak", 0, "run BenchmarkSoak for this long (make soak: 30m)")
)

// serverChildren counts the server's children and, among them, zombies.
func serverChildren(pid int) (children, zombies int) {
	entries, _ := os.ReadDir("/proc")
	parent := strconv.Itoa(pid)
	for _, e := range entries {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == parent {
			children++
			if f[0] == "Z" {
				zombies++
			}
		}
	}
	return children, zombies
}

// soakSample is the server's state at one moment of the soak.
type soakSample struct {
	at                time.Duration
	rssKB, threads    int
	children, zombies int
	calls             int64
}

// BenchmarkSoak runs 50 sessions doing mixed work (commands, bulk output, REPLs,
// abandoned background processes, interrupts, sessions closed and replaced)
// against one server for -soak (`make soak`: 30 minutes; `make bench` leaves it out), sampling
// the server's RSS, threads, children and zombies every ten seconds. It fails when
// the last third of the samples is not flat against the first: RSS up by more than
// half, more OS threads than a dozen above, zombies piling up (the fewest seen
// rising: bursts come and go), or when zombies are left once the work stopped.
//
// It is a benchmark, run once (-benchtime 1x), so that `make test` never runs it
// and never reports it skipped: it is not a CI test.
func BenchmarkSoak(b *testing.B) {
	t := b
	d := *soak
	if d == 0 {
		b.Skip("a soak: make soak, or -soak DURATION")
	}
	const n = 50
	s := startServerTB(t, "MCP_TERMINAL_MAX_SESSIONS=60")
	ctx, cancel := context.WithTimeout(context.Background(), d+5*time.Minute)
	defer cancel()
	s.ctx = ctx
	pid := s.cmd.Process.Pid
	began := time.Now()
	end := began.Add(d)

	st := &soakState{t: t}
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() { soakWorker(s, w, end, st) })
	}
	var samples []soakSample
	tick := time.NewTicker(soakTick)
	defer tick.Stop()
	for time.Now().Before(end) {
		<-tick.C
		c, z := serverChildren(pid)
		st.mu.Lock()
		done := st.calls
		st.mu.Unlock()
		sm := soakSample{at: time.Since(began).Round(time.Second), rssKB: procStatus(t, pid, "VmRSS"),
			threads: procStatus(t, pid, "Threads"), children: c, zombies: z, calls: done}
		samples = append(samples, sm)
		t.Logf("%v rss %d MiB threads %d children %d zombies %d calls %d",
			sm.at, sm.rssKB>>10, sm.threads, sm.children, sm.zombies, sm.calls)
	}
	wg.Wait()
	if len(samples) < 3 {
		t.Fatalf("only %d samples", len(samples))
	}
	third := max(len(samples)/3, 1)
	first, last := peak(samples[:third]), peak(samples[len(samples)-third:])
	if last.rssKB > first.rssKB*3/2 {
		t.Errorf("RSS grew: %d MiB early, %d MiB late", first.rssKB>>10, last.rssKB>>10)
	}
	if last.threads > first.threads+12 {
		t.Errorf("threads grew: %d early, %d late", first.threads, last.threads)
	}
	// Zombies come and go: a burst of exits (fifty workers' background jobs ending
	// together) waits for the reaper, which a loaded machine runs late. Piling up is
	// a floor that rises, so the fewest seen in each third are compared, and once the
	// work stops none may be left.
	if lo, hi := fewestZombies(samples[:third]), fewestZombies(samples[len(samples)-third:]); hi > lo+3 {
		t.Errorf("zombies piled up: at least %d at every sample early, %d late", lo, hi)
	}
	t.Logf("peaks, first third / last third: rss %d / %d MiB, threads %d / %d, children %d / %d, zombies %d / %d; wrong %d of %d calls %v",
		first.rssKB>>10, last.rssKB>>10, first.threads, last.threads, first.children, last.children,
		first.zombies, last.zombies, st.wrong, st.calls, st.kinds)
	if z := zombiesGone(pid); z > 0 {
		t.Errorf("%d zombies left %v after the work stopped", z, zombiesAfter)
	}
	if st.wrong > 0 {
		t.Errorf("%d of %d calls had a wrong result (the first ones are logged above)", st.wrong, st.calls)
	}
}

// soakState is what the workers share: calls made, and results that were wrong,
// counted rather than stopping the soak, so it still measures the whole run.
type soakState struct {
	t            testing.TB
	mu           sync.Mutex
	calls, wrong int64
	kinds        map[string]int64 // wrong results by the step that got them
}

func (st *soakState) call() { st.mu.Lock(); st.calls++; st.mu.Unlock() }

func (st *soakState) wrongf(kind, format string, args ...any) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.wrong++
	if st.kinds == nil {
		st.kinds = map[string]int64{}
	}
	st.kinds[kind]++
	if st.kinds[kind] <= 5 { // the first of each kind: one kind must not hide the others
		st.t.Logf(format, args...)
	}
}

// peak is the highest of each figure over samples.
func peak(samples []soakSample) soakSample {
	var p soakSample
	for _, sm := range samples {
		p.rssKB, p.threads = max(p.rssKB, sm.rssKB), max(p.threads, sm.threads)
		p.children, p.zombies = max(p.children, sm.children), max(p.zombies, sm.zombies)
	}
	return p
}

// fewestZombies is the lowest zombie count among samples.
func fewestZombies(samples []soakSample) int {
	n := samples[0].zombies
	for _, sm := range samples[1:] {
		n = min(n, sm.zombies)
	}
	return n
}

// zombiesAfter bounds how long the server's zombies may take to go once the soak's
// sessions are closed.
const zombiesAfter = 5 * time.Second

// zombiesGone waits up to zombiesAfter for the server to have no zombie child, and
// returns how many are left.
func zombiesGone(pid int) int {
	deadline := time.Now().Add(zombiesAfter)
	for {
		_, z := serverChildren(pid)
		if z == 0 || time.Now().After(deadline) {
			return z
		}
		time.Sleep(50 * time.Millisecond) // a poll with a deadline: a test, not the server
	}
}

// soakWorker drives one session until end, replacing it now and then.
func soakWorker(s *server, w int, end time.Time, st *soakState) {
	id := s.bash(nil)
	for i := 0; time.Now().Before(end); i++ {
		switch i % 8 {
		case 0, 4:
			want := fmt.Sprintf("w%d-%d", w, i)
			if r := s.send(id, "echo "+want, nil); r.str("output") != want+"\n$ " {
				st.wrongf("echo", "worker %d: echo gave %q", w, r.str("output"))
			}
		case 1:
			if r := s.send(id, "seq 1 5000", map[string]any{"max_output_chars": 500, "timeout_ms": 60000}); !strings.HasSuffix(r.str("output"), "5000\n$ ") {
				st.wrongf("seq", "worker %d: seq gave %q (complete %v, reason %v, detail %v)", w, lastN(r.str("output"), 40),
					r.boolean("is_complete"), r.S["reason"], r.S["detail"])
			}
		case 2:
			s.send(id, "for i in 1 2 3 4 5; do (sleep 0.$i &); done; (true &); echo spawned", nil)
		case 3:
			if r := s.send(id, `python3 -c 'print(sum(range(1000)))'`, map[string]any{"timeout_ms": 30000}); !strings.HasPrefix(r.str("output"), "499500") {
				st.wrongf("python", "worker %d: python gave %q (complete %v, reason %v)", w, r.str("output"), r.boolean("is_complete"), r.S["reason"])
			}
		case 5:
			s.call("send_command", map[string]any{"session_id": id, "input": "sleep 100", "timeout_ms": 50})
			if r := s.control(id, "ctrl+c"); !r.boolean("is_complete") {
				st.wrongf("ctrl+c", "worker %d: ctrl+c did not complete: %s", w, r.Text)
			}
		case 6:
			s.call("read_output", map[string]any{"session_id": id, "full_screen": true})
			s.call("list_sessions", map[string]any{})
		case 7:
			if i%24 == 7 { // churn: replace the session
				s.call("close_session", map[string]any{"session_id": id})
				id = s.bash(nil)
			}
		}
		st.call()
	}
	s.call("close_session", map[string]any{"session_id": id})
}

// soakTick is how often the soak samples the server (SOAK_TICK overrides it).
var soakTick = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("SOAK_TICK")); err == nil {
		return d
	}
	return 10 * time.Second
}()
