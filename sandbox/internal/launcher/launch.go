package launcher

import (
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Main is the launcher: args are the encoded plan, the program's path, its argv[0]
// and its arguments. It applies the plan to the calling thread and execs the
// program from it; it returns only on failure, with the exit status a shell uses
// for a program that could not run (126, 127 when it does not exist). stderr is
// the session's terminal.
func Main(args []string, stderr io.Writer) int {
	if len(args) < 3 {
		io.WriteString(stderr, "mcp-terminal sandbox: internal subcommand; usage: "+Subcommand+" PLAN PATH ARGV0 [ARGS...]\n")
		return 2
	}
	p, err := Decode(args[0])
	if err != nil {
		io.WriteString(stderr, "mcp-terminal sandbox: bad ruleset: "+err.Error()+"\n")
		return 126
	}
	path, argv := args[1], args[2:]
	// Landlock domains, no_new_privs, capabilities and the mount namespace all
	// belong to the thread, and execve keeps the calling thread's: so this thread
	// alone is restricted, and it is the one that execs. Never unlocked.
	runtime.LockOSThread()
	env := os.Environ()
	if p.TmpParent != "" {
		dir, err := makeTmp(p.TmpParent)
		if err != nil {
			io.WriteString(stderr, "mcp-terminal sandbox: private TMPDIR: "+err.Error()+"\n")
			return 126
		}
		// getenv returns the first TMPDIR: an inherited one (the server's, kept in a
		// policy's base environment, or create_session's) would hide this one.
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") })
		env = append(env, "TMPDIR="+dir)
	}
	if p.Seclude {
		if err := seclude(p.HideProcs); err != nil {
			io.WriteString(stderr, "mcp-terminal sandbox: not starting "+path+": "+err.Error()+"\n")
			return 126
		}
	}
	if err := restrict(&p, stderr); err != nil {
		if !p.BestEffort {
			io.WriteString(stderr, "mcp-terminal sandbox: not starting "+path+": "+err.Error()+"\n")
			return 126
		}
		io.WriteString(stderr, "mcp-terminal sandbox: running "+path+" UNCONFINED (best-effort): "+err.Error()+"\n")
	}
	if err := closeInherited(); err != nil {
		io.WriteString(stderr, "mcp-terminal sandbox: not starting "+path+": "+err.Error()+"\n")
		return 126
	}
	err = syscall.Exec(path, argv, env)
	io.WriteString(stderr, "mcp-terminal sandbox: exec "+path+": "+err.Error()+"\n")
	if err == syscall.ENOENT {
		return 127
	}
	return 126
}

// TmpPrefix starts the name of a session's TMPDIR, followed by the launcher's
// pid (the program's, which takes its place), a dash and a random part.
const TmpPrefix = "session-"

// TmpPID returns the pid in the name of a session's TMPDIR, false when name is
// not one the launcher makes. The server removes a TMPDIR once that pid is gone.
func TmpPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, TmpPrefix)
	pid, _, ok2 := strings.Cut(rest, "-")
	n, err := strconv.Atoi(pid)
	return n, ok && ok2 && err == nil && n > 0 && strconv.Itoa(n) == pid
}

// makeTmp makes a new directory in parent with a name holding the pid, so that
// the server can tell whose it is, and a random part: parent lies in an allowed
// path that sessions can write, so a name one could predict is one a session
// could take first.
func makeTmp(parent string) (string, error) {
	for i := 0; ; i++ {
		n, err := random()
		if err != nil {
			return "", err
		}
		dir := parent + "/" + TmpPrefix + strconv.Itoa(syscall.Getpid()) + "-" + strconv.FormatUint(n, 36)
		err = mkdirIn(parent, dir[len(parent)+1:])
		if err == nil {
			return dir, nil
		}
		if err != syscall.EEXIST || i == 10 {
			return "", &os.PathError{Op: "mkdir", Path: dir, Err: err}
		}
	}
}
