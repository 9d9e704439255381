package shell

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// DynMark stands for the part of a word whose value is only known at run time
// (a parameter expansion, a command substitution...). Rules treat it
// conservatively; "$HOME" and "~" are kept as "~" instead.
const DynMark = "\x00"

// Word is a shell word after quote removal.
type Word struct {
	S    string       // value; DynMark marks run-time parts
	Node *syntax.Word // where it came from, if parsed
}

// Dyn reports whether part of the value is only known at run time.
func (w Word) Dyn() bool { return strings.Contains(w.S, DynMark) }

// Fetched reports whether part of the value is the output of a network
// download: <(curl ...) or "$(wget -O- ...)". It is computed on demand, as
// only interpreters' arguments need it.
func (w Word) Fetched() bool { return w.Node != nil && fetches(w.Node) }

// Lits is the values of ws.
func Lits(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.S
	}
	return out
}

// Parse parses input as bash.
func Parse(input string, opts ...syntax.ParserOption) (*syntax.File, error) {
	if len(opts) == 0 {
		p := parsers.Get().(*syntax.Parser)
		defer parsers.Put(p)
		return p.Parse(strings.NewReader(input), "")
	}
	opts = append([]syntax.ParserOption{syntax.Variant(syntax.LangBash)}, opts...)
	return syntax.NewParser(opts...).Parse(strings.NewReader(input), "")
}

