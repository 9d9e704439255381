package danger

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Memory is what one shell session has run and defined so far: its history,
// aliases, functions and variables. A line such as "!!", "r" or "cleanup" means nothing
// by itself; with a Memory it is judged as the command it stands for.
//
// The gate calls Remember with each line that ran at a shell prompt, and
// ClassifyIn (or Expand then Classify) with each line about to run. The zero
// Memory is empty and ready to use; it is safe for concurrent use.
type Memory struct {
	mu      sync.Mutex
	history []string          // expanded lines, oldest first
	aliases map[string]string // name -> value
	funcs   map[string]string // name -> body text
	vars    map[string]string // name -> literal value, set at the prompt (memory_vars.go)

	// Dir, when set, returns the directory the shell is in now ("~" or
	// "~/…" under its HOME, "" if unknown). A line naming a command whose
	// relative paths a cd moves (rm, find, tar -x…) is judged there too, as
	// if a cd to it began the line: "rm .bashrc" typed in the home directory
	// is refused like "cd ~ && rm .bashrc", whichever call ran the cd. Set
	// before the Memory is used; called only for such lines.
	Dir func() string
}

// maxHistory bounds the lines kept; history expansion rarely reaches further.
const maxHistory = 1000

// Remember records a line that ran at a shell prompt: its expansion joins
// the history (bash records "!!" as the command it repeated), and the
// aliases and functions it defines or removes are kept for later lines.
func (m *Memory) Remember(line string) {
	line = strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(line) == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	hist := m.expandHistory(line)
	m.history = append(m.history, hist)
	if len(m.history) > maxHistory {
		m.history = m.history[len(m.history)-maxHistory:]
	}
	m.define(hist)
}

// Expand returns line as the shell would run it: history references (!!,
// !-n, !prefix, !?str?, ^old^new, !$, :s/old/new/, fc -s, r) replaced by the commands they
// repeat, aliases expanded, and the bodies of called functions appended.
// A line that refers to nothing remembered comes back unchanged.
func (m *Memory) Expand(line string) string {
	if m == nil {
		return line
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.expandDefs(m.expandHistory(line))
}

// ClassifyIn is Classify for a line typed at a shell whose history and
// definitions m holds: the line is judged as typed and as expanded.
func ClassifyIn(ctx Context, line string, m *Memory) Verdict {
	v := Classify(ctx, line)
	if v.Dangerous || m == nil || ctx != Shell && ctx != Unknown {
		return v
	}
	if exp := m.Expand(line); exp != line {
		if v = via(Classify(ctx, exp), "history, alias or function expansion"); v.Dangerous {
			return v
		}
		line = exp
	}
	return m.inShell(ctx, line, v)
}

var (
	fcRedo   = regexp.MustCompile(`^\s*(?:fc\s+(?:-s|-e\s+-)|r)(?:\s+(.*?))?\s*$`)
	quickSub = regexp.MustCompile(`^\^([^^]*)\^([^^]*)\^?(.*)$`)
)

// expandHistory replaces history references outside single quotes. The
// caller holds m.mu.
func (m *Memory) expandHistory(line string) string {
	if mm := fcRedo.FindStringSubmatch(line); mm != nil {
		return m.redo(strings.Fields(mm[1]))
	}
	if mm := quickSub.FindStringSubmatch(line); mm != nil && len(m.history) > 0 {
		return strings.Replace(m.history[len(m.history)-1], mm[1], mm[2], 1) + mm[3]
	}
	var b strings.Builder
	quoted := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			quoted = !quoted
		case c == '\\' && i+1 < len(line) && !quoted:
			b.WriteString(line[i : i+2])
			i++
			continue
		case c == '!' && !quoted:
			if text, n, ok := m.historyRef(line[i+1:]); ok {
				b.WriteString(text)
				i += n
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// histRef: an event (!, -n, n, ?str?, a prefix, or the word shorthands $ * ^),
// then an optional word designator and :s/old/new/ (or :gs) modifiers.
var (
	histRef   = regexp.MustCompile(`^(?:!|-\d+|\d+|\?[^?\n]*\??|[$*^]|[^\s!=()"';|&<>:]+)(?::[0-9$*^-]+)?((?::g?s/[^/\n]*/[^/\n]*/?)*)`)
	histSubst = regexp.MustCompile(`:(g?)s/([^/\n]*)/([^/\n]*)/?`)
)

// historyRef reads the reference after a "!": it returns the text it stands
// for and how many bytes it used.
func (m *Memory) historyRef(s string) (string, int, bool) {
	ref := histRef.FindString(s)
	if ref == "" {
		return "", 0, false
	}
	subst := histRef.FindStringSubmatch(s)[1]
	event, word, _ := strings.Cut(strings.TrimSuffix(ref, subst), ":")
	if event == "" {
		return "", 0, false
	}
	var line string
	switch {
	case event == "$" || event == "*" || event == "^":
		line, word = m.last(0), event
	case event == "!":
		line = m.last(0)
	case strings.HasPrefix(event, "-"):
		n, _ := strconv.Atoi(event[1:])
		line = m.last(n - 1)
	case event[0] >= '0' && event[0] <= '9':
		// !n counts the whole history file, which only the shell knows:
		// the line is judged as typed.
	case event[0] == '?':
		line = m.find(func(h string) bool { return strings.Contains(h, strings.Trim(event, "?")) })
	default:
		line = m.find(func(h string) bool { return strings.HasPrefix(strings.TrimSpace(h), event) })
	}
	if line == "" {
		return "", 0, false
	}
	text := historyWords(line, word)
	for _, sm := range histSubst.FindAllStringSubmatch(subst, -1) {
		n := 1
		if sm[1] == "g" {
			n = -1
		}
		text = strings.Replace(text, sm[2], sm[3], n)
	}
	return text, len(ref), true
}

// historyWords applies a word designator ($, *, ^, n, n-m) to a line.
func historyWords(line, word string) string {
	if word == "" {
		return line
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return line
	}
	switch {
	case word == "$":
		return f[len(f)-1]
	case word == "^" && len(f) > 1:
		return f[1]
	case word == "*":
		return strings.Join(f[1:], " ")
	}
	lo, hi, isRange := strings.Cut(word, "-")
	a, err := strconv.Atoi(lo)
	if err != nil || a >= len(f) {
		return line
	}
	b := a
	if isRange {
		if b, err = strconv.Atoi(hi); err != nil || b >= len(f) {
			b = len(f) - 1
		}
	}
	return strings.Join(f[a:b+1], " ")
}

func (m *Memory) last(n int) string {
	if n < 0 || n >= len(m.history) {
		return ""
	}
	return m.history[len(m.history)-1-n]
}

func (m *Memory) find(ok func(string) bool) string {
	for i := len(m.history) - 1; i >= 0; i-- {
		if ok(m.history[i]) {
			return m.history[i]
		}
	}
	return ""
}

// redo is fc -s / r: the last command (or the last starting with a prefix),
// with old=new replacements applied.
func (m *Memory) redo(args []string) string {
	var subs [][2]string
	prefix := ""
	for _, a := range args {
		if old, repl, ok := strings.Cut(a, "="); ok && prefix == "" {
			subs = append(subs, [2]string{old, repl})
		} else {
			prefix = a
		}
	}
	line := m.last(0)
	if prefix != "" {
		line = m.find(func(h string) bool { return strings.HasPrefix(strings.TrimSpace(h), prefix) })
	}
	for _, s := range subs {
		line = strings.Replace(line, s[0], s[1], 1)
	}
	return line
}
