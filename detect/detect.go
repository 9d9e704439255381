package detect

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-terminal/mcp-terminal/screen"
)

// State is what the session knows at one instant while it waits for an input to finish.
type State struct {
	Screen screen.Status

	// Start is the cursor when the input was written; StartWritten and StartClears are
	// the screen's counters then. Together they tell output caused by this input from
	// what was on the screen before it.
	Start        screen.Pos
	StartWritten uint64
	StartClears  uint64

	// Output returns the new output since Start with the input's echo removed. It is
	// called only by signals that need it (wait_for), because it copies text.
	Output func() string

	Exited bool          // the program has exited and its output is drained
	Quiet  time.Duration // time since the last output, or since the input if none came
	Since  time.Duration // time since the input was written

	// Marks are the shell-integration marks (OSC 133) that arrived after the input.
	Marks []screen.Mark

	// InputWait asks the kernel whether the program in front is blocked reading the
	// terminal, having taken this input. It is called only when cheaper evidence is
	// missing, because it reads /proc.
	InputWait func() Wait

	// AllowSettle says quiet output may count as evidence now: the session has never
	// shown a known prompt, a full-screen program holds the alternate screen, or the
	// input was keystrokes rather than a command. The session decides; it knows.
	AllowSettle bool

	// MarksOnly says shell integration's marks are the only evidence that can come:
	// the integrated shell is editing its command line (its prompt, and its line
	// editor's waiting, say nothing about whether the command ran), or an earlier
	// command's prompt has not been drawn yet.
	MarksOnly bool

	// ShellContinues: under MarksOnly, the line may have left the shell's command
	// open (a heredoc, a quote): blocked reading again, having taken the line, it
	// waits at its continuation prompt for the rest, and input-wait says so.
	ShellContinues bool

	// ShellInFront: the integrated shell itself is in front of the terminal. Its
	// prompt is drawn before the command typed ahead of it runs, so a prompt at the
	// cursor is no evidence; its marks (or, for a builtin read, input-wait) are.
	ShellInFront bool

	// Settle, when positive, replaces Options.Settle: the session lengthens the quiet
	// window from the gaps it has seen in the program's own output.
	Settle time.Duration
}

// Wait is the kernel's view of the program in front of the terminal.
type Wait struct {
	Known bool   // the process table could answer
	Why   string // why it could not
	Ready bool   // blocked reading the terminal, after taking the input
	// Pending: it looks ready, and the caller is confirming that it stays so.
	Pending bool
	Proxy   bool // waits on the terminal and a socket or another terminal: forwards input elsewhere
	// Polling: it waits with a timeout so short that it wakes by itself (an escape
	// delay, an animation frame): not evidence, but where it only ever polls, quiet
	// output may settle the wait.
	Polling bool
	// Working: the program is at work (it runs, or sleeps for a while), or output
	// it wrote is still on its way: a prompt at the cursor is not its last word.
	Working bool
}

// Verdict is a Detector's answer for one State.
type Verdict struct {
	Done   bool
	Reason Reason
	Detail string // e.g. which prompt family matched
	Code   *int   // the command's exit status, when shell integration reported it

	// Recheck, when positive, asks to be asked again after that long even if nothing
	// changes (a signal that depends on time, like settling, needs it).
	Recheck time.Duration
}

// Signal is one piece of evidence. It returns a Verdict with Done set when its
// evidence is present, and may ask for a Recheck when it is not yet.
type Signal func(st *State) Verdict

// Options selects the signals of a Detector.
type Options struct {
	// WaitFor, when set, replaces prompt and settle evidence: only the pattern (or the
	// program's exit) ends the wait, because the caller said what it waits for.
	WaitFor *regexp.Regexp

	// Settle is the silence that counts as settled when State.AllowSettle is true.
	// Zero disables settling entirely. A silent command (sleep 2) in a session whose
	// prompts are recognised must never look complete, hence AllowSettle.
	Settle time.Duration

	// Startup accepts a prompt anywhere at the cursor, without requiring new output
	// after Start (there was no input yet). Settling then needs some output first: a
	// program still loading is quiet too.
	Startup bool
}

// Detector combines signals; the first that has evidence decides.
type Detector struct {
	signals []Signal
}

