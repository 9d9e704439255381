package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-terminal/mcp-terminal/tools"
)

// config is everything the server can be told, from flags or MCP_TERMINAL_* variables.
type config struct {
	MaxSessions     int
	MaxOutput       int
	DefaultTimeout  time.Duration
	StartupTimeout  time.Duration
	IdleTimeout     time.Duration // 0 disables
	Scrollback      int
	MaxInput        int
	BlockedCommands []string
	AllowedCommands []string
	AllowedPaths    []string
	RedactSecrets   bool
	LogInputs       bool
	DangerDetection bool
	AuditLog        string
	Network         bool          // false: TCP connect and bind denied by the sandbox
	SandboxMode     string        // "required" (fail closed) or "best-effort"
	SharedTmp       bool          // /tmp and /dev/shm writable in the sandbox; false: a TMPDIR per session
	SystemPaths     []string      // readable trees under the sandbox; nil: sandbox.DefaultSystem
	Confirm         string        // auto, human or agent: who confirms dangerous input
	ConfirmTimeout  time.Duration // how long a person may take to answer
	LogLevel        slog.Level
	Version         bool
	HTTP            httpConfig // config_http.go
	Web             string     // web.go: the live view's loopback address in stdio mode

	// Recording (record.go): asciicast files per session.
	RecordDir   string
	RecordInput bool
	RecordMaxMB int
}

// setting is one configuration knob: its flag, its variable, its default and how to
// apply a value. The table is the single source for flags, variables and the README.
type setting struct {
	flag, env, def, usage string
	apply                 func(c *config, v string) error
}

