package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/sandbox"
)

// doctor checks what mcp-terminal needs from the machine and then drives one real
// session through the real server, in-process, printing what it saw. Unlike the
// server, it is a command for a person, so it prints to stdout.
func doctor(argv []string, stdout, stderr io.Writer) int {
	cfg, err := loadConfig(argv, os.Getenv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-terminal doctor: %v\n", err)
		return 2
	}
	ok := true
	check := func(name string, err error, detail string) {
		mark := "ok  "
		if err != nil {
			mark, detail, ok = "FAIL", err.Error(), false
		}
		fmt.Fprintf(stdout, "%s %-22s %s\n", mark, name, detail)
	}
	fmt.Fprintf(stdout, "mcp-terminal %s doctor\n", version)
	// As the server does before its first session (see serve).
	check("inherited descriptors", pty.SealInherited(), "marked close-on-exec")
	check("pseudo-terminals", ptyAvailable(), "a program started on a PTY")
	shell := ""
	for _, sh := range []string{"bash", "zsh", "fish", "dash", "sh"} {
		if p, err := exec.LookPath(sh); err == nil {
			fmt.Fprintf(stdout, "ok   %-22s %s\n", "shell "+sh, p)
			if shell == "" {
				shell = sh
			}
		} else {
			fmt.Fprintf(stdout, "--   %-22s not found\n", "shell "+sh)
		}
	}
	if shell == "" {
		check("a shell", fmt.Errorf("no shell found on PATH"), "")
		return 1
	}
	j, err := newJail(cfg)
	if err != nil {
		check("sandbox", err, "")
		return 1
	}
	defer j.close()
	j.report(stdout)
	reportIsolation(stdout, cfg, sandbox.KernelABI(), seclusion())
	if err := doctorSession(cfg, j, shell, stdout); err != nil {
		check("session through server", err, "")
	}
	if !ok {
		return 1
	}
	fmt.Fprintln(stdout, "all checks passed")
	return 0
}

func ptyAvailable() error {
	p, err := pty.Start(pty.Options{Command: "true"})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return p.Close(ctx)
}

// doctorSession runs create_session, send_command and close_session through the MCP
// server with mcp-go's in-process client.
func doctorSession(cfg config, j *jail, shell string, stdout io.Writer) error {
	a, err := newApp(cfg, j, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	defer a.sessions.Shutdown(ctx)
	c, err := client.NewInProcessClient(a.mcp)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return err
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "mcp-terminal-doctor", Version: version}
	if _, err := c.Initialize(ctx, init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	call := func(name string, args map[string]any) (*mcp.CallToolResult, error) {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = name, args
		start := time.Now()
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		text := resultText(res)
		fmt.Fprintf(stdout, "\n> %s %s  (%s)\n%s\n", name, jsonText(args), time.Since(start).Round(time.Microsecond), indent(text))
		if res.IsError {
			return nil, fmt.Errorf("%s failed: %s", name, text)
		}
		return res, nil
	}
	create := map[string]any{"command": shell}
	if len(cfg.AllowedPaths) > 0 {
		create["cwd"] = cfg.AllowedPaths[0] // sessions work inside the allowed paths
	}
	res, err := call("create_session", create)
	if err != nil {
		return err
	}
	id, _ := res.StructuredContent.(map[string]any)["session_id"].(string)
	if res, err = call("send_command", map[string]any{"session_id": id, "input": "echo hello from $0"}); err != nil {
		return err
	}
	if !strings.Contains(resultText(res), "hello from") {
		return fmt.Errorf("send_command did not show the echo's output")
	}
	_, err = call("close_session", map[string]any{"session_id": id})
	return err
}

// jsonText shows a tool call's arguments as JSON, the way they travel and a person
// would write them in a client, with <, > and & left as they are.
func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("(not JSON: %v)", err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
