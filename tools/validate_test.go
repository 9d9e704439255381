package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcp-terminal/mcp-terminal/session"
)

// TestArgumentErrors: every argument a tool cannot use is a tool error whose text
// names the argument, says what it must be and what to do; the whole list is in
// testdata/results/argument_errors.golden, so a change in wording is reviewed. The
// session survives all of it.
func TestArgumentErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{MaxInput: 4096})
	id := h.bash()
	cases := []struct {
		tool string
		args map[string]any
	}{
		// What the input schema says.
		{"send_command", map[string]any{"input": "ls"}},
		{"send_command", map[string]any{}},
		{"send_command", map[string]any{"session_id": id, "input": 42}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "timeout_ms": -5}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "timeout_ms": 1e12}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "timeout_ms": 0.5}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "max_output_chars": "many"}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "max_output_chars": strings.Repeat("9", 60)}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "append_newline": "yes"}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "timeout": 500}},
		{"send_command", map[string]any{"session_id": 12345, "input": "ls", "timeout_ms": 0}},
		{"read_output", map[string]any{"session_id": id, "full_screen": 1}},
		{"create_session", map[string]any{"command": "bash", "cols": -3, "rows": 1e12}},
		{"create_session", map[string]any{"command": "bash", "env": map[string]any{"A": 1}}},
		{"create_session", map[string]any{"command": "bash", "args": "not-a-list"}},
		{"create_session", map[string]any{"command": "bash", "args": []any{"-c", 7}}},
		{"list_sessions", map[string]any{"all": true}},
		{"send_control", map[string]any{"session_id": id, "control": "enter", "cols": 10}},
		{"confirm_dangerous_command", map[string]any{"session_id": id, "input": "rm -rf /", "justification": "because"}},
		{"confirm_dangerous_command", map[string]any{"session_id": id, "input": "rm -rf /", "justification": 42}},
		// What only the handlers can tell.
		{"send_command", map[string]any{"session_id": "deadbeef", "input": "ls"}},
		{"send_command", map[string]any{"session_id": id, "input": "ls", "wait_for": "("}},
		{"send_command", map[string]any{"session_id": id, "input": "a\x00b"}},
		{"send_command", map[string]any{"session_id": id, "input": strings.Repeat("a", 5000)}},
		{"read_output", map[string]any{"session_id": id, "wait_for": "[z-a]"}},
		{"create_session", map[string]any{"command": " "}},
		{"create_session", map[string]any{"command": "bash", "args": []any{"a\x00b"}}},
		{"create_session", map[string]any{"command": "bash", "env": map[string]any{"A=B": "c"}}},
		{"close_session", map[string]any{"session_id": id, "signal": "SIGNOPE"}},
		{"close_session", map[string]any{"session_id": "deadbeef"}},
		{"send_control", map[string]any{"session_id": id, "control": ""}},
		{"send_control", map[string]any{"session_id": id, "control": "ctrl+shift+meta"}},
		{"send_control", map[string]any{"session_id": id, "cols": 100}},
		{"confirm_dangerous_command", map[string]any{"session_id": id, "input": "rm -rf /", "justification": "          x"}},
	}
	var b strings.Builder
	for _, c := range cases {
		r := h.refused(c.tool, c.args)
		shown, err := json.Marshal(c.args)
		if err != nil {
			t.Fatal(err)
		}
		if len(shown) > 120 {
			shown = append(shown[:120], "…"...)
		}
		fmt.Fprintf(&b, "%s %s\n  %s\n\n", c.tool, shown, r.Text)
	}
	h.goldenText("argument_errors", b.String())
	if r := h.send(id, "echo still here", nil); r.str("output") != "still here\n$ " {
		t.Fatalf("the session did not survive: %q", r.Text)
	}
}

