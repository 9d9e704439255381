package integration

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// A model-based attribution test. Seeded generators drive bash sessions, a few per
// server in turns, with random prompt delays and random actions: commands that
// print unique tokens before, between and after sleeps (some longer than the call's
// timeout), screen clears and resets, keys typed without Enter, a nested python
// REPL, a builtin read, and read_output wait_for for output that a timed-out call
// left behind. A model keeps, for every command, the tokens it prints, which of them
// the agent has been given, its exit status, and the earliest moments it can have
// ended and its next prompt can have been drawn. Every reply is held to what the
// README promises under "Tools" (which output is a reply's, and what each reason
// proves):
//
//  1. it holds no token of another command, except that read_output wait_for hands
//     over output of a timed-out command that the agent has not been given yet; and
//     no piece of any command line (an echo, or stale text left on the screen);
//  2. is_complete comes with all of the command's tokens (except those its own clear
//     erased), and reason shell_mark with its exit status;
//  3. is_complete is never true while the command is known to be running, nor
//     before its next prompt can have been drawn;
//  4. after a timeout, the next command's reply carries neither the earlier
//     command's output nor its exit status.
//
// Tokens are printed through an expression (echo T1a2b''3c4d prints T1a2b3c4d), so
// the echo of a command line never holds its token. Times are lower bounds measured
// around each call, so a timing verdict never depends on the machine's speed.
//
// MCP_TERMINAL_ATTRIBUTION_STEPS=<n> runs n actions (long mode, a fresh seed each
// run unless MCP_TERMINAL_ATTRIBUTION_SEED=<seed> replays one).

const (
	attrStepsEnv   = "MCP_TERMINAL_ATTRIBUTION_STEPS"
	attrSeedEnv    = "MCP_TERMINAL_ATTRIBUTION_SEED"
	attrLong       = 8 * time.Second         // timeout of a call that must complete
	attrSlack      = 1200 * time.Millisecond // how late a token may print under load
	attrServerLife = 90 * time.Second        // then the next server: the harness bounds one at 2 minutes
)

func TestAttribution(t *testing.T) {
	need(t, "python3")
	o := attrOptions{seed: 1, steps: 300, workers: 2, slots: 2, weights: attrDefaultWeights}
	if v := os.Getenv(attrStepsEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want a positive number of steps", attrStepsEnv, v)
		}
		o.steps, o.seed = n, time.Now().UnixNano()
	}
	if v := os.Getenv(attrSeedEnv); v != "" {
		seed, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: want an integer", attrSeedEnv, v)
		}
		o.seed = seed
	}
	rep := attrRun(t, o)
	rep.log(t)
	rep.requireClasses(t, o.weights)
	for _, msg := range rep.failures() {
		t.Error(msg)
	}
}

// TestAttributionDetectsIgnoredClears proves the checker can fail: with the server's
// handling of screen clears switched off, replies to commands that clear the screen
// must come out wrong, and the checker must say so.
func TestAttributionDetectsIgnoredClears(t *testing.T) {
	need(t, "python3")
	o := attrOptions{seed: 7, steps: 30, workers: 1, slots: 2, weights: attrClearWeights,
		env: []string{"MCP_TERMINAL_TEST_IGNORE_CLEARS=1"}}
	rep := attrRun(t, o)
	rep.log(t)
	var onClears []attrViolation
	for _, v := range rep.violations {
		if v.action == attrActClear {
			onClears = append(onClears, v)
		}
	}
	if len(onClears) == 0 {
		t.Fatalf("%d clears with the server's clear handling off, and no violation: the checker cannot see broken clears", rep.counts[attrClassClear])
	}
	t.Logf("%d violations on clears, e.g. step %d [%s] %s", len(onClears), onClears[0].step, onClears[0].kind, onClears[0].detail)
}

// attrWeights are the odds of each action. An idle session chooses among command,
// clear, keys, repl and read; a session whose last command timed out chooses among
// waitFor, command and clear.
type attrWeights struct {
	command, clear, keys, repl, read, waitFor int
	short                                     int // percent of commands and clears that outlast a short timeout
}

var (
	attrDefaultWeights = attrWeights{command: 40, clear: 14, keys: 10, repl: 6, read: 8, waitFor: 45, short: 25}
	attrClearWeights   = attrWeights{command: 10, clear: 70, keys: 5, repl: 0, read: 0, waitFor: 0, short: 0}
)

type attrOptions struct {
	seed    int64
	steps   int // actions, over all sessions
	workers int // servers driven in parallel, each by its own generator
	slots   int // sessions alive at once on each server, driven in turns
	weights attrWeights
	env     []string // the server's extra environment
}

type attrAction string

