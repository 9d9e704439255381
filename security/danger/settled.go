package danger

import (
	"net"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Commands the rest of the same input settles, as SQL's statements inside a
// transaction it rolls back: judged alone each would be refused, judged with
// what surrounds them they are routine.
//
//   - a service stopped and started again later in the input (a restart);
//   - a crontab replaced by itself plus jobs (crontab -l; echo JOB) | crontab -,
//     judged by the jobs it adds;
//   - a line appended to /etc/hosts that names only private hosts
//     (10.0.4.12 registry.internal), not a public name redirected.
//
// settledCalls returns them; checkTree skips them as it does the deletions
// checkAfterCd judged in their directory.
func settledCalls(f *syntax.File, depth int) map[*syntax.CallExpr]bool {
	out := map[*syntax.CallExpr]bool{}
	var stops []*syntax.CallExpr
	var started []string
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if call := appendsPrivateHosts(n); call != nil {
				out[call] = true
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe {
				if call := crontabPlusJobs(shell.Pipeline(n), depth); call != nil {
					out[call] = true
				}
				if call := teesTableEntry(shell.Pipeline(n)); call != nil {
					out[call] = true // backup_modes.go
				}
				if call := teesPrivateHosts(shell.Pipeline(n)); call != nil {
					out[call] = true
				}
				if call := teesHardeningDropIn(shell.Pipeline(n)); call != nil {
					out[call] = true
				}
				if call := filteredContainersFed(shell.Pipeline(n)); call != nil {
					out[call] = true
				}
				if call := prefixFilteredFed(shell.Pipeline(n), depth); call != nil {
					out[call] = true
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 || !serviceWords[shell.ProgName(shell.ShallowLit(n.Args[0].Parts))] {
				break // most commands: no need to build them
			}
			c, ok := shell.BuildCommand(n)
			if !ok {
				break
			}
			verb, units := serviceVerb(c)
			switch verb {
			case "stop":
				stops = append(stops, n)
			case "start", "restart":
				started = append(started, units...)
			}
		}
		return true
	})
	for _, call := range stops {
		c, _ := shell.BuildCommand(call)
		_, units := serviceVerb(c)
		if len(units) > 0 && !slices.ContainsFunc(units, func(u string) bool { return !slices.Contains(started, u) }) {
			out[call] = true
		}
	}
	return out
}

// serviceWords: the first words of a command that may start or stop a
// service, itself or through a wrapper.
var serviceWords = shell.Set("systemctl", "service", "sudo", "doas", "env", "command", "exec", "nohup", "timeout")

// serviceVerb: systemctl VERB UNIT… or service UNIT VERB, units without
// their .service suffix.
func serviceVerb(c shell.Command) (string, []string) {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	switch {
	case c.Name == "systemctl" && len(ops) > 1:
		units := make([]string, 0, len(ops)-1)
		for _, u := range ops[1:] {
			units = append(units, strings.TrimSuffix(u, ".service"))
		}
		return ops[0], units
	case c.Name == "service" && len(ops) == 2:
		return ops[1], []string{ops[0]}
	}
	return "", nil
}

// crontabPlusJobs: (crontab -l; echo JOB…) | crontab - keeps every job and
// adds JOBs; it is settled when no added job is dangerous to run.
func crontabPlusJobs(stages []*syntax.Stmt, depth int) *syntax.CallExpr {
	if len(stages) != 2 {
		return nil
	}
	last, ok := stages[1].Cmd.(*syntax.CallExpr)
	if !ok {
		return nil
	}
	if c, ok := shell.BuildCommand(last); !ok || c.Name != "crontab" || len(c.Args) != 2 || c.Args[1].S != "-" {
		return nil
	}
	var stmts []*syntax.Stmt
	switch g := stages[0].Cmd.(type) {
	case *syntax.Subshell:
		stmts = g.Stmts
	case *syntax.Block:
		stmts = g.Stmts
	default:
		return nil
	}
	kept := false
	for _, s := range stmts {
		if call, ok := s.Cmd.(*syntax.CallExpr); ok {
			if c, ok := shell.BuildCommand(call); ok && c.Name == "crontab" && len(c.Args) == 2 && c.Args[1].S == "-l" {
				kept = true
				continue
			}
		}
		text, ok := shell.EchoValue([]*syntax.Stmt{s})
		if !ok {
			return nil
		}
		for _, line := range strings.Split(text, "\n") {
			job := cronCommand(line)
			if job == "" || !installedProgram(strings.Fields(job)[0]) || strings.Contains(job, "://") ||
				classifyShell(shell.ForParser(job, Shell), depth+1).Dangerous {
				return nil
			}
		}
	}
	if !kept {
		return nil
	}
	return last
}

// installedProgram: a program named by an absolute or home path that is
// neither in a scratch directory nor hidden (/home/dev/bin/rotate-logs.sh,
// not /tmp/.u, ./job or a dropped .x), so a job can be told by what it runs.
func installedProgram(p string) bool {
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") {
		return false
	}
	if classifyPath(p) == pcScratch || strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "/dev/shm/") || strings.HasPrefix(p, "/var/tmp/") {
		return false
	}
	return !slices.ContainsFunc(components(p), func(c string) bool { return strings.HasPrefix(c, ".") })
}

