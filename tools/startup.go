package tools

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/danger"
	"github.com/mcp-terminal/mcp-terminal/security/redact"
	"github.com/mcp-terminal/mcp-terminal/session"
)

// What a session starts with runs before anything is typed: its argv, and the
// variables shells and interpreters read code from at start-up. Both are judged with
// the same rules as typed input; the dynamic loader's variables are refused outright,
// as no rule can judge a library.

// loaderVars are refused in env: they make every program of the session load code.
func loaderVar(name string) bool {
	return strings.HasPrefix(name, "LD_") || name == "GCONV_PATH" || name == "GLIBC_TUNABLES"
}

// shellCodeVars hold shell code that a shell or a tool runs: as a command line, or
// expanded like a prompt (command substitutions run).
var shellCodeVars = map[string]bool{
	"PROMPT_COMMAND": true, "PS0": true, "PS1": true, "PS2": true, "PS3": true, "PS4": true,
	"GIT_SSH_COMMAND": true, "GIT_PAGER": true, "GIT_EDITOR": true, "GIT_EXTERNAL_DIFF": true, "GIT_SEQUENCE_EDITOR": true,
	"PAGER": true, "MANPAGER": true, "EDITOR": true, "VISUAL": true, "LESSOPEN": true, "LESSCLOSE": true,
	"SSH_ASKPASS": true, "SUDO_ASKPASS": true, "GIT_ASKPASS": true, "BROWSER": true,
}

// maxStartupFile bounds what is read of a file a variable makes a program run.
const maxStartupFile = 1 << 20

// startupCode lists what env makes the session run besides its argv: each piece of
// code with the rules it is judged by and where it comes from.
type codePiece struct {
	ctx    danger.Context
	code   string
	source string
}

func startupCode(env map[string]string, dir string) []codePiece {
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []codePiece
	add := func(ctx danger.Context, code, source string) {
		if strings.TrimSpace(code) != "" {
			out = append(out, codePiece{ctx, code, source})
		}
	}
	file := func(ctx danger.Context, p, source string) {
		if b, ok := readStart(p, dir); ok {
			add(ctx, b, source+" (file "+p+")")
		}
	}
	for _, k := range names {
		v := env[k]
		switch {
		case shellCodeVars[k]:
			add(danger.Shell, strings.TrimPrefix(v, "|"), "env "+k)
			// A prompt's command substitutions run when it is drawn.
			add(danger.Shell, ": \""+strings.ReplaceAll(v, `"`, `\"`)+"\"", "env "+k)
		case k == "BASH_ENV" || k == "ENV":
			add(danger.Shell, ": \""+strings.ReplaceAll(v, `"`, `\"`)+"\"", "env "+k) // expanded before it is read
			file(danger.Shell, v, "env "+k)
		case strings.HasPrefix(k, "BASH_FUNC_"):
			add(danger.Shell, "f"+v, "env "+k) // an exported function: "() { body }"
		case k == "PYTHONSTARTUP":
			file(danger.Python, v, "env "+k)
		case k == "PYTHONPATH":
			for _, d := range filepath.SplitList(v) {
				file(danger.Python, filepath.Join(d, "sitecustomize.py"), "env "+k)
				file(danger.Python, filepath.Join(d, "usercustomize.py"), "env "+k)
			}
		case k == "PERL5OPT":
			add(danger.Shell, "perl "+v+" -e 1", "env "+k)
		case k == "NODE_OPTIONS" || k == "RUBYOPT":
			for _, p := range requiredFiles(v) {
				file(danger.Unknown, p, "env "+k)
			}
		case k == "ZDOTDIR" || k == "HOME":
			for _, rc := range []string{".zshenv", ".zprofile", ".zshrc", ".zlogin", ".bashrc", ".bash_profile", ".profile"} {
				file(danger.Shell, filepath.Join(v, rc), "env "+k)
			}
		}
	}
	return out
}

// requiredFiles are the files node's --require/--import/--loader or ruby's -r
// options in a variable name.
func requiredFiles(v string) []string {
	var out []string
	f := strings.Fields(v)
	for i := 0; i < len(f); i++ {
		a := f[i]
		for _, opt := range []string{"--require", "--import", "--loader", "--experimental-loader", "-r"} {
			switch {
			case a == opt && i+1 < len(f):
				out = append(out, f[i+1])
				i++
			case strings.HasPrefix(a, opt+"="):
				out = append(out, strings.TrimPrefix(a, opt+"="))
			case opt == "-r" && strings.HasPrefix(a, "-r") && len(a) > 2:
				out = append(out, a[2:])
			default:
				continue
			}
			break
		}
	}
	return out
}

func readStart(p, dir string) (string, bool) {
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxStartupFile))
	return string(b), err == nil
}

// shellJoin quotes argv as a shell would need it typed, so it is judged as the words it
// is: the script of bash -c is one word, judged as a script.
func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		var err error
		if q[i], err = syntax.Quote(a, syntax.LangBash); err != nil {
			q[i] = a // only a NUL byte fails, and createOptions refused those
		}
	}
	return strings.Join(q, " ")
}

// checkStart judges what a new session would run before anything is typed: its argv
// and the code its environment names. nil means it may start.
func (s *Server) checkStart(ctx context.Context, o session.CreateOptions) error {
	for k := range o.Env {
		if loaderVar(k) {
			return fmt.Errorf("env %s makes the dynamic loader run code in every program of the session, which no rule can judge; set it inside the session if you must", k)
		}
		if k == "PATH" && len(s.cfg.Policy.Allowed)+len(s.cfg.Policy.Blocked) > 0 {
			return fmt.Errorf("env PATH would change which programs the allow and block lists see; set PATH inside the session instead, where each command is checked")
		}
	}
	line := shellJoin(append([]string{o.Command}, o.Args...))
	pieces := append([]codePiece{{danger.Shell, line, "its command line"}}, startupCode(o.Env, o.Dir)...)
	pol := s.cfg.Policy
	pol.Home = o.Env["HOME"] // the session's; "" is the server's, which it inherits
	for _, p := range pieces {
		if err := pol.CheckInput(p.ctx, p.code, o.Dir); err != nil {
			s.audit(ctx, redact.Event{Kind: redact.EventBlocked, Command: line, Detail: p.source + ": " + err.Error()})
			return fmt.Errorf("%s: %v", p.source, err)
		}
		if !s.cfg.DangerDetection {
			continue
		}
		if v := danger.Classify(p.ctx, p.code); v.Dangerous {
			e := redact.Event{Kind: redact.EventRefused, Command: line, Rule: v.Rule}
			if p.code != line {
				e.Input, e.Detail = p.code, p.source
			}
			s.audit(ctx, e)
			return fmt.Errorf("%s matches danger rule %s (%s): %s. Start a shell session instead and run it there with confirm_dangerous_command if it is really intended",
				p.source, v.Rule, v.Category, strings.TrimRight(v.Why, ". "))
		}
	}
	return nil
}