const (
	attrActCommand attrAction = "command"
	attrActWaitFor attrAction = "wait_for"
	attrActClear   attrAction = "clear"
	attrActKeys    attrAction = "keys"
	attrActREPL    attrAction = "repl"
	attrActRead    attrAction = "read"
)

// Classes of hard windows, counted so that a generator that never reaches one shows.
const (
	attrClassLate        = "late prompt (sent before the agent saw the previous prompt)"
	attrClassLateCertain = "late prompt (sent before the previous prompt can have been drawn)"
	attrClassClear       = "clears"
	attrClassAfter       = "output after a timeout"
	attrClassWaitFor     = "read_output wait_for"
	attrClassKeys        = "keys without Enter"
	attrClassREPL        = "nested REPL"
	attrClassRead        = "reads"
)

// attrCmd is one command as the model knows it.
type attrCmd struct {
	step     int
	tokens   []string
	at       []time.Duration // when each token prints, from the command's start
	erasable map[string]bool // printed before a clear (its own, or a later command's)
	given    map[string]bool // seen in a reply
	code     int             // exit status; -1 for a line typed into the REPL
	dur      time.Duration   // its sleeps: it cannot end sooner
	after    time.Duration   // least time from its end to the next prompt
	echoes   []string        // pieces of its input line that only an echo of it can hold
	input    bool            // reads a line before it can end
	start    time.Time       // earliest moment it can have started
	end      time.Time       // earliest moment it can have ended
}

func (c *attrCmd) ungiven() []string {
	var out []string
	for _, tok := range c.tokens {
		if !c.given[tok] && !c.erasable[tok] {
			out = append(out, tok)
		}
	}
	return out
}

// attrSession is one live bash and the model of it.
type attrSession struct {
	label       string // worker.slot.incarnation
	desc        string
	id          string
	rng         *rand.Rand
	budget      int
	promptDelay time.Duration // least time from a command's end to its prompt
	promptTail  string
	cmds        []*attrCmd
	outstanding []*attrCmd // timed out, completion not yet seen
	repl        bool
	prompted    bool      // the agent saw the prompt after the last command
	readyAt     time.Time // earliest moment the shell can take the next line
	lastCode    int
	history     []string
	bad         bool
}

type attrViolation struct {
	kind, detail string
	session      string
	step         int
	action       attrAction
}

type attrReport struct {
	mu         sync.Mutex
	seed       int64
	steps      int
	took       time.Duration
	counts     map[string]int
	violations []attrViolation
	histories  map[string][]string // by session label, for the sessions with violations
	descs      map[string]string
}

type attrGen struct {
	t      *testing.T
	worker int
	python string // python3's own executable: a version manager's shim costs half a second a start
	s      *server
	o      attrOptions
	rng    *rand.Rand // which session acts next
	seeds  *rand.Rand // each new session's own generator, apart so a replacement shifts nothing else
	home   string
	rep    *attrReport
	step   int
	act    attrAction
	slots  []*attrSession
	born   []int
}

// attrRun runs the generators and returns what the checker found; it fails
// the test only when the harness itself cannot go on. Each worker has its own
// server and drives a few sessions in turns, so a session's output also arrives
// between its calls, while the worker is busy with another.
func attrRun(t *testing.T, o attrOptions) *attrReport {
	t.Helper()
	began := time.Now()
	rep := &attrReport{seed: o.seed, steps: o.steps, counts: map[string]int{},
		histories: map[string][]string{}, descs: map[string]string{}}
	python := attrPython(t)
	t.Run("workers", func(t *testing.T) {
		for w := range o.workers {
			t.Run(fmt.Sprint(w), func(t *testing.T) {
				t.Parallel()
				g := &attrGen{
					t: t, worker: w, s: startServer(t, o.env...), o: o,
					rng:    rand.New(rand.NewPCG(uint64(o.seed), uint64(w))),
					seeds:  rand.New(rand.NewPCG(uint64(o.seed), uint64(w)+1<<32)),
					home:   t.TempDir(),
					python: python,
					slots:  make([]*attrSession, o.slots),
					born:   make([]int, o.slots),
					rep:    &attrReport{counts: map[string]int{}, histories: map[string][]string{}, descs: map[string]string{}},
				}
				g.run(o.steps / o.workers)
				rep.merge(g.rep)
			})
		}
	})
	rep.took = time.Since(began)
	return rep
}

func (g *attrGen) run(steps int) {
	g.t.Helper()
	served := time.Now()
	for g.step = 1; g.step <= steps; g.step++ {
		if time.Since(served) > attrServerLife {
			g.restart()
			served = time.Now()
		}
		i := g.rng.IntN(len(g.slots))
		if ss := g.slots[i]; ss == nil || ss.budget <= 0 || ss.bad {
			g.replace(i)
		}
		g.act = g.pick(g.slots[i])
		g.perform(g.slots[i])
	}
	for i := range g.slots {
		g.retire(g.slots[i])
	}
}