func settings() []setting {
	return append([]setting{
		{"max-sessions", "MCP_TERMINAL_MAX_SESSIONS", "10", "live sessions at once",
			intIn(1, 1000, func(c *config, n int) { c.MaxSessions = n })},
		{"max-output", "MCP_TERMINAL_MAX_OUTPUT", "20000", "characters per reply (default for max_output_chars)",
			intIn(tools.MinOutputChars, tools.MaxOutputChars, func(c *config, n int) { c.MaxOutput = n })},
		{"default-timeout", "MCP_TERMINAL_DEFAULT_TIMEOUT", "10000", "default timeout_ms (milliseconds, or a duration like 30s)",
			durIn(time.Millisecond, 10*time.Minute, func(c *config, d time.Duration) { c.DefaultTimeout = d })},
		{"startup-timeout", "MCP_TERMINAL_STARTUP_TIMEOUT", "5000", "how long create_session waits for the program to be ready (ms or duration)",
			durIn(time.Millisecond, 10*time.Minute, func(c *config, d time.Duration) { c.StartupTimeout = d })},
		{"idle-timeout", "MCP_TERMINAL_IDLE_TIMEOUT", "1800000", "close sessions unused this long (ms or duration; 0 disables)",
			durIn(0, 365*24*time.Hour, func(c *config, d time.Duration) { c.IdleTimeout = d })},
		{"scrollback", "MCP_TERMINAL_SCROLLBACK", "10000", "lines of scrollback kept per session",
			intIn(0, 1_000_000, func(c *config, n int) { c.Scrollback = n })},
		{"max-input", "MCP_TERMINAL_MAX_INPUT", "65536", "bytes per input",
			intIn(1, 16<<20, func(c *config, n int) { c.MaxInput = n })},
		{"blocked-commands", "MCP_TERMINAL_BLOCKED_COMMANDS", "", "comma-separated programs that are always refused",
			list(func(c *config, l []string) { c.BlockedCommands = l })},
		{"allowed-commands", "MCP_TERMINAL_ALLOWED_COMMANDS", "", "comma-separated programs that may run (empty: all)",
			list(func(c *config, l []string) { c.AllowedCommands = l })},
		{"allowed-paths", "MCP_TERMINAL_ALLOWED_PATHS", "", "comma-separated directories sessions may work in (empty: anywhere)",
			list(func(c *config, l []string) { c.AllowedPaths = l })},
		{"redact-secrets", "MCP_TERMINAL_REDACT_SECRETS", "true", "replace tokens, keys and passwords in results with [REDACTED:kind]",
			boolean(func(c *config, b bool) { c.RedactSecrets = b })},
		{"log-inputs", "MCP_TERMINAL_LOG_INPUTS", "false", "log typed input (redacted) to stderr",
			boolean(func(c *config, b bool) { c.LogInputs = b })},
		{"danger-detection", "MCP_TERMINAL_DANGER_DETECTION", "true", "refuse dangerous input until confirm_dangerous_command",
			boolean(func(c *config, b bool) { c.DangerDetection = b })},
		{"audit-log", "MCP_TERMINAL_AUDIT_LOG", "", "append a JSON-lines audit record of every session and input to this file",
			func(c *config, v string) error { c.AuditLog = v; return nil }},
		// Confirmation by a person (elicitation); see tools/confirm.go.
		{"confirm", "MCP_TERMINAL_CONFIRM", "auto", "who confirms dangerous input: auto (the person, asked through the client, when it supports elicitation; else the agent), human (only a person: refused when the client cannot ask), agent (confirm_dangerous_command)",
			oneOf([]string{"auto", "human", "agent"}, func(c *config, v string) { c.Confirm = v })},
		{"confirm-timeout", "MCP_TERMINAL_CONFIRM_TIMEOUT", "5m", "how long to wait for a person to answer a confirmation (ms or duration)",
			durIn(time.Second, 24*time.Hour, func(c *config, d time.Duration) { c.ConfirmTimeout = d })},
		// The sandbox (Landlock); see sandbox.go.
		{"network", "MCP_TERMINAL_NETWORK", "on", "on, or off: sessions cannot connect or bind TCP (Landlock; UDP and unix sockets stay open)",
			boolean(func(c *config, b bool) { c.Network = b })},
		{"sandbox", "MCP_TERMINAL_SANDBOX", "required", "required: refuse to start when the kernel cannot enforce the policy; best-effort: enforce what it can and say what not",
			oneOf([]string{"required", "best-effort"}, func(c *config, v string) { c.SandboxMode = v })},
		{"shared-tmp", "MCP_TERMINAL_SHARED_TMP", "true", "with allowed paths, /tmp and /dev/shm stay writable; false: each session gets a TMPDIR inside the first allowed path",
			boolean(func(c *config, b bool) { c.SharedTmp = b })},
		{"system-paths", "MCP_TERMINAL_SYSTEM_PATHS", "", "with allowed paths, comma-separated trees sessions may read (and execute from); empty: /usr, /etc, /lib*, /opt, /sys, /run, /var/lib",
			list(func(c *config, l []string) { c.SystemPaths = l })},
		// Recording; see record.go.
		{"record-dir", "MCP_TERMINAL_RECORD_DIR", "", "record every session as an asciicast v2 file <session_id>.cast (mode 0600) in this directory",
			func(c *config, v string) error { c.RecordDir = v; return nil }},
		{"record-input", "MCP_TERMINAL_RECORD_INPUT", "false", "also record what is typed (\"i\" events); never input typed at a hidden prompt",
			boolean(func(c *config, b bool) { c.RecordInput = b })},
		{"record-max-mb", "MCP_TERMINAL_RECORD_MAX_MB", "100", "size limit of one recording in MB; it stops there with a final marker",
			intIn(1, 1<<20, func(c *config, n int) { c.RecordMaxMB = n })},
		{"log-level", "MCP_TERMINAL_LOG_LEVEL", "info", "stderr log level: debug, info, warn, error",
			func(c *config, v string) error { return c.LogLevel.UnmarshalText([]byte(v)) }},
	}, append(httpSettings(), webSettings()...)...)
}