// New builds the detector for one wait.
func New(opts Options) *Detector {
	d := &Detector{signals: []Signal{ExitSignal}}
	if opts.WaitFor != nil {
		d.signals = append(d.signals, PatternSignal(opts.WaitFor))
		return d
	}
	d.signals = append(d.signals, ShellMarkSignal(opts.Startup), PromptSignal(opts.Startup), InputWaitSignal)
	if opts.Settle > 0 {
		d.signals = append(d.signals, SettleSignal(opts.Settle, opts.Startup))
	}
	return d
}

// Check asks every signal; the first with evidence wins. Otherwise the verdict carries
// the shortest Recheck any signal asked for.
func (d *Detector) Check(st *State) Verdict {
	var next time.Duration
	for _, sig := range d.signals {
		v := sig(st)
		if v.Done {
			return v
		}
		if v.Recheck > 0 && (next == 0 || v.Recheck < next) {
			next = v.Recheck
		}
	}
	return Verdict{Recheck: next}
}

// ExitSignal: the program is gone and everything it printed has been read.
func ExitSignal(st *State) Verdict {
	if st.Exited {
		return Verdict{Done: true, Reason: Exit}
	}
	return Verdict{}
}

// patternEvery bounds how often the new output is cut out and searched while output
// keeps streaming: each search copies all of it, so searching on every chunk of a
// flood would cost quadratic time.
const patternEvery = 25 * time.Millisecond

// PatternSignal matches the caller's regular expression against the new output only,
// so neither earlier output nor the echo of the input can satisfy it.
func PatternSignal(re *regexp.Regexp) Signal {
	var last time.Duration // st.Since at the last search
	searched := false
	return func(st *State) Verdict {
		if st.Screen.Written == st.StartWritten || st.Output == nil {
			return Verdict{}
		}
		if searched && st.Quiet < patternEvery && st.Since-last < patternEvery {
			return Verdict{Recheck: patternEvery - (st.Since - last)}
		}
		searched, last = true, st.Since
		out := st.Output()
		if loc := re.FindStringIndex(out); loc != nil {
			return Verdict{Done: true, Reason: Pattern, Detail: out[loc[0]:loc[1]]}
		}
		return Verdict{}
	}
}

// PromptSignal looks for a known prompt at the cursor. Outside startup it also
// requires that this input caused output and that the cursor left the input's line
// (or the screen was cleared): until then the prompt at the cursor is the old one.
// Where the kernel shows the program in front at work, nothing at the cursor is a
// prompt yet.
func PromptSignal(startup bool) Signal {
	return func(st *State) Verdict {
		s := &st.Screen
		if s.AltScreen || st.MarksOnly || st.ShellInFront {
			return Verdict{}
		}
		if !startup {
			if s.Written == st.StartWritten {
				return Verdict{}
			}
			if s.CursorRow <= st.Start.Line && s.Clears == st.StartClears {
				return Verdict{}
			}
		}
		name, ok := MatchPrompt(CursorLine(s))
		if !ok {
			return Verdict{}
		}
		if st.InputWait != nil && st.InputWait().Working {
			// Printed text that looks like a prompt ("Loading... # ", a row of
			// dots), by a program still at work: what it says next decides.
			return Verdict{Recheck: min(max(st.Since/8, time.Millisecond), 50*time.Millisecond)}
		}
		return Verdict{Done: true, Reason: Prompt, Detail: name}
	}
}

// SettleSignal is the weakest evidence: no output for d. With needOutput it also
// requires that something was printed since Start. It is not proof that the program
// is ready, and the session reports it as incomplete; it ends a wait only where no
// better evidence can exist: no kernel answer, a full-screen program, keystrokes, or a
// proxy (ssh, docker exec, a terminal multiplexer's client) whose far side nobody here
// can see.
func SettleSignal(d time.Duration, needOutput bool) Signal {
	return func(st *State) Verdict {
		if st.MarksOnly || (needOutput && st.Screen.Written == st.StartWritten) {
			return Verdict{}
		}
		wait := d
		if st.Settle > 0 {
			wait = st.Settle // this check's window, not a new default for the next
		}
		if st.Quiet < wait && (st.AllowSettle || st.InputWait != nil) {
			// Not quiet for long enough to settle whatever the kernel says: ask it
			// then. A flood is never quiet, and a look at the process tables on each
			// of its checks costs a core a good part of the flood's time.
			return Verdict{Recheck: wait - st.Quiet}
		}
		proxy := false
		if st.InputWait != nil {
			// Where the kernel can say whether the program waits for input, silence
			// proves nothing: a compile is silent too.
			w := st.InputWait()
			if w.Known && !w.Proxy && !w.Polling {
				return Verdict{}
			}
			proxy = w.Proxy
		}
		if !st.AllowSettle && !proxy || st.Quiet < wait {
			return Verdict{}
		}
		why := "no evidence the program is ready: it is not waiting for input where the kernel can see it"
		if proxy {
			why = "no evidence the far side is ready: the program in front forwards input over a socket or another terminal"
		}
		return Verdict{Done: true, Reason: Settled, Detail: fmt.Sprintf("%s; output was quiet for %d ms", why, wait.Milliseconds())}
	}
}