func (rep *attrReport) merge(from *attrReport) {
	rep.mu.Lock()
	defer rep.mu.Unlock()
	for k, n := range from.counts {
		rep.counts[k] += n
	}
	rep.violations = append(rep.violations, from.violations...)
	maps.Copy(rep.histories, from.histories)
	maps.Copy(rep.descs, from.descs)
}

// restart replaces the server, whose calls the harness bounds at two minutes: the
// long mode outlives that.
func (g *attrGen) restart() {
	g.t.Helper()
	for i := range g.slots {
		g.retire(g.slots[i])
		g.slots[i] = nil
	}
	g.s.close()
	g.s = startServer(g.t, g.o.env...)
}

// attrPython finds the interpreter behind python3, which may be a shim script.
func attrPython(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if p := strings.TrimSpace(string(out)); err == nil && p != "" {
		return p
	}
	return "python3"
}

// replace closes the slot's session and starts a new one with a random prompt.
func (g *attrGen) replace(i int) {
	g.t.Helper()
	g.retire(g.slots[i])
	g.born[i]++
	rng := rand.New(rand.NewPCG(g.seeds.Uint64(), g.seeds.Uint64()))
	ss := &attrSession{label: fmt.Sprintf("w%d.s%d.%d", g.worker, i, g.born[i]), rng: rng, budget: 15 + rng.IntN(35), promptTail: "$ "}
	delay := []string{"0", "0.05", "0.15", "0.3"}[rng.IntN(4)]
	env := map[string]any{"PS1": "$ ", "HISTFILE": "/dev/null", "PROMPT_COMMAND": "sleep " + delay}
	args := []any{"--noprofile"} // the server's rc file wraps PROMPT_COMMAND
	if rng.IntN(4) == 0 {
		args = append(args, "--norc") // the marks come through the environment instead
	} else {
		ss.promptDelay = attrSeconds(delay)
	}
	switch rng.IntN(5) {
	case 0:
		env["PS1"] = `$(sleep 0.1)$ ` // a slow prompt
		ss.promptDelay += 100 * time.Millisecond
	case 1:
		env["PS1"] = `[\W]\n$ ` // a prompt on two lines
	}
	// The system's bash.bashrc sets its own PS1 before the server's rc file runs; a
	// user's ~/.bashrc, which runs after it, sets ours.
	home := filepath.Join(g.home, ss.label)
	rc := "PS1='" + env["PS1"].(string) + "'\n"
	if err := os.MkdirAll(home, 0o700); err != nil {
		g.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o600); err != nil {
		g.t.Fatal(err)
	}
	env["HOME"] = home
	ss.desc = fmt.Sprintf("bash %v, PROMPT_COMMAND=%q, PS1=%q", args, env["PROMPT_COMMAND"], env["PS1"])
	ss.id = g.s.create("bash", map[string]any{"args": args, "env": env, "cwd": home})
	ss.prompted, ss.readyAt, ss.lastCode = true, time.Now(), -1
	ss.history = append(ss.history, fmt.Sprintf("created %s (%s), seed %d", ss.id, ss.desc, g.o.seed))
	g.slots[i] = ss
}

func (g *attrGen) retire(ss *attrSession) {
	if ss == nil {
		return
	}
	if _, ok := g.rep.histories[ss.label]; ok {
		g.rep.histories[ss.label] = ss.history
	}
	g.call("close_session", map[string]any{"session_id": ss.id})
}

func (g *attrGen) pick(ss *attrSession) attrAction {
	w := g.o.weights
	if ss.repl {
		return attrActREPL
	}
	if len(ss.outstanding) > 0 {
		wait := w.waitFor
		if g.waitTarget(ss) == nil {
			wait = 0
		}
		return attrChoose(ss.rng, map[attrAction]int{attrActWaitFor: wait, attrActCommand: w.command, attrActClear: w.clear})
	}
	return attrChoose(ss.rng, map[attrAction]int{attrActCommand: w.command, attrActClear: w.clear, attrActKeys: w.keys, attrActREPL: w.repl, attrActRead: w.read})
}

// attrChoose draws from weighted choices in a fixed order, so a seed replays.
func attrChoose(rng *rand.Rand, weights map[attrAction]int) attrAction {
	keys := slices.Sorted(maps.Keys(weights))
	total := 0
	for _, k := range keys {
		total += weights[k]
	}
	n := rng.IntN(max(total, 1))
	for _, k := range keys {
		if n -= weights[k]; n < 0 {
			return k
		}
	}
	return attrActCommand
}

