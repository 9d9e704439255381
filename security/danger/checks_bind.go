package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Key bindings that run commands. A line is judged when a key that submits it
// (Enter, ctrl+j, ctrl+o) is pressed; a binding that makes another key submit
// the line (accept-line), type a whole command line with its Enter (a macro), or
// run a command itself (bash's bind -x) lets a later key press run a command the
// gate never sees as one.

func init() {
	rules = append(rules, rule{"key-runs-command", catPersist,
		"This binds a key to run a command, or to submit the command line, so that pressing it later runs a command that is never judged as one.",
		sh(`bind -x '"\C-t": rm -rf ~/work'`, `bind '"\C-t": accept-line'`, `bind '"\C-t": "rm -rf ~/work\n"'`,
			`bind -m vi-insert '"\C-t": operate-and-get-next'`, `bind 'Control-t: accept-line'`, `bind '"\et": "make deploy\C-m"'`,
			`bindkey -s '^T' 'rm -rf ~\n'`, `bindkey '^T' accept-line`, `bindkey -M viins '^X' accept-and-hold`, `bindkey -s '\et' 'git push -f^M'`),
		sh(`bind -p`, `bind -l`, `bind -P`, `bind '"\e[A": history-search-backward'`, `bind 'set completion-ignore-case on'`,
			`bind '"\C-m": accept-line'`, `bind -q accept-line`, `bindkey -v`, `bindkey '^R' history-incremental-search-backward`,
			`bindkey '^M' accept-line`, `bindkey -s '^T' 'ls -la'`, `bindkey -L`)})
	addHostCheck("bind", checkBind)
	addHostCheck("bindkey", checkBindkey)
}

// submitWidgets are the line editors' functions that hand the command line over to
// be run: readline's (bash) and zle's (zsh).
var submitWidgets = shell.Set("accept-line", "operate-and-get-next", "edit-and-execute-command", "vi-accept-line",
	"accept-and-hold", "accept-and-infer-next-history", "accept-line-and-down-history", "accept-and-menu-complete")

// submitKeySpecs are the ways of naming Enter or ctrl+j: binding them to accept
// the line is what they do already.
var submitKeySpecs = shell.Set(`\C-m`, `\C-j`, `\r`, `\n`, `C-m`, `C-j`, `Control-m`, `Control-j`, `RET`, `Return`,
	`RETURN`, `LFD`, `Newline`, `^M`, `^J`, `\M`, `\J`)

// submitsText says whether a macro's text holds a key that submits the line.
func submitsText(text string) bool {
	lower := strings.ToLower(text)
	for _, k := range []string{`\n`, `\r`, `\c-m`, `\c-j`, `\c-o`, `^m`, `^j`, `^o`, `\015`, `\012`, `\x0d`, `\x0a`} {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return strings.ContainsAny(text, "\r\n\x0f")
}

// checkBind judges bash's bind: -x runs a command on a key; a binding
// "keyseq": function or "keyseq": "macro" submits the line from a key other than
// Enter's own.
func checkBind(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-x" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "x"):
			return hit("key-runs-command")
		case a == "-m" || a == "-f" || a == "-q" || a == "-u" || a == "-r":
			i++ // the option's value
		case strings.HasPrefix(a, "-"):
		default:
			if bindingSubmits(a) {
				return hit("key-runs-command")
			}
		}
	}
	return Verdict{}
}

// bindingSubmits reads one readline binding, `"keyseq": function-or-"macro"` or
// `Control-t: function`.
func bindingSubmits(spec string) bool {
	key, value, ok := cutBinding(spec)
	if !ok {
		return false
	}
	if strings.HasPrefix(value, `"`) || strings.HasPrefix(value, `'`) {
		return submitsText(value)
	}
	return submitWidgets[strings.TrimSpace(value)] && !submitKeySpecs[key]
}

// cutBinding splits a readline binding at the colon after its key sequence.
func cutBinding(spec string) (key, value string, ok bool) {
	spec = strings.TrimSpace(spec)
	if strings.HasPrefix(spec, `"`) {
		i := 1
		for i < len(spec) && spec[i] != '"' {
			if spec[i] == '\\' {
				i++ // an escaped character, a quote among them
			}
			i++
		}
		if i >= len(spec) {
			return "", "", false
		}
		value, ok := strings.CutPrefix(strings.TrimSpace(spec[i+1:]), ":")
		return spec[1:i], strings.TrimSpace(value), ok
	}
	key, value, ok = strings.Cut(spec, ":")
	return strings.TrimSpace(key), strings.TrimSpace(value), ok
}

// checkBindkey judges zsh's bindkey: -s KEY STRING types STRING on KEY, and KEY
// WIDGET binds a widget.
func checkBindkey(c shell.Command, _ int) Verdict {
	var words []string
	macro := false
	args := shell.Lits(c.Args[1:])
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-M" || a == "-A" || a == "-N":
			i++
		case a == "-s":
			macro = true
		case strings.HasPrefix(a, "-") && len(a) > 1 && len(words) == 0:
			macro = macro || strings.Contains(a[1:], "s")
		default:
			words = append(words, a)
		}
	}
	if len(words) < 2 {
		return Verdict{}
	}
	if macro {
		return hitIf(submitsText(words[1]), "key-runs-command")
	}
	return hitIf(submitWidgets[words[1]] && !submitKeySpecs[words[0]], "key-runs-command")
}