// TestNullIsNotGiven: clients that send null for every optional argument get the
// defaults, as if they had left the arguments out.
func TestNullIsNotGiven(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.bash()
	r := h.must("send_command", map[string]any{"session_id": id, "input": "echo hi", "timeout_ms": nil,
		"max_output_chars": nil, "append_newline": nil, "wait_for": nil})
	if !r.boolean("is_complete") || r.str("output") != "hi\n$ " {
		t.Fatalf("send_command with nulls: %s", r.Text)
	}
	if r := h.must("read_output", map[string]any{"session_id": id, "full_screen": nil, "wait_for": nil}); !strings.Contains(r.str("output"), "hi") {
		t.Fatalf("read_output with nulls: %s", r.Text)
	}
}

// TestSchemaStatesTheConfiguration: the defaults and limits in the input schemas are
// this server's, and the limits are enforced as published.
func TestSchemaStatesTheConfiguration(t *testing.T) {
	t.Parallel()
	cfg := Config{DefaultTimeout: 3 * time.Second, MaxTimeout: time.Minute, MaxOutput: 5000}
	h := newHarnessWith(t, cfg, session.Config{Scrollback: 500})
	list, err := h.c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]map[string]any{}
	for _, tool := range list.Tools {
		props[tool.Name] = tool.InputSchema.Properties
	}
	prop := func(tool, name string) map[string]any {
		p, _ := props[tool][name].(map[string]any)
		return p
	}
	for _, tool := range []string{"send_command", "read_output", "send_control", "confirm_dangerous_command"} {
		timeout := prop(tool, "timeout_ms")
		if d, _ := timeout["description"].(string); !strings.Contains(d, "(default 3000, at most 60000)") || timeout["maximum"] != 60000.0 {
			t.Errorf("%s timeout_ms: %v", tool, timeout)
		}
	}
	for _, tool := range []string{"send_command", "read_output"} {
		if d, _ := prop(tool, "max_output_chars")["description"].(string); !strings.Contains(d, "(default 5000)") {
			t.Errorf("%s max_output_chars: %q", tool, d)
		}
	}
	if d, _ := prop("read_output", "full_screen")["description"].(string); !strings.Contains(d, "up to 500 lines") {
		t.Errorf("full_screen: %q", d)
	}
	r := h.refused("send_command", map[string]any{"session_id": "deadbeef", "input": "x", "timeout_ms": 60001})
	if !strings.Contains(r.Text, "timeout_ms must be an integer from 1 to 60000, got 60001") {
		t.Errorf("timeout_ms beyond the configured maximum: %s", r.Text)
	}
}

func TestInputSchemaPanicsOnABrokenStruct(t *testing.T) {
	for name, bad := range map[string]func(*mcp.Tool){
		"unknown value": func(tool *mcp.Tool) {
			inputSchema[struct {
				N int `json:"n" jsonschema:"at most {no_such_value}"`
			}](tool, strings.NewReplacer())
		},
		"bad tag": func(tool *mcp.Tool) {
			inputSchema[struct {
				N int `json:"n" maximum:"many" jsonschema:"a number"`
			}](tool, strings.NewReplacer())
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tool := mcp.NewTool("broken")
			bad(&tool)
		})
	}
}

// TestArgumentsInProcess: a client in the same process (mcp-go's in-process client,
// as mcp-terminal doctor uses) hands the handler a Go map rather than JSON; it is
// checked and bound the same way, and arguments that are not an object are refused.
func TestArgumentsInProcess(t *testing.T) {
	t.Parallel()
	handlers := map[string]server.ToolHandlerFunc{}
	for _, st := range New(Config{}, newManager(t)).Tools() {
		handlers[st.Tool.Name] = st.Handler
	}
	call := func(args any) *mcp.CallToolResult {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "list_sessions", args
		res, err := handlers["list_sessions"](t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call(map[string]any{}); res.IsError {
		t.Fatalf("list_sessions with a map: %v", res.Content)
	}
	if res := call(nil); res.IsError {
		t.Fatalf("list_sessions without arguments: %v", res.Content)
	}
	res := call([]any{"session_id"})
	if text := res.Content[0].(mcp.TextContent).Text; !res.IsError || !strings.Contains(text, "must be a JSON object") {
		t.Fatalf("arguments as an array: %v", res.Content)
	}
}