// loadConfig resolves every setting: a flag wins over its variable, which wins over
// the default. Any invalid value is an error naming where it came from.
func loadConfig(argv []string, getenv func(string) string, usageOut io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("mcp-terminal", flag.ContinueOnError)
	fs.SetOutput(usageOut)
	all := settings()
	vals := make(map[string]*string, len(all))
	for _, s := range all {
		v := &flagValue{switchOff: s.def == "false"}
		vals[s.flag] = &v.s
		fs.Var(v, s.flag, fmt.Sprintf("%s (env %s, default %q)", s.usage, s.env, s.def))
	}
	fs.BoolVar(&c.Version, "version", false, "print the version and exit")
	fs.Usage = func() { usage(fs) }
	if err := fs.Parse(argv); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q (the only subcommand is \"doctor\")", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var errs []error
	for _, s := range all {
		v, from := s.def, "default"
		if set[s.flag] {
			v, from = *vals[s.flag], "--"+s.flag
		} else if e, ok := lookup(getenv, s.env); ok {
			v, from = e, s.env
		}
		if err := s.apply(&c, strings.TrimSpace(v)); err != nil {
			errs = append(errs, fmt.Errorf("invalid %s=%q: %w", from, v, err))
		}
	}
	if len(errs) == 0 {
		errs = append(errs, c.HTTP.check(), c.checkWeb())
	}
	return c, errors.Join(errs...)
}

// flagValue is a setting's flag. A setting off by default is a switch: given bare
// (--insecure-no-auth) it turns on, and --flag=false still turns it off.
type flagValue struct {
	s         string
	switchOff bool
}

func (v *flagValue) String() string     { return v.s }
func (v *flagValue) Set(s string) error { v.s = s; return nil }
func (v *flagValue) IsBoolFlag() bool   { return v.switchOff }

// usage is what --help prints: both ways to run the binary, then every flag.
func usage(fs *flag.FlagSet) {
	fmt.Fprint(fs.Output(), `Usage:
  mcp-terminal [flags]          serve MCP over stdio (what an MCP client starts)
  mcp-terminal --http ADDR      serve streamable HTTP at http://ADDR/mcp instead
  mcp-terminal doctor [flags]   check this machine (PTYs, shells) and drive one real
                                session through the server, printing what it saw

Every flag can also be set with its MCP_TERMINAL_* variable; a flag wins.

Flags:
`)
	fs.PrintDefaults()
}

func lookup(getenv func(string) string, name string) (string, bool) {
	v := getenv(name)
	return v, v != ""
}

func intIn(lo, hi int, set func(*config, int)) func(*config, string) error {
	return func(c *config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("want a whole number from %d to %d", lo, hi)
		}
		set(c, n)
		return nil
	}
}

// durIn accepts milliseconds ("30000", as mcp-interactive-terminal does) or a Go
// duration ("30s", "30m").
func durIn(lo, hi time.Duration, set func(*config, time.Duration)) func(*config, string) error {
	return func(c *config, v string) error {
		var d time.Duration
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			if n < 0 || n > int64(hi/time.Millisecond) {
				return fmt.Errorf("want milliseconds from %d to %d", lo.Milliseconds(), hi.Milliseconds())
			}
			d = time.Duration(n) * time.Millisecond
		} else if d, err = time.ParseDuration(v); err != nil {
			return errors.New("want milliseconds (e.g. 30000) or a duration (e.g. 30s)")
		}
		if (d < lo && d != 0) || (d == 0 && lo > 0) || d > hi || d < 0 {
			return fmt.Errorf("want a duration from %s to %s", lo, hi)
		}
		set(c, d)
		return nil
	}
}

func boolean(set func(*config, bool)) func(*config, string) error {
	return func(c *config, v string) error {
		switch strings.ToLower(v) {
		case "1", "true", "yes", "on":
			set(c, true)
		case "0", "false", "no", "off":
			set(c, false)
		default:
			return errors.New("want true or false")
		}
		return nil
	}
}

func oneOf(values []string, set func(*config, string)) func(*config, string) error {
	return func(c *config, v string) error {
		for _, ok := range values {
			if strings.EqualFold(v, ok) {
				set(c, ok)
				return nil
			}
		}
		return fmt.Errorf("want one of %s", strings.Join(values, ", "))
	}
}

func list(set func(*config, []string)) func(*config, string) error {
	return func(c *config, v string) error {
		var out []string
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
		set(c, out)
		return nil
	}
}