func (g *attrGen) perform(ss *attrSession) {
	g.t.Helper()
	ss.budget--
	switch g.act {
	case attrActCommand:
		g.command(ss)
	case attrActClear:
		g.clear(ss)
	case attrActWaitFor:
		g.waitFor(ss)
	case attrActKeys:
		g.keys(ss)
	case attrActREPL:
		g.replLine(ss)
	case attrActRead:
		g.read(ss)
	}
}

// newCmd makes a command with fresh tokens and an exit status unlike the last one's,
// so that a stale status cannot pass for the right one.
func (g *attrGen) newCmd(ss *attrSession, ntok int) *attrCmd {
	c := &attrCmd{step: g.step, erasable: map[string]bool{}, given: map[string]bool{}, after: ss.promptDelay}
	for range ntok {
		c.tokens = append(c.tokens, fmt.Sprintf("T%08x", ss.rng.Uint32()))
	}
	taken := func(code int) bool {
		return code == ss.lastCode || slices.ContainsFunc(ss.outstanding, func(o *attrCmd) bool { return o.code == code })
	}
	c.code = ss.rng.IntN(8)
	for taken(c.code) {
		c.code = ss.rng.IntN(8)
	}
	ss.cmds = append(ss.cmds, c)
	return c
}

// echo prints tok through quotes, so that the command line does not contain it; the
// halves around the quotes are what only the command line holds.
func (c *attrCmd) echo(rng *rand.Rand, tok string) string {
	k := 4 + rng.IntN(2)
	c.echoes = append(c.echoes, tok[:k]+"''", "''"+tok[k:])
	return "echo " + tok[:k] + "''" + tok[k:]
}

func attrSleep(rng *rand.Rand, choices ...string) (string, time.Duration) {
	s := choices[rng.IntN(len(choices))]
	if s == "0" {
		return "", 0
	}
	return "sleep " + s + "; ", attrSeconds(s)
}

func attrSeconds(s string) time.Duration {
	f, _ := strconv.ParseFloat(s, 64)
	return time.Duration(f * float64(time.Second))
}

// timeout returns the call's timeout and whether the command must outlast it.
func (g *attrGen) timeout(ss *attrSession) (int, bool) {
	if len(ss.outstanding) < 3 && ss.rng.IntN(100) < g.o.weights.short {
		return []int{150, 250}[ss.rng.IntN(2)], true
	}
	return int(attrLong / time.Millisecond), false
}

// command: sleep, a token, maybe a sleep and a second token, maybe a sleep, a status.
func (g *attrGen) command(ss *attrSession) {
	timeout, short := g.timeout(ss)
	c := g.newCmd(ss, 1+ss.rng.IntN(2))
	sleeps := []string{"0", "0", "0", "0.02", "0.1"}
	var line strings.Builder
	var d [3]time.Duration
	var s [3]string
	for i := range s {
		s[i], d[i] = attrSleep(ss.rng, sleeps...)
	}
	if short {
		i := []int{0, 2, 1}[ss.rng.IntN(len(c.tokens)+1)] // a sleep the command has
		s[i], d[i] = attrSleep(ss.rng, "0.3", "0.5")
	}
	line.WriteString(s[0])
	c.at = append(c.at, d[0])
	line.WriteString(c.echo(ss.rng, c.tokens[0]) + "; ")
	if len(c.tokens) == 2 {
		line.WriteString(s[1] + c.echo(ss.rng, c.tokens[1]) + "; ")
		c.at = append(c.at, d[0]+d[1])
	} else {
		d[1] = 0
	}
	line.WriteString(s[2] + fmt.Sprintf("(exit %d)", c.code))
	c.dur = d[0] + d[1] + d[2]
	g.send(ss, "send_command", map[string]any{"input": line.String(), "timeout_ms": timeout}, attrExpect{own: c, launch: true, long: !short})
}

// clear: the screen is cleared or reset inside the command; a token printed before
// the clear may legitimately vanish, one printed after it must be there.
func (g *attrGen) clear(ss *attrSession) {
	g.rep.counts[attrClassClear]++
	timeout, short := g.timeout(ss)
	for _, o := range ss.outstanding {
		// They print before this clear runs, so it may erase what the agent was not given.
		for _, tok := range o.ungiven() {
			o.erasable[tok] = true
		}
	}
	c := g.newCmd(ss, 2)
	before, after := c.echo(ss.rng, c.tokens[0]), c.echo(ss.rng, c.tokens[1])
	clears := []string{"clear", `printf '\033c'`, `printf '\033[2J\033[H'`, `printf '\033[3J'`, `printf '\033[H\033[2J\033[3J'`}
	clr := clears[ss.rng.IntN(len(clears))]
	var line string
	switch ss.rng.IntN(3) {
	case 0:
		line = clr + "; " + after
		c.tokens = c.tokens[1:]
	case 1:
		line = before + "; " + clr + "; " + after
		c.erasable[c.tokens[0]] = true
	default:
		line = before + "; " + clr
		c.erasable[c.tokens[0]] = true
		c.tokens = c.tokens[:1]
	}
	pre, d := "", time.Duration(0)
	if short {
		pre, d = attrSleep(ss.rng, "0.3", "0.5")
	}
	c.dur = d
	for range c.tokens {
		c.at = append(c.at, d)
	}
	line = pre + line + fmt.Sprintf("; (exit %d)", c.code)
	g.send(ss, "send_command", map[string]any{"input": line, "timeout_ms": timeout}, attrExpect{own: c, launch: true, long: !short})
}

