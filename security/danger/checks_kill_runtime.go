package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// A language runtime's name (java, python3, node) selects every program
// written in it: the build daemon, the IDE's language server, a JVM
// database, other people's services under sudo. SIGKILL gives none of them
// a chance to save state, so killing a runtime by its bare name with KILL is
// a mass kill; a gentler signal, or a pattern naming one program
// (pkill -f 'node server.js'), stays ordinary.

var runtimes = shell.Set("java", "javaw", "python", "python2", "python3", "node", "nodejs", "ruby", "perl", "php", "php-cgi",
	"dotnet", "mono", "erl", "beam", "beam.smp", "deno", "bun", "lua", "Rscript", "R", "julia", "scala", "kotlin", "groovy",
	"qemu-system", "qemu-system-x86_64", "qemu-system-aarch64", "qemu-kvm", "firecracker") // a hypervisor's process is every guest

var oneCharClass = regexp.MustCompile(`\[(\w)\]`)

// runtimePattern: a process pattern that is only a runtime's name
// (java, ^java$, 'python3.*', /usr/bin/node).
func runtimePattern(p string) bool {
	p = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p), "^"), "$"), ".*")
	p = oneCharClass.ReplaceAllString(p, "$1") // grep '[j]ava' keeps grep out of its own output
	p = strings.TrimSuffix(p, "[0-9.]*")
	p = p[strings.LastIndexByte(p, '/')+1:]
	if runtimes[p] {
		return true
	}
	// python3.12, node18
	base := strings.TrimRight(p, "0123456789.")
	return base != p && runtimes[base]
}

// killSignal: the signal asked for is KILL (-9, -KILL, -s KILL, --signal=9).
func killSignal(args []string) bool {
	sig, ok := signalAsked(args)
	return ok && (sig == "KILL" || sig == "9")
}

// killsRuntime: pkill/killall given only a runtime's name, with KILL.
func killsRuntime(patterns, args []string) bool {
	if !killSignal(args) {
		return false
	}
	for _, p := range patterns {
		if runtimePattern(p) {
			return true
		}
	}
	return false
}