// cronCommand is the command of a crontab line (after five time fields or
// an @keyword), or "" for a line that is not a job.
func cronCommand(line string) string {
	f := strings.Fields(line)
	switch {
	case len(f) > 1 && strings.HasPrefix(f[0], "@"):
		return strings.Join(f[1:], " ")
	case len(f) > 5:
		return strings.Join(f[5:], " ")
	}
	return ""
}

// appendsPrivateHosts: echo 'IP NAME' >> /etc/hosts, NAME private.
func appendsPrivateHosts(s *syntax.Stmt) *syntax.CallExpr {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(s.Redirs) != 1 || s.Redirs[0].Op != syntax.AppOut || shell.ResolveWord(s.Redirs[0].Word).S != "/etc/hosts" {
		return nil
	}
	text, ok := shell.EchoValue([]*syntax.Stmt{{Cmd: call}})
	if !ok || !privateHostsLines(text) {
		return nil
	}
	return call
}

// teesPrivateHosts: echo 'IP NAME' | [sudo] tee -a /etc/hosts, NAME private.
func teesPrivateHosts(stages []*syntax.Stmt) *syntax.CallExpr {
	return echoedIntoTee(stages, func(o shell.Opts, text string) bool {
		return o.Has("a", "append") && len(o.Operands) == 1 && o.Operands[0].S == "/etc/hosts" && privateHostsLines(text)
	})
}

// echoedIntoTee returns the tee of a two-stage pipeline `echo TEXT | tee …`
// whose options and echoed text ok accepts, else nil.
func echoedIntoTee(stages []*syntax.Stmt, ok func(o shell.Opts, text string) bool) *syntax.CallExpr {
	if len(stages) != 2 {
		return nil
	}
	last, isCall := stages[1].Cmd.(*syntax.CallExpr)
	if !isCall {
		return nil
	}
	c, built := shell.BuildCommand(last)
	if !built || c.Name != "tee" {
		return nil
	}
	text, echoed := shell.EchoValue(stages[:1])
	if !echoed || !ok(shell.ParseOpts(c.Args[1:], ""), text) {
		return nil
	}
	return last
}

// privateHostsLines: every line is "IP NAME…" whose names are private, so
// the entries add names; they redirect no public one.
func privateHostsLines(text string) bool {
	lines := 0
	for _, line := range strings.Split(strings.ReplaceAll(text, `\n`, "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 2 || net.ParseIP(f[0]) == nil {
			return false
		}
		for _, name := range f[1:] {
			name = strings.ToLower(name)
			if strings.Contains(name, ".") && !privateName(name) {
				return false
			}
		}
		lines++
	}
	return lines > 0
}

// filteredContainersFed: docker ps -q --filter name=test- | xargs docker rm -f
// is docker rm -f $(docker ps -q --filter name=test-): the containers a filter
// chose (by name, label or image), not every one (see filteredList).
func filteredContainersFed(stages []*syntax.Stmt) *syntax.CallExpr {
	if len(stages) < 2 {
		return nil
	}
	call, ok := stages[len(stages)-1].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || !strings.Contains(shell.ShallowLit(call.Args[0].Parts)+" "+shell.ShallowLit(call.Args[min(1, len(call.Args)-1)].Parts), "xargs") {
		return nil // most pipelines: no need to build the command
	}
	c, ok := shell.BuildCommand(call)
	// xargs, through sudo too: its arguments come from stdin
	if !ok || !c.MoreArgs || c.Name != "docker" && c.Name != "podman" {
		return nil
	}
	w := shell.ResolveWord(&syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Stmts: stages[:len(stages)-1]}}})
	if !filteredList(w) {
		return nil
	}
	return call
}