// waitTarget is the oldest timed-out command with a token the agent has not seen.
func (g *attrGen) waitTarget(ss *attrSession) *attrCmd {
	for _, c := range ss.outstanding {
		if len(c.ungiven()) > 0 {
			return c
		}
	}
	return nil
}

// waitFor asks read_output to wait for a token that a timed-out command prints or
// printed after its call returned, possibly while other sessions were being driven.
func (g *attrGen) waitFor(ss *attrSession) {
	g.rep.counts[attrClassWaitFor]++
	c := g.waitTarget(ss)
	tok := c.ungiven()[0]
	due := c.start.Add(c.at[slices.Index(c.tokens, tok)])
	timeout := max(time.Until(due), 0) + attrSlack
	g.send(ss, "read_output", map[string]any{"wait_for": regexp.QuoteMeta(tok), "timeout_ms": timeout.Milliseconds()}, attrExpect{own: c, read: tok})
}

// keys types a command without Enter, sometimes in two pieces, then presses Enter.
func (g *attrGen) keys(ss *attrSession) {
	g.rep.counts[attrClassKeys]++
	c := g.newCmd(ss, 1)
	line := c.echo(ss.rng, c.tokens[0]) + fmt.Sprintf("; (exit %d)", c.code)
	pieces := []string{line}
	if ss.rng.IntN(2) == 0 {
		k := 1 + ss.rng.IntN(len(line)-1)
		pieces = []string{line[:k], line[k:]}
	}
	for _, p := range pieces {
		g.send(ss, "send_command", map[string]any{"input": p, "append_newline": false, "timeout_ms": 1000}, attrExpect{own: c, typing: true})
		if ss.bad {
			return
		}
	}
	g.send(ss, "send_control", map[string]any{"control": "enter", "timeout_ms": attrLong.Milliseconds()}, attrExpect{own: c, launch: true, long: true})
}

// read runs a builtin read, then answers it.
func (g *attrGen) read(ss *attrSession) {
	g.rep.counts[attrClassRead]++
	c := g.newCmd(ss, 0)
	answer := fmt.Sprintf("R%08x", ss.rng.Uint32())
	c.tokens = []string{"got-" + answer}
	c.at = []time.Duration{0}
	c.input = true
	line := fmt.Sprintf("read x; echo got-$x; (exit %d)", c.code)
	g.send(ss, "send_command", map[string]any{"input": line, "timeout_ms": 3000}, attrExpect{own: c, launch: true, long: true})
	if ss.bad {
		return
	}
	g.send(ss, "send_command", map[string]any{"input": answer, "timeout_ms": attrLong.Milliseconds()}, attrExpect{own: c, answer: true, long: true})
}

// replLine starts python, types a line into it, or leaves it with a status.
func (g *attrGen) replLine(ss *attrSession) {
	g.rep.counts[attrClassREPL]++
	if !ss.repl {
		c := g.newCmd(ss, 0)
		c.code, c.after = -1, 0 // python's own status comes at exit(); its prompt at once
		g.send(ss, "send_command", map[string]any{"input": g.python + " -q", "timeout_ms": attrLong.Milliseconds()}, attrExpect{own: c, launch: true, long: true, repl: true})
		if !ss.bad {
			ss.repl = true
		}
		return
	}
	if ss.rng.IntN(3) == 0 {
		c := g.newCmd(ss, 0)
		g.send(ss, "send_command", map[string]any{"input": fmt.Sprintf("exit(%d)", c.code), "timeout_ms": attrLong.Milliseconds()}, attrExpect{own: c, launch: true, long: true})
		ss.repl = false
		return
	}
	c := g.newCmd(ss, 1+ss.rng.IntN(2))
	c.code, c.after = -1, 0
	var stmts []string
	if ss.rng.IntN(4) == 0 {
		stmts = append(stmts, `__import__("time").sleep(0.1)`)
		c.dur = 100 * time.Millisecond
	}
	for _, tok := range c.tokens {
		k := 4 + ss.rng.IntN(2)
		stmts = append(stmts, fmt.Sprintf(`print("%s"+"%s")`, tok[:k], tok[k:]))
		c.echoes = append(c.echoes, `"`+tok[:k]+`"+"`, `"+"`+tok[k:]+`"`)
		c.at = append(c.at, c.dur)
	}
	g.send(ss, "send_command", map[string]any{"input": strings.Join(stmts, "; "), "timeout_ms": attrLong.Milliseconds()}, attrExpect{own: c, launch: true, long: true, repl: true})
}

