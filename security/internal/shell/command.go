package shell

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Command is one simple command after its wrappers (sudo, env, nice, xargs...)
// have been looked through.
type Command struct {
	Name     string   // basename of the program that really runs; may hold DynMark
	Args     []Word   // args[0] is that program as typed
	Programs []string // every program on the way: wrappers first, then name
	ProgArgs []string // the same programs as typed (./bin/bash, /usr/bin/env), for resolution
	MoreArgs bool     // xargs: further operands arrive on stdin
	Replace  string   // xargs -I R: the word its command names each input line by
	Env      []string // NAME=value settings given to it (RAILS_ENV=test rake …, env/sudo NAME=value …)
}

// xargsReplace is the replace string of xargs' options ws (-I R, -IR,
// --replace=R, -i meaning {}), or "".
func xargsReplace(ws []Word) string {
	for i, w := range ws {
		switch a := w.S; {
		case a == "-I" && i+1 < len(ws):
			return ws[i+1].S
		case strings.HasPrefix(a, "-I") && len(a) > 2:
			return a[2:]
		case a == "-i" || a == "--replace":
			return "{}"
		case strings.HasPrefix(a, "--replace="):
			return a[len("--replace="):]
		case strings.HasPrefix(a, "-i") && len(a) > 2:
			return a[2:]
		}
	}
	return ""
}

// BuildCommand is the simple command call runs, after brace expansion and
// its wrappers; false when call has no words.
func BuildCommand(call *syntax.CallExpr) (Command, bool) {
	if call == nil || len(call.Args) == 0 {
		return Command{}, false
	}
	ws := make([]Word, 0, len(call.Args))
	for _, a := range call.Args {
		if !unquotedBrace(a) { // most words: one word, as braceWords would say, without its slices
			ws = append(ws, ResolveWord(a))
			continue
		}
		ws = append(ws, braceWords(a)...)
	}
	if len(ws) == 0 {
		return Command{}, false
	}
	c := Unwrap(ws)
	for _, a := range call.Assigns {
		if a.Name != nil && a.Value != nil {
			c.Env = append(c.Env, a.Name.Value+"="+ResolveWord(a.Value).S)
		}
	}
	return c, true
}

// maxBraceWords bounds brace expansion; a word that would expand to more is
// kept as one run-time word.
const maxBraceWords = 64

// braceWords applies bash brace expansion, so {rm,-rf,/} is judged as the
// three words rm -rf / that bash runs.
func braceWords(w *syntax.Word) []Word {
	nodes := BraceNodes(w)
	if nodes == nil {
		return []Word{{S: DynMark, Node: w}}
	}
	out := make([]Word, len(nodes))
	for i, n := range nodes {
		out[i] = Word{S: ResolveWord(n).S, Node: w}
	}
	return out
}

// BraceNodes returns the words w expands to by brace expansion (w itself
// when it has none), or nil when there would be more than maxBraceWords.
func BraceNodes(w *syntax.Word) []*syntax.Word {
	if !unquotedBrace(w) {
		return []*syntax.Word{w} // nothing SplitBraces could split: most words, on every check
	}
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

// unquotedBrace reports whether a literal part of w (outside quotes, where brace
// expansion happens) holds a "{".
func unquotedBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			return true
		}
	}
	return false
}