// parsers keeps plain bash parsers for reuse, which mvdan.cc/sh allows once a
// parse is done (each parse starts from a reset, and the tree it returns is its
// own). A parser is 2.5 KB, and a typed line is parsed about three times (judged,
// then remembered for its aliases and functions): most of the allocation of
// judging a short command.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// ResolveWord is the value of w after quote removal (see resolveParts).
func ResolveWord(w *syntax.Word) Word {
	if w == nil {
		return Word{}
	}
	if len(w.Parts) == 1 {
		// Most words are one literal with no backslash to remove (so no escaped
		// tilde either): their value is their text, spared a copy on every check.
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.Contains(l.Value, `\`) {
			return Word{S: l.Value, Node: w}
		}
	}
	var b strings.Builder
	if QuotedTilde(w.Parts) {
		b.WriteString("./") // '~', "~/x", \~: a name in the working directory, not the home
	}
	resolveParts(&b, w.Parts, false)
	return Word{S: b.String(), Node: w}
}

// QuotedTilde reports whether a word begins with a "~" that is quoted or
// escaped, which bash leaves as it is: rm -rf '~' removes a directory named
// "~" (made by a tool that took the name literally), not the home directory.
func QuotedTilde(parts []syntax.WordPart) bool {
	if len(parts) == 0 {
		return false
	}
	switch p := parts[0].(type) {
	case *syntax.Lit:
		return strings.HasPrefix(p.Value, `\~`)
	case *syntax.SglQuoted:
		return strings.HasPrefix(p.Value, "~")
	case *syntax.DblQuoted:
		if len(p.Parts) > 0 {
			l, ok := p.Parts[0].(*syntax.Lit)
			return ok && (strings.HasPrefix(l.Value, "~") || strings.HasPrefix(l.Value, `\~`))
		}
	}
	return false
}

// resolveParts writes the value of parts to b: $HOME becomes "~" and every
// other expansion DynMark. (The policy expands variables it knows; see
// shellEnv.)
func resolveParts(b *strings.Builder, parts []syntax.WordPart, quoted bool) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(Unescape(p.Value, quoted))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ANSIC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			resolveParts(b, p.Parts, true)
		case *syntax.ParamExp:
			if SimpleParam(p) && p.Param.Value == "HOME" {
				b.WriteString("~")
			} else {
				b.WriteString(DynMark)
			}
		case *syntax.CmdSubst:
			if s, ok := EchoValue(p.Stmts); ok {
				b.WriteString(s)
			} else {
				b.WriteString(DynMark)
			}
		default: // arithmetic, extended globs, brace expansion
			b.WriteString(DynMark)
		}
	}
}

// Unescape removes the backslashes the shell would remove: any escaped
// character outside quotes, only \$ \` \" \\ and newline inside double quotes.
func Unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case !quoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

var ansiEscape = regexp.MustCompile(`\\(?:x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)`)

// ANSIC decodes the escapes of a $'...' string.
func ANSIC(s string) string {
	return ansiEscape.ReplaceAllStringFunc(s, func(e string) string {
		switch {
		case e[1] == 'x':
			n, _ := strconv.ParseUint(e[2:], 16, 8)
			return string(rune(n))
		case e[1] >= '0' && e[1] <= '7':
			n, _ := strconv.ParseUint(e[1:], 8, 8)
			return string(rune(n))
		}
		if r, ok := map[byte]string{'n': "\n", 't': "\t", 'r': "\r", 'e': "\x1b", 'a': "\a"}[e[1]]; ok {
			return r
		}
		return e[1:]
	})
}

// SimpleParam reports whether p is a plain $NAME or ${NAME}.
func SimpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length &&
		p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil && len(p.Modifiers) == 0
}

// EchoValue evaluates a command substitution that only echoes literals, as in
// "$(echo rm) -rf /", so such spellings are judged like the plain command.
// It does not look into nested substitutions, so it costs constant time per
// nesting level.
func EchoValue(stmts []*syntax.Stmt) (string, bool) {
	if len(stmts) != 1 {
		return "", false
	}
	if b, ok := stmts[0].Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe {
		return pipeValue(Pipeline(b))
	}
	call, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(stmts[0].Redirs) > 0 {
		return "", false
	}
	ws := make([]string, 0, len(call.Args))
	for _, a := range call.Args {
		w := ShallowLit(a.Parts)
		if strings.Contains(w, DynMark) {
			return "", false
		}
		ws = append(ws, w)
	}
	if ws[0] != "echo" && ws[0] != "printf" {
		return "", false
	}
	ws = ws[1:]
	for len(ws) > 0 && (ws[0] == "-n" || ws[0] == "-e") {
		ws = ws[1:]
	}
	out := strings.Join(ws, " ")
	return out, !strings.Contains(out, "%")
}

// Downloaders are the programs that fetch from the network.
var Downloaders = Set("curl", "wget", "fetch", "http", "https", "aria2c")

// fetches reports whether any command under n downloads from the network.
// It resolves words without evaluating nested substitutions, so deeply nested
// input costs linear time.
func fetches(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && !found && len(call.Args) > 0 {
			ws := make([]Word, len(call.Args))
			for i, a := range call.Args {
				ws[i] = Word{S: ShallowLit(a.Parts)}
			}
			found = Downloaders[Unwrap(ws).Name]
		}
		return !found
	})
	return found
}

// ShallowLit is the value of parts with every expansion, nested
// substitutions included, left as DynMark.
func ShallowLit(parts []syntax.WordPart) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(Unescape(p.Value, false))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			b.WriteString(ShallowLit(p.Parts))
		default:
			b.WriteString(DynMark)
		}
	}
	return b.String()
}

// ProgName is the basename of a program word ("/usr/bin/rm" -> "rm").
func ProgName(s string) string {
	if s == "" || strings.HasSuffix(s, "/") {
		return s
	}
	return path.Base(s)
}

// ForParser turns a resolved value back into text another parser accepts,
// keeping run-time parts recognisable as such.
func ForParser(s string, ctx Context) string {
	repl := "$__dyn"
	if ctx == Python || ctx == SQL {
		repl = "__dyn__"
	}
	return strings.ReplaceAll(s, DynMark, repl)
}

// pipeValue evaluates a pipeline of literal stages, as in
// "$(echo cm0gLXJmIC8= | base64 -d)", without resolving nested substitutions.
func pipeValue(stages []*syntax.Stmt) (string, bool) {
	text, known := "", false
	for _, st := range stages {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return "", false
		}
		ws := make([]Word, len(call.Args))
		for i, a := range call.Args {
			ws[i] = Word{S: ShallowLit(a.Parts)}
		}
		if text, known = StdinText(Unwrap(ws), st.Redirs, text, known); !known {
			return "", false
		}
	}
	return strings.TrimRight(text, "\n"), !strings.Contains(text, DynMark)
}

// URLLike and RemoteLike tell an argument naming a remote location from a
// local path.
var (
	URLLike    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)
	RemoteLike = regexp.MustCompile(`^[^/]*:`) // host:path, user@host:path
)