// attrExpect says what one call is to the model.
type attrExpect struct {
	own    *attrCmd
	launch bool   // the input starts own
	answer bool   // the input is the line own reads
	typing bool   // keys without Enter: nothing may run yet
	long   bool   // the timeout leaves own ample time: it must complete
	repl   bool   // a line for python (or python's start)
	read   string // read_output wait_for this token
}

// send makes one call, records it and checks the reply against the model.
func (g *attrGen) send(ss *attrSession, tool string, args map[string]any, k attrExpect) {
	g.t.Helper()
	c, t0 := k.own, time.Now()
	if k.launch {
		if !ss.prompted && !ss.repl {
			g.rep.counts[attrClassLate]++
			if t0.Before(ss.readyAt) {
				g.rep.counts[attrClassLateCertain]++
			}
		}
		c.start = t0
		if !ss.repl {
			c.start = attrLater(t0, ss.readyAt)
		}
		c.end = c.start.Add(c.dur)
		ss.readyAt = c.end.Add(c.after)
	}
	if k.answer {
		c.input = false
		c.end = attrLater(t0, c.end)
		ss.readyAt = c.end.Add(c.after)
	}
	args["session_id"] = ss.id
	r, err := g.call(tool, args)
	t1 := time.Now()
	delete(args, "session_id")
	req, _ := json.Marshal(args)
	reply := attrRender(r, t1.Sub(t0))
	if err != nil {
		reply = "protocol error: " + err.Error()
	}
	entry := fmt.Sprintf("step %d %s: %s %s\n      → %s", g.step, g.act, tool, req, reply)
	ss.history = append(ss.history, entry)
	g.check(ss, k, r, err, t1, args["timeout_ms"], entry)
	if ss.bad && err == nil {
		// The screen as it is now tells a broken reply from a broken program.
		if scr, err := g.call("read_output", map[string]any{"session_id": ss.id}); err == nil {
			ss.history = append(ss.history, "      screen after the violation: "+attrRender(scr, 0))
		}
	}
}

// call is the harness's call, except that a protocol error (a panic in a handler, say)
// is the server's failure to report, not the end of the run.
func (g *attrGen) call(tool string, args map[string]any) (result, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := g.s.c.CallTool(g.s.ctx, req)
	if err != nil {
		return result{}, err
	}
	return decode(g.t, res), nil
}

// attrFind returns the first of pieces that s holds.
func attrFind(s string, pieces []string) string {
	for _, p := range pieces {
		if strings.Contains(s, p) {
			return p
		}
	}
	return ""
}