// wrappers maps a program that runs another program to a function returning
// how many leading words belong to the wrapper (0: it runs nothing).
var wrappers = map[string]func([]Word) int{
	"sudo":    func(ws []Word) int { return skipAssigns(ws, AfterOptions(ws, "CDghpRrTtUu", sudoLong)) },
	"doas":    func(ws []Word) int { return AfterOptions(ws, "uC", nil) },
	"env":     func(ws []Word) int { return skipAssigns(ws, AfterOptions(ws, "uC", Set("unset", "chdir"))) },
	"command": commandWrapper,
	"builtin": func([]Word) int { return 1 },
	"exec":    func(ws []Word) int { return AfterOptions(ws, "a", nil) },
	"nice":    func(ws []Word) int { return AfterOptions(ws, "n", Set("adjustment")) },
	"nohup":   func(ws []Word) int { return AfterOptions(ws, "", nil) },
	"timeout": func(ws []Word) int { return AfterOptions(ws, "sk", Set("signal", "kill-after")) + 1 },
	"xargs":   func(ws []Word) int { return AfterOptions(ws, "aEdILnPs", xargsLong) },
	"time":    func(ws []Word) int { return AfterOptions(ws, "fo", Set("format", "output")) },
	"stdbuf":  func(ws []Word) int { return AfterOptions(ws, "ioe", Set("input", "output", "error")) },
	"ionice":  func(ws []Word) int { return AfterOptions(ws, "cn", Set("class", "classdata")) },
	"setsid":  func(ws []Word) int { return AfterOptions(ws, "", nil) },
	"watch":   func(ws []Word) int { return AfterOptions(ws, "nd", Set("interval")) },
	"busybox": func([]Word) int { return 1 },
	"chroot":  func(ws []Word) int { return AfterOptions(ws, "", Set("userspec", "groups")) + 1 },
	"flock": func(ws []Word) int {
		return AfterOptions(ws, "wEc", Set("timeout", "conflict-exit-code", "command")) + 1
	},
	"taskset": func(ws []Word) int { return AfterOptions(ws, "", nil) + 1 },
	"chrt":    func(ws []Word) int { return AfterOptions(ws, "", nil) + 1 },
	"runuser": func(ws []Word) int { return AfterOptions(ws, "ugGl", Set("user", "group", "supp-group")) },
	"unshare": func(ws []Word) int { return AfterOptions(ws, "S", Set("setuid", "setgid", "wd", "root")) },
	"systemd-run": func(ws []Word) int {
		return AfterOptions(ws, "pEMHu", Set("property", "setenv", "unit", "description", "slice", "uid", "gid", "working-directory"))
	},
	"strace":     func(ws []Word) int { return AfterOptions(ws, "eoOpPsSuIXa", nil) },
	"caffeinate": func(ws []Word) int { return AfterOptions(ws, "tw", nil) },
	// Package runners and secret injectors run the project's own tools
	// (npx prisma …, bundle exec rake …, doppler run -- terraform …).
	"npx":       func(ws []Word) int { return AfterOptions(ws, "pc", Set("package", "call")) },
	"pnpx":      func(ws []Word) int { return AfterOptions(ws, "p", Set("package")) },
	"bunx":      func(ws []Word) int { return AfterOptions(ws, "p", Set("package")) },
	"npm":       subcommandRunner("p", Set("package", "workspace", "w"), "exec", "x"),
	"pnpm":      subcommandRunner("C", Set("filter", "dir", "package"), "exec", "dlx"),
	"yarn":      subcommandRunner("p", Set("package", "cwd"), "exec", "dlx"),
	"bundle":    subcommandRunner("", nil, "exec"),
	"poetry":    subcommandRunner("C", Set("directory", "project"), "run"),
	"uv":        subcommandRunner("p", Set("with", "python", "project", "directory", "env-file", "package", "from"), "run", "tool"),
	"uvx":       func(ws []Word) int { return AfterOptions(ws, "p", Set("with", "python", "from")) },
	"pipenv":    subcommandRunner("", nil, "run"),
	"pdm":       subcommandRunner("p", Set("project"), "run"),
	"hatch":     subcommandRunner("e", Set("env"), "run"),
	"doppler":   subcommandRunner("pc", Set("project", "config", "token"), "run"),
	"op":        subcommandRunner("", Set("env-file", "account"), "run"),
	"infisical": subcommandRunner("", Set("env", "path", "projectId", "token"), "run"),
	"dotenv":    func(ws []Word) int { return AfterOptions(ws, "ecv", Set("env", "cascade", "var")) },
	"aws-vault": subcommandRunner("d", Set("duration", "region", "backend"), "exec"),
	// The same kind, other ecosystems: pipx run, bun x, conda/mamba run -n ENV,
	// pixi and rye run, dotenvx run, volta run.
	"pipx":       subcommandRunner("", Set("spec", "python", "index-url", "pip-args"), "run"),
	"bun":        subcommandRunner("", Set("cwd"), "x"),
	"conda":      subcommandRunner("np", Set("name", "prefix", "cwd"), "run"),
	"mamba":      subcommandRunner("np", Set("name", "prefix", "cwd"), "run"),
	"micromamba": subcommandRunner("np", Set("name", "prefix", "cwd"), "run"),
	"pixi":       subcommandRunner("e", Set("environment", "manifest-path"), "run"),
	"rye":        subcommandRunner("", nil, "run"),
	"dotenvx":    subcommandRunner("f", Set("env-file", "env"), "run"),
	"volta":      subcommandRunner("", Set("node", "npm", "yarn", "pnpm"), "run"),
	// Monorepo tools run a command in every package they select (lerna exec
	// --scope '@acme/*' -- npm unpublish, nx exec -- …): the command is what runs.
	"lerna": subcommandRunner("", Set("scope", "ignore", "since", "concurrency", "loglevel", "ci"), "exec"),
	"nx":    subcommandRunner("", Set("projects", "exclude", "parallel", "configuration", "c"), "exec"),
}

