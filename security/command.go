package security

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// command is one simple command after its wrappers (sudo, env, nice, xargs...)
// have been looked through.
type command struct {
	name     string   // basename of the program that really runs; may hold dynMark
	args     []word   // args[0] is that program as typed
	programs []string // every program on the way: wrappers first, then name
	progArgs []string // the same programs as typed (./bin/bash, /usr/bin/env), for resolution
	moreArgs bool     // xargs: further operands arrive on stdin
}

func buildCommand(call *syntax.CallExpr) (command, bool) {
	if call == nil || len(call.Args) == 0 {
		return command{}, false
	}
	ws := make([]word, 0, len(call.Args))
	for _, a := range call.Args {
		ws = append(ws, braceWords(a)...)
	}
	if len(ws) == 0 {
		return command{}, false
	}
	return unwrap(ws), true
}

// maxBraceWords bounds brace expansion; a word that would expand to more is
// kept as one run-time word.
const maxBraceWords = 64

// braceWords applies bash brace expansion, so {rm,-rf,/} is judged as the
// three words rm -rf / that bash runs.
func braceWords(w *syntax.Word) []word {
	nodes := braceNodes(w)
	if nodes == nil {
		return []word{{s: dynMark, node: w}}
	}
	out := make([]word, len(nodes))
	for i, n := range nodes {
		out[i] = word{s: resolveWord(n).s, node: w}
	}
	return out
}

// braceNodes returns the words w expands to by brace expansion (w itself
// when it has none), or nil when there would be more than maxBraceWords.
func braceNodes(w *syntax.Word) []*syntax.Word {
	cp := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(cp) {
		return []*syntax.Word{w}
	}
	var out []*syntax.Word
	for bw, err := range expand.BracesSeq(nil, cp) {
		if err != nil || len(out) == maxBraceWords {
			return nil
		}
		out = append(out, bw)
	}
	return out
}

// wrappers maps a program that runs another program to a function returning
// how many leading words belong to the wrapper (0: it runs nothing).
var wrappers = map[string]func([]word) int{
	"sudo":    func(ws []word) int { return skipAssigns(ws, afterOptions(ws, "CDghpRrTtUu", sudoLong)) },
	"doas":    func(ws []word) int { return afterOptions(ws, "uC", nil) },
	"env":     func(ws []word) int { return skipAssigns(ws, afterOptions(ws, "uC", set("unset", "chdir"))) },
	"command": commandWrapper,
	"builtin": func([]word) int { return 1 },
	"exec":    func(ws []word) int { return afterOptions(ws, "a", nil) },
	"nice":    func(ws []word) int { return afterOptions(ws, "n", set("adjustment")) },
	"nohup":   func(ws []word) int { return afterOptions(ws, "", nil) },
	"timeout": func(ws []word) int { return afterOptions(ws, "sk", set("signal", "kill-after")) + 1 },
	"xargs":   func(ws []word) int { return afterOptions(ws, "aEdILnPs", xargsLong) },
	"time":    func(ws []word) int { return afterOptions(ws, "fo", set("format", "output")) },
	"stdbuf":  func(ws []word) int { return afterOptions(ws, "ioe", set("input", "output", "error")) },
	"ionice":  func(ws []word) int { return afterOptions(ws, "cn", set("class", "classdata")) },
	"setsid":  func(ws []word) int { return afterOptions(ws, "", nil) },
	"watch":   func(ws []word) int { return afterOptions(ws, "nd", set("interval")) },
	"busybox": func([]word) int { return 1 },
	"chroot":  func(ws []word) int { return afterOptions(ws, "", set("userspec", "groups")) + 1 },
	"flock": func(ws []word) int {
		return afterOptions(ws, "wEc", set("timeout", "conflict-exit-code", "command")) + 1
	},
	"taskset": func(ws []word) int { return afterOptions(ws, "", nil) + 1 },
	"chrt":    func(ws []word) int { return afterOptions(ws, "", nil) + 1 },
	"runuser": func(ws []word) int { return afterOptions(ws, "ugGl", set("user", "group", "supp-group")) },
	"unshare": func(ws []word) int { return afterOptions(ws, "S", set("setuid", "setgid", "wd", "root")) },
	"systemd-run": func(ws []word) int {
		return afterOptions(ws, "pEMHu", set("property", "setenv", "unit", "description", "slice", "uid", "gid", "working-directory"))
	},
	"strace":     func(ws []word) int { return afterOptions(ws, "eoOpPsSuIXa", nil) },
	"caffeinate": func(ws []word) int { return afterOptions(ws, "tw", nil) },
}