func attrLater(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// attrFindings are one call's violations: one per kind, however many tokens or
// pieces of text show it.
type attrFindings struct {
	kinds   []string
	details map[string][]string
}

func (f *attrFindings) bad(kind, format string, a ...any) {
	if f.details[kind] == nil {
		f.kinds = append(f.kinds, kind)
	}
	f.details[kind] = append(f.details[kind], fmt.Sprintf(format, a...))
}

// check holds a reply to the properties and updates the model.
func (g *attrGen) check(ss *attrSession, k attrExpect, r result, err error, t1 time.Time, timeout any, entry string) {
	f := &attrFindings{details: map[string][]string{}}
	defer g.record(ss, f, entry)
	if err != nil {
		f.bad("protocol error", "%v", err)
		return
	}
	if r.IsError {
		f.bad("tool error", "the call failed: %s", r.Text)
		return
	}
	own, out := k.own, r.str("output")
	had := maps.Clone(own.given)
	g.tokens(ss, k, out, f)
	if k.read != "" {
		matched, _ := r.S["matched"].(bool)
		switch {
		case !matched:
			f.bad("wait_for missed new output", "read_output wait_for %s did not match: the token printed after the call that timed out", k.read)
		case !strings.Contains(out, k.read):
			f.bad("wait_for output lacks the match", "read_output wait_for %s matched, but its output does not hold it", k.read)
		}
		return
	}
	for _, c := range ss.cmds {
		if piece := attrFind(out, c.echoes); piece != "" && c == own {
			f.bad("echo returned as output", "the echo of the input (%q) is in the output", piece)
		} else if piece != "" {
			f.bad("stale screen text in output", "the echo of step %d's input (%q) is in the output", c.step, piece)
		}
	}
	g.timing(k, r, t1, f)
	g.outcome(ss, k, r, had, f)
	if complete := r.boolean("is_complete"); !complete && k.long && !k.typing {
		f.bad("no completion evidence", "is_complete false (%s) within %v ms for a command that ends much sooner", r.str("reason"), timeout)
	}
	g.update(ss, k, r.boolean("is_complete"), out, len(f.kinds) == 0)
}

// record files the call's violations; the session is replaced before its next
// action, so that one fault does not cascade into the rest of its history.
func (g *attrGen) record(ss *attrSession, f *attrFindings, entry string) {
	for _, kind := range f.kinds {
		g.rep.violations = append(g.rep.violations, attrViolation{kind: kind, session: ss.label, step: g.step, action: g.act,
			detail: strings.Join(f.details[kind], "; ") + "\n      " + entry})
	}
	if len(f.kinds) > 0 {
		ss.bad = true
		g.rep.histories[ss.label] = ss.history
		g.rep.descs[ss.label] = ss.desc
	}
}

// timing: a reply may say complete only once the command can have ended and the
// shell can have drawn its next prompt (property 3).
func (g *attrGen) timing(k attrExpect, r result, t1 time.Time, f *attrFindings) {
	own, complete, reason := k.own, r.boolean("is_complete"), r.str("reason")
	claimsEnd := reason == "shell_mark" || reason == "exit"
	if !complete || ((own.input || k.typing) && !claimsEnd) {
		return // input_wait is the truth for a read waiting for its line
	}
	ready := own.end.Add(own.after)
	switch {
	case k.typing:
		f.bad("complete before Enter", "is_complete (%s) for keys typed without Enter", reason)
	case own.input:
		f.bad("complete while running", "is_complete (%s) while the command waits for its line", reason)
	case t1.Before(own.end):
		f.bad("complete while running", "is_complete (%s) %s before the command's sleeps can have ended", reason, own.end.Sub(t1).Round(time.Millisecond))
	case t1.Before(ready):
		// The shell is not ready before its PROMPT_COMMAND and PS1 have run.
		f.bad("complete before the prompt", "is_complete (%s) %s before the next prompt can have been drawn (the prompt takes %s)",
			reason, ready.Sub(t1).Round(time.Millisecond), own.after)
	}
}

// outcome: a complete reply holds all of the command's tokens, and with shell_mark its
// exit status; no reply carries a status before its command ended (properties 2, 4).
func (g *attrGen) outcome(ss *attrSession, k attrExpect, r result, had map[string]bool, f *attrFindings) {
	own, out := k.own, r.str("output")
	complete, reason := r.boolean("is_complete"), r.str("reason")
	code, hasCode := r.num("exit_code")
	if hasCode && !(complete && reason == "shell_mark") && r.boolean("is_alive") {
		f.bad("exit code of another command", "exit_code %v on a reply whose command has not ended (%s)", code, g.whose(ss, int(code)))
	}
	if !complete || k.typing || own.input {
		return
	}
	for _, tok := range own.tokens {
		if !had[tok] && !own.erasable[tok] && !strings.Contains(out, tok) {
			f.bad("missing own output", "complete (%s) without the command's %s", reason, tok)
		}
	}
	if reason != "shell_mark" {
		return
	}
	switch {
	case own.code < 0:
		f.bad("exit code of another command", "shell_mark for a line typed into python, exit_code %v (%s)", r.S["exit_code"], g.whose(ss, int(code)))
	case !hasCode:
		f.bad("wrong exit code", "shell_mark without an exit_code, want %d", own.code)
	case int(code) != own.code:
		f.bad("wrong exit code", "exit_code %v, want %d (%s)", code, own.code, g.whose(ss, int(code)))
	}
}

// tokens checks that the output holds no other command's token (property 1) and marks
// the tokens it holds as given.
func (g *attrGen) tokens(ss *attrSession, k attrExpect, out string, f *attrFindings) {
	for _, c := range ss.cmds {
		for _, tok := range c.tokens {
			if !strings.Contains(out, tok) {
				continue
			}
			given := c.given[tok]
			c.given[tok] = true
			switch {
			case c == k.own && k.typing:
				f.bad("output before Enter", "%s printed before Enter was pressed", tok)
			case c == k.own && (k.read == "" || !given):
			case k.read != "" && !given:
				// wait_for hands over output that arrived after its command's call.
			case given:
				f.bad("repeats earlier output", "%s of step %d, already given to the agent", tok, c.step)
			default:
				f.bad("output of another command", "%s of step %d (%s)", tok, c.step, g.state(ss, c))
			}
		}
	}
}

// update advances the model after a reply.
func (g *attrGen) update(ss *attrSession, k attrExpect, complete bool, out string, ok bool) {
	own := k.own
	if k.typing || own.input {
		return
	}
	if !complete {
		if !slices.Contains(ss.outstanding, own) {
			ss.outstanding = append(ss.outstanding, own)
			if len(own.ungiven()) > 0 {
				g.rep.counts[attrClassAfter]++
			}
		}
		ss.prompted = false
		return
	}
	if own.code >= 0 {
		ss.lastCode = own.code
	}
	if ok {
		ss.outstanding = ss.outstanding[:0]
		ss.prompted = k.repl || strings.HasSuffix(out, ss.promptTail)
	}
}

// whose names the command an exit status belongs to, when it is not the expected one.
func (g *attrGen) whose(ss *attrSession, code int) string {
	for i := len(ss.cmds) - 1; i >= 0; i-- {
		if c := ss.cmds[i]; c.code == code && c.step != g.step {
			return fmt.Sprintf("the status of step %d, %s", c.step, g.state(ss, c))
		}
	}
	return "no earlier command's status"
}

func (g *attrGen) state(ss *attrSession, c *attrCmd) string {
	if slices.Contains(ss.outstanding, c) {
		return "a command that timed out"
	}
	return "a finished command"
}

func attrRender(r result, took time.Duration) string {
	if r.IsError {
		return fmt.Sprintf("tool error after %s: %q", took.Round(time.Millisecond), r.Text)
	}
	var b strings.Builder
	if took > 0 {
		fmt.Fprintf(&b, "%s ", took.Round(time.Millisecond))
	}
	for _, key := range []string{"is_complete", "reason", "exit_code", "matched"} {
		if v, ok := r.S[key]; ok {
			fmt.Fprintf(&b, "%s=%v ", key, v)
		}
	}
	out := r.str("output")
	if len(out) > 600 {
		out = out[:300] + " … " + out[len(out)-300:]
	}
	fmt.Fprintf(&b, "output=%q", out)
	return b.String()
}

func (rep *attrReport) log(t *testing.T) {
	t.Helper()
	t.Logf("seed %d (replay with %s=%d), %d actions in %s", rep.seed, attrSeedEnv, rep.seed, rep.steps, rep.took.Round(time.Millisecond))
	for _, class := range []string{attrClassLate, attrClassLateCertain, attrClassClear, attrClassAfter, attrClassWaitFor, attrClassKeys, attrClassREPL, attrClassRead} {
		t.Logf("  %5d  %s", rep.counts[class], class)
	}
	kinds := map[string]int{}
	for _, v := range rep.violations {
		kinds[v.kind]++
	}
	for _, kind := range slices.Sorted(maps.Keys(kinds)) {
		t.Logf("  %5d violations: %s", kinds[kind], kind)
	}
}

// requireClasses fails the test when a class the weights reach was never reached: a
// generator that misses the hard windows would pass without testing them.
func (rep *attrReport) requireClasses(t *testing.T, w attrWeights) {
	t.Helper()
	reachable := map[string]bool{
		attrClassLate: w.short > 0 && w.command+w.clear > 0, attrClassAfter: w.short > 0, attrClassWaitFor: w.short > 0 && w.waitFor > 0,
		attrClassClear: w.clear > 0, attrClassKeys: w.keys > 0, attrClassREPL: w.repl > 0, attrClassRead: w.read > 0,
	}
	for _, class := range []string{attrClassLate, attrClassClear, attrClassAfter, attrClassWaitFor, attrClassKeys, attrClassREPL, attrClassRead} {
		if reachable[class] && rep.counts[class] == 0 {
			t.Errorf("the generator never reached %q in %d actions (seed %d)", class, rep.steps, rep.seed)
		}
	}
}

// failures renders one message per session with violations: the violations, then the
// session's whole history.
func (rep *attrReport) failures() []string {
	bySession := map[string][]attrViolation{}
	for _, v := range rep.violations {
		bySession[v.session] = append(bySession[v.session], v)
	}
	var msgs []string
	for _, label := range slices.Sorted(maps.Keys(bySession)) {
		var b strings.Builder
		vs := bySession[label]
		fmt.Fprintf(&b, "seed %d, session %s (%s): %d violations\n", rep.seed, label, rep.descs[label], len(vs))
		for _, v := range vs {
			fmt.Fprintf(&b, "  step %d (%s) [%s] %s\n", v.step, v.action, v.kind, v.detail)
		}
		b.WriteString("  history:\n")
		for _, h := range rep.histories[label] {
			fmt.Fprintf(&b, "    %s\n", h)
		}
		msgs = append(msgs, b.String())
	}
	return msgs
}
