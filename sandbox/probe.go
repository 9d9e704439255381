package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/mcp-terminal/mcp-terminal/sandbox/internal/launcher"
)

// probeSubcommand is the internal subcommand the launcher runs, in Seclusion,
// to see a session's view from inside.
const probeSubcommand = launcher.ProbeSubcommand

// Seclusion reports whether the launcher in self (this binary, or a test binary
// acting as it) can hide other processes from a session and take its
// capabilities: it starts one secluded program that checks its own view, and
// returns why not when it cannot (no right to mount a private /proc: a server
// not run as root, a container without CAP_SYS_ADMIN; a kernel without
// Landlock scoping).
func Seclusion(ctx context.Context, self string, env []string) error {
	if KernelABI() < IsolationABI {
		return fmt.Errorf("this kernel has Landlock ABI %d < %d: %w", KernelABI(), IsolationABI, ErrUnsupported)
	}
	prefix, err := Launcher(self, &Ruleset{Isolated: true, HideProcs: true})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, prefix[0], append(prefix[1:], self, "mcp-terminal", probeSubcommand)...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		// The launcher's refusal names what failed after the program's path.
		msg := strings.TrimSpace(out.String())
		if _, why, ok := strings.Cut(msg, "not starting "+self+": "); ok {
			msg = why
		}
		return fmt.Errorf("%s (%v)", msg, err)
	}
	return nil
}