var (
	sudoLong  = set("user", "group", "host", "prompt", "chdir", "chroot", "role", "type", "other-user", "close-from", "command-timeout")
	xargsLong = set("arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var")
	assignRe  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
)

func commandWrapper(ws []word) int {
	for _, w := range ws[1:] {
		if w.s == "-v" || w.s == "-V" { // a lookup, nothing runs
			return 0
		}
	}
	return afterOptions(ws, "", nil)
}

func skipAssigns(ws []word, i int) int {
	for i < len(ws) && assignRe.MatchString(ws[i].s) {
		i++
	}
	return i
}

// unwrap looks through wrappers to the program that really runs.
func unwrap(ws []word) command {
	var c command
	for range 16 {
		name := progName(ws[0].s)
		c.programs = append(c.programs, name)
		c.progArgs = append(c.progArgs, ws[0].s)
		if name == "env" {
			ws = splitEnvS(ws)
		}
		skip, ok := wrappers[name]
		if !ok {
			break
		}
		n := skip(ws)
		if n <= 0 || n >= len(ws) {
			break
		}
		c.moreArgs = c.moreArgs || name == "xargs"
		ws = ws[n:]
	}
	c.args, c.name = ws, progName(ws[0].s)
	return c
}

// splitEnvS expands env's -S/--split-string argument into words.
func splitEnvS(ws []word) []word {
	for i, w := range ws {
		val, ok := "", false
		switch {
		case (w.s == "-S" || w.s == "--split-string") && i+1 < len(ws):
			val, ok = ws[i+1].s, true
			ws = append(ws[:i:i], ws[i+2:]...)
		case strings.HasPrefix(w.s, "--split-string="), strings.HasPrefix(w.s, "-S"):
			val, ok = strings.TrimPrefix(strings.TrimPrefix(w.s, "--split-string="), "-S"), true
			ws = append(ws[:i:i], ws[i+1:]...)
		}
		if ok {
			var split []word
			for _, f := range strings.Fields(val) {
				split = append(split, word{s: f})
			}
			return append(ws[:i:i], append(split, ws[i:]...)...)
		}
	}
	return ws
}

// afterOptions returns the index of the first word after ws[0] that is
// neither an option nor an option's value. shortVal lists the short options
// that take a value; longVal the long ones.
func afterOptions(ws []word, shortVal string, longVal map[string]bool) int {
	i := 1
	for i < len(ws) {
		a := ws[i].s
		switch {
		case a == "--":
			return i + 1
		case len(a) < 2 || a[0] != '-':
			return i
		case strings.HasPrefix(a, "--"):
			if !strings.Contains(a, "=") && longVal[a[2:]] {
				i++
			}
		default:
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(shortVal, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		}
		i++
	}
	return i
}

// opts is a GNU-style reading of a command's arguments.
type opts struct {
	short    string          // every short option letter seen
	long     map[string]bool // long options without "--" or "=value"
	operands []word
	dynFlag  bool // an argument computed at run time may hold options
}

func parseOpts(args []word, shortVal string) opts {
	o := opts{long: map[string]bool{}}
	var b strings.Builder
	for i := 0; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "--":
			o.operands = append(o.operands, args[i+1:]...)
			o.short = b.String()
			return o
		case strings.HasPrefix(a, dynMark):
			o.dynFlag = true
			o.operands = append(o.operands, args[i])
		case len(a) < 2 || a[0] != '-':
			o.operands = append(o.operands, args[i])
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			o.long[name] = true
		default:
			for j := 1; j < len(a); j++ {
				b.WriteByte(a[j])
				if strings.IndexByte(shortVal, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		}
	}
	o.short = b.String()
	return o
}

func (o opts) has(short string, long ...string) bool {
	if strings.ContainsAny(o.short, short) && short != "" {
		return true
	}
	for _, l := range long {
		if o.long[l] {
			return true
		}
	}
	return false
}
