package session

import (
	"embed"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Shell integration: bash and zsh started by create_session get OSC 133 marks on
// their prompts and commands (prompt start, input start, output start, command end
// with exit status), the way VS Code and iTerm2 do it. The user's startup files still
// load first. A shell started by hand inside a session gets nothing, and detection
// falls back to prompts and input-wait.

//go:embed integration
var scripts embed.FS

// integrationDir holds the scripts on disk; the Manager creates it on first use and
// removes it at Shutdown.
type integrationDir struct {
	once sync.Once
	dir  string
	err  error
}

func (d *integrationDir) path() (string, error) {
	d.once.Do(func() {
		d.dir, d.err = os.MkdirTemp("", "mcp-terminal-shell-")
		if d.err != nil {
			return
		}
		files := map[string]string{"bashrc": "bashrc", "zsh/.zshenv": "zshenv", "zsh/.zprofile": "zprofile", "zsh/.zshrc": "zshrc"}
		for dst, src := range files {
			b, err := scripts.ReadFile("integration/" + src)
			if err == nil {
				err = os.MkdirAll(filepath.Dir(filepath.Join(d.dir, dst)), 0o700)
			}
			if err == nil {
				err = os.WriteFile(filepath.Join(d.dir, dst), b, 0o600)
			}
			if err != nil {
				d.err = fmt.Errorf("write shell integration: %w", err)
				return
			}
		}
	})
	return d.dir, d.err
}

func (d *integrationDir) remove() {
	if d.dir != "" {
		os.RemoveAll(d.dir)
	}
}

// interactiveFlags are the arguments that still leave an interactive shell reading
// its rc file; anything else (a script, -c, --login, --rcfile) is left alone.
var interactiveFlags = map[string][]string{
	"bash": {"-i", "--norc", "--noprofile", "--noediting"},
	"zsh":  {"-i", "-l", "--login"},
}

// The rc file's two hooks inline, for bash --norc: the status first (while $? is the
// command's), the prompt wrapper last, the caller's own PROMPT_COMMAND between them.
// Coming from the environment they are exported, and so is the PS1 they wrap: the
// wrapper takes all three from children once (see the rc file). Each runs with
// stderr at /dev/null, where set -x would trace it.
const (
	bashStatusHook = `{ printf '\033]133;D;%s\007' "$?"; } 2>/dev/null`
	bashPromptHook = `{ case "$PS1" in *'133;A'*) ;; *) PS1='\[\033]133;D;$?;n=${EPOCHREALTIME-}\007\033]133;A\007\]'"$PS1"'\[\033]133;B\007\]'; export -n PS1 PROMPT_COMMAND PS0 ;; esac; } 2>/dev/null`
)

// integrate rewrites the options of an interactive bash or zsh so that it loads
// the integration scripts. Anything it cannot handle starts unchanged.
func (d *integrationDir) integrate(o CreateOptions) (CreateOptions, bool) {
	shell := filepath.Base(o.Command)
	flags, ok := interactiveFlags[shell]
	if !ok {
		return o, false
	}
	for _, a := range o.Args {
		if !slices.Contains(flags, a) {
			return o, false
		}
	}
	dir, err := d.path()
	if err != nil {
		return o, false
	}
	env := maps.Clone(o.Env)
	if env == nil {
		env = map[string]string{}
	}
	switch shell {
	case "bash":
		if slices.Contains(o.Args, "--norc") {
			// No rc file may run, not even the system's: bring the marks in the
			// environment, which bash reads anyway.
			env["PROMPT_COMMAND"] = bashStatusHook + "\n" + env["PROMPT_COMMAND"] + "\n" + bashPromptHook
			env["PS0"] = "\x1b]133;C\x07" + env["PS0"]
			break
		}
		o.Args = append([]string{"--rcfile", filepath.Join(dir, "bashrc")}, o.Args...)
	case "zsh":
		user, set := env["ZDOTDIR"]
		if !set {
			user = os.Getenv("ZDOTDIR")
		}
		env["__MCPT_USER_ZDOTDIR"] = user
		env["ZDOTDIR"] = filepath.Join(dir, "zsh")
	}
	o.Env = env
	return o, true
}