// subcommandRunner: a tool that runs another program only through one of its
// subcommands (npm exec, bundle exec, poetry run); its other subcommands are
// its own (npm unpublish), so they run nothing. Options before and after the
// subcommand are skipped (uv run --with x pytest), and aws-vault's profile.
func subcommandRunner(shortVal string, longVal map[string]bool, subs ...string) func([]Word) int {
	return func(ws []Word) int {
		i := AfterOptions(ws, shortVal, longVal)
		if i >= len(ws) || !slices.Contains(subs, ws[i].S) {
			return 0
		}
		if ws[i].S == "tool" { // uv tool run
			if i+1 >= len(ws) || ws[i+1].S != "run" {
				return 0
			}
			i++
		}
		rest := ws[i:]
		n := AfterOptions(rest, shortVal, longVal)
		if ProgName(ws[0].S) == "aws-vault" && n < len(rest) { // aws-vault exec PROFILE [--] cmd
			n = AfterOptions(rest[n:], shortVal, longVal) + n
		}
		return i + n
	}
}

var (
	sudoLong  = Set("user", "group", "host", "prompt", "chdir", "chroot", "role", "type", "other-user", "close-from", "command-timeout")
	xargsLong = Set("arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var")
	AssignRe  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) // NAME=value
)

func commandWrapper(ws []Word) int {
	for _, w := range ws[1:] {
		if w.S == "-v" || w.S == "-V" { // a lookup, nothing runs
			return 0
		}
	}
	return AfterOptions(ws, "", nil)
}

func skipAssigns(ws []Word, i int) int {
	for i < len(ws) && AssignRe.MatchString(ws[i].S) {
		i++
	}
	return i
}

// Unwrap looks through wrappers to the program that really runs.
func Unwrap(ws []Word) Command {
	var c Command
	for range 16 {
		name := ProgName(ws[0].S)
		c.Programs = append(c.Programs, name)
		c.ProgArgs = append(c.ProgArgs, ws[0].S)
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
		if name == "xargs" {
			c.MoreArgs, c.Replace = true, xargsReplace(ws[1:n])
		}
		for _, w := range ws[1:n] {
			if AssignRe.MatchString(w.S) { // env RAILS_ENV=test, sudo -E FOO=1
				c.Env = append(c.Env, w.S)
			}
		}
		ws = ws[n:]
	}
	c.Args, c.Name = ws, ProgName(ws[0].S)
	return c
}

// splitEnvS expands env's -S/--split-string argument into words.
func splitEnvS(ws []Word) []Word {
	for i, w := range ws {
		val, ok := "", false
		switch {
		case (w.S == "-S" || w.S == "--split-string") && i+1 < len(ws):
			val, ok = ws[i+1].S, true
			ws = append(ws[:i:i], ws[i+2:]...)
		case strings.HasPrefix(w.S, "--split-string="), strings.HasPrefix(w.S, "-S"):
			val, ok = strings.TrimPrefix(strings.TrimPrefix(w.S, "--split-string="), "-S"), true
			ws = append(ws[:i:i], ws[i+1:]...)
		}
		if ok {
			var split []Word
			for _, f := range strings.Fields(val) {
				split = append(split, Word{S: f})
			}
			return append(ws[:i:i], append(split, ws[i:]...)...)
		}
	}
	return ws
}

// AfterOptions returns the index of the first word after ws[0] that is
// neither an option nor an option's value. shortVal lists the short options
// that take a value; longVal the long ones.
func AfterOptions(ws []Word, shortVal string, longVal map[string]bool) int {
	i := 1
	for i < len(ws) {
		a := ws[i].S
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

// Opts is a GNU-style reading of a command's arguments.
type Opts struct {
	Short    string          // every short option letter seen
	Long     map[string]bool // long options without "--" or "=value"
	Operands []Word
	DynFlag  bool // an argument computed at run time may hold options
}

// ParseOpts reads args GNU-style; shortVal lists the short options that
// take a value.
func ParseOpts(args []Word, shortVal string) Opts {
	o := Opts{Long: map[string]bool{}}
	var b strings.Builder
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "--":
			o.Operands = append(o.Operands, args[i+1:]...)
			o.Short = b.String()
			return o
		case strings.HasPrefix(a, DynMark):
			o.DynFlag = true
			o.Operands = append(o.Operands, args[i])
		case len(a) < 2 || a[0] != '-':
			o.Operands = append(o.Operands, args[i])
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			o.Long[name] = true
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
	o.Short = b.String()
	return o
}

// Has reports whether any of the short option letters or long options was
// given.
func (o Opts) Has(short string, long ...string) bool {
	if strings.ContainsAny(o.Short, short) && short != "" {
		return true
	}
	for _, l := range long {
		if o.Long[l] {
			return true
		}
	}
	return false
}
