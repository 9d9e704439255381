package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
)

// Subcommand is the server binary's internal subcommand that runs as the launcher.
const Subcommand = "sandbox-exec"

// Launcher is the argv prefix that starts a program under rs: self (the server's
// own binary, /proc/self/exe in the child), the subcommand and the ruleset. The
// caller appends the program's resolved path, its argv[0] and its arguments.
func Launcher(self string, rs *Ruleset) ([]string, error) {
	b, err := json.Marshal(rs)
	if err != nil {
		return nil, err
	}
	return []string{self, Subcommand, string(b)}, nil
}

// Main is the launcher: args are the ruleset, the program's path, its argv[0] and
// its arguments. It applies the ruleset to itself and execs the program; it
// returns only on failure, with the exit status a shell uses for a program that
// could not run (126). stderr is the session's terminal.
func Main(args []string, stderr io.Writer) int {
	if len(args) < 3 {
		fmt.Fprintln(stderr, "mcp-terminal sandbox: internal subcommand; usage: "+Subcommand+" RULESET PATH ARGV0 [ARGS...]")
		return 2
	}
	var rs Ruleset
	if err := json.Unmarshal([]byte(args[0]), &rs); err != nil {
		fmt.Fprintf(stderr, "mcp-terminal sandbox: bad ruleset: %v\n", err)
		return 126
	}
	path, argv := args[1], args[2:]
	if rs.TerminalRule {
		if tty, err := os.Readlink("/proc/self/fd/0"); err == nil && strings.HasPrefix(tty, "/dev/pts/") {
			rs.grant(tty, Read|Write|Ioctl, true)
		}
	}
	env := os.Environ()
	if rs.TmpParent != "" {
		dir, err := os.MkdirTemp(rs.TmpParent, "session-")
		if err != nil {
			fmt.Fprintf(stderr, "mcp-terminal sandbox: private TMPDIR: %v\n", err)
			return 126
		}
		env = append(env, "TMPDIR="+dir)
	}
	if rs.Isolated {
		if err := seclude(&rs); err != nil {
			fmt.Fprintf(stderr, "mcp-terminal sandbox: not starting %s: %v\n", path, err)
			return 126
		}
	}
	abi := KernelABI()
	if rs.ABI > 0 {
		abi = min(abi, rs.ABI)
	}
	if err := Apply(&rs, abi); err != nil {
		if !rs.BestEffort {
			fmt.Fprintf(stderr, "mcp-terminal sandbox: not starting %s: %v\n", path, err)
			return 126
		}
		fmt.Fprintf(stderr, "mcp-terminal sandbox: running %s UNCONFINED (best-effort): %v\n", path, err)
	}
	err := syscall.Exec(path, argv, env)
	fmt.Fprintf(stderr, "mcp-terminal sandbox: exec %s: %v\n", path, err)
	if err == syscall.ENOENT {
		return 127
	}
	return 126
}

// init runs the launcher as soon as the binary starts with the subcommand, before
// the packages that are slow to initialise (the danger rules take ~150 ms to
// build) and that a launcher does not need. Go initialises packages in import-path
// order, each once its own imports are ready (the Go spec, "Package
// initialization"); this one sorts before them and imports none of them.
// cmd/mcp-terminal dispatches the subcommand too, should that order ever change.
func init() {
	if len(os.Args) > 1 && os.Args[1] == Subcommand {
		os.Exit(Main(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == probeSubcommand {
		os.Exit(probeMain(os.Stderr))
	}
}