// ShellMarkSignal: shell integration reported that a command ended (OSC 133 D, with
// its exit status) and that the next prompt is drawn and waits for input (B). At
// startup the first prompt's B alone is evidence, since no command ended before it.
func ShellMarkSignal(startup bool) Signal {
	return func(st *State) Verdict { return markVerdict(st.Marks, startup) }
}

func markVerdict(marks []screen.Mark, startup bool) Verdict {
	var end *screen.Mark
	for i := range marks {
		switch m := &marks[i]; m.Kind {
		case 'D':
			end = m
		case 'B':
			if startup {
				return Verdict{Done: true, Reason: ShellMark}
			}
			if end != nil {
				v := Verdict{Done: true, Reason: ShellMark}
				status, _, _ := strings.Cut(end.Arg, ";") // bash's prompt adds n= (see screen.Mark)
				if code, err := strconv.Atoi(strings.TrimSpace(status)); err == nil {
					v.Code = &code
					v.Detail = "exit status " + status
				}
				return v
			}
		}
	}
	return Verdict{}
}

// inputWaitQuiet is how long output must pause before the kernel is asked. A long
// flood pauses that long many times a second (the reader waits on the kernel's
// worker and the printer for a core), and each look walks /proc: 600 looks, a tenth
// of the server's CPU, in one seq 1 5000000. So the pause asked for grows with the
// command's time, a hundredth of it, up to maxInputWaitQuiet: the answer after the
// last output comes at most 1% of the command's time later, as the wait's pacing of
// a stream already allows, and never sooner than it would have.
const (
	continueQuiet     = 2 * time.Millisecond
	inputWaitQuiet    = 500 * time.Microsecond
	maxInputWaitQuiet = 5 * time.Millisecond
)

// inputWaitPause is the pause in output after which the kernel is asked.
func inputWaitPause(since time.Duration) time.Duration {
	return min(max(inputWaitQuiet, since/100), maxInputWaitQuiet)
}

// InputWaitSignal: the kernel shows the program in front blocked reading the
// terminal after it took the input. While it is not, the signal asks to be checked
// again soon, more often right after the input, when an answer is likeliest.
func InputWaitSignal(st *State) Verdict {
	if st.InputWait == nil {
		return Verdict{}
	}
	if st.MarksOnly && !st.ShellContinues {
		return Verdict{Recheck: 20 * time.Millisecond} // it can end without output (a startup grace, a line taken)
	}
	if st.MarksOnly && st.Quiet < continueQuiet {
		// A complete command's C mark comes right after its echo: ask the kernel
		// only once that moment has passed without one.
		return Verdict{Recheck: continueQuiet - st.Quiet}
	}
	if pause := inputWaitPause(st.Since); st.Quiet < pause {
		// Output is still arriving: the program is not waiting yet, and asking the
		// kernel on every chunk of a flood would cost more than it tells.
		return Verdict{Recheck: pause - st.Quiet}
	}
	w := st.InputWait()
	if !w.Known {
		return Verdict{}
	}
	if w.Ready {
		return Verdict{Done: true, Reason: InputWait}
	}
	if w.Pending {
		return Verdict{Recheck: time.Millisecond}
	}
	return Verdict{Recheck: min(max(st.Since/8, time.Millisecond), 50*time.Millisecond)}
}

// CursorLine returns the cursor's row up to the cursor column, padded with the blanks
// the screen trimmed (a prompt usually ends in a space the cursor sits after).
func CursorLine(s *screen.Status) string {
	col := s.Cursor.Col
	if s.PendingWrap {
		col++ // the cursor is past the character in the last column
	}
	var b strings.Builder
	b.WriteString(s.WrappedIn)
	width := 0
	for _, r := range s.Line {
		w := screen.RuneWidth(r) // the screen's table: go-runewidth's global one follows the locale
		if width+w > col {
			break
		}
		b.WriteRune(r)
		width += w
	}
	for ; width < col; width++ {
		b.WriteByte(' ')
	}
	return b.String()
}
