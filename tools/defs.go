package tools

import "github.com/mark3labs/mcp-go/mcp"

// hints sets all four annotation hints explicitly: mcp-go's defaults (destructive,
// open world) would be wrong for half of these tools.
func hints(title string, readOnly, destructive, idempotent, openWorld bool) []mcp.ToolOption {
	return []mcp.ToolOption{
		mcp.WithTitleAnnotation(title),
		mcp.WithReadOnlyHintAnnotation(readOnly),
		mcp.WithDestructiveHintAnnotation(destructive),
		mcp.WithIdempotentHintAnnotation(idempotent),
		mcp.WithOpenWorldHintAnnotation(openWorld),
	}
}

func tool(name, description string, annotations []mcp.ToolOption, opts ...mcp.ToolOption) mcp.Tool {
	all := append([]mcp.ToolOption{mcp.WithDescription(description)}, annotations...)
	return mcp.NewTool(name, append(all, opts...)...)
}

func sessionIDParam() mcp.ToolOption {
	return mcp.WithString("session_id", mcp.Required(),
		mcp.Description("The session's id, as returned by create_session (8 hex characters)."))
}

func timeoutParam(what string) mcp.ToolOption {
	return mcp.WithNumber("timeout_ms", mcp.Min(1), mcp.Max(600000),
		mcp.Description("Longest wait in milliseconds "+what+" (default 10000, at most 600000). "+
			"The call returns as soon as the program is ready; on timeout it returns what arrived so far with is_complete false."))
}

func maxOutputParam() mcp.ToolOption {
	return mcp.WithNumber("max_output_chars", mcp.Min(200), mcp.Max(1000000),
		mcp.Description("Longest output returned (default 20000). Longer output keeps its beginning and end with a marker in between."))
}

func waitForParam(what string) mcp.ToolOption {
	return mcp.WithString("wait_for",
		mcp.Description("Regular expression (Go RE2) to wait for in output produced "+what+"; returns as soon as it matches (reason \"pattern\")."))
}

func createSessionTool() mcp.Tool {
	return tool("create_session",
		"Start an interactive program (bash, python3, node, psql, ssh, gdb, vim, ...) on a real terminal and return its session_id and startup screen. "+
			"Returns as soon as the program shows it is ready (a prompt), at most a few seconds. Use send_command to type into it and close_session when done.",
		hints("Create terminal session", false, false, false, true),
		mcp.WithString("command", mcp.Required(), mcp.Description("Program to run, looked up on PATH (e.g. \"bash\", \"python3\") or a path.")),
		mcp.WithArray("args", mcp.WithStringItems(), mcp.Description("Arguments for the program.")),
		mcp.WithString("name", mcp.Description("A name to recognise the session by in list_sessions.")),
		mcp.WithString("cwd", mcp.Description("Working directory (default: the server's).")),
		mcp.WithObject("env", mcp.AdditionalProperties(map[string]any{"type": "string"}),
			mcp.Description("Environment variables to set or override (TERM=xterm-256color, PAGER=cat and similar are preset).")),
		mcp.WithNumber("cols", mcp.Min(20), mcp.Max(1000), mcp.DefaultNumber(120), mcp.Description("Terminal width in columns (default 120).")),
		mcp.WithNumber("rows", mcp.Min(5), mcp.Max(500), mcp.DefaultNumber(40), mcp.Description("Terminal height in rows (default 40).")),
		mcp.WithOutputSchema[CreateResult](),
	)
}

func sendCommandTool() mcp.Tool {
	return tool("send_command",
		"Type input into a session and press Enter, then return the new output it caused (the echo removed, up to and including the line the cursor is on, usually the next prompt). "+
			"Several lines are typed one after another, each when the previous finished. is_complete tells whether the program is ready again and reason says how that is known. "+
			"Dangerous input (rm -rf /, DROP TABLE, curl | sh, ...) is refused with the rule it matched; confirm_dangerous_command runs it with a justification.",
		hints("Send command", false, true, false, true),
		sessionIDParam(),
		mcp.WithString("input", mcp.Required(), mcp.Description("Text to type. Newlines separate lines, each followed by Enter.")),
		timeoutParam("for the program to be ready again"),
		maxOutputParam(),
		mcp.WithBoolean("append_newline", mcp.DefaultBool(true), mcp.Description("Press Enter after the input (default true). false types the text only, as keystrokes (vim commands like ixyz or dd, less keys): the reply comes once the program has taken them all and waits for more.")),
		waitForParam("by this input"),
		mcp.WithOutputSchema[CommandResult](),
	)
}

func readOutputTool() mcp.Tool {
	return tool("read_output",
		"Read a session's visible screen without typing anything (full_screen adds the scrollback). With wait_for and timeout_ms it waits until the output not yet returned by any reply (including what arrived between calls) matches, and returns that output instead of the screen: the read-only way to wait for a long job after a timeout.",
		hints("Read terminal output", true, false, true, false),
		sessionIDParam(),
		mcp.WithBoolean("full_screen", mcp.DefaultBool(false), mcp.Description("Include the scrollback (up to 10000 lines) before the visible screen.")),
		waitForParam("that no reply has returned yet"),
		timeoutParam("for wait_for"),
		maxOutputParam(),
		mcp.WithOutputSchema[ReadResult](),
	)
}

func listSessionsTool() mcp.Tool {
	return tool("list_sessions",
		"List the sessions: id, name, command, pid, working directory, the program now in front, whether it is alive and its exit code.",
		hints("List terminal sessions", true, false, true, false),
		mcp.WithOutputSchema[ListResult](),
	)
}

func closeSessionTool() mcp.Tool {
	return tool("close_session",
		"End a session: every process it started is stopped (hang-up, then terminate, then kill) and reaped.",
		hints("Close terminal session", false, true, false, false),
		sessionIDParam(),
		mcp.WithString("signal", mcp.Description("Signal to send first, e.g. SIGINT or SIGTERM (default: SIGHUP and SIGTERM, then SIGKILL).")),
		mcp.WithOutputSchema[CloseResult](),
	)
}

func sendControlTool() mcp.Tool {
	return tool("send_control",
		"Press keys in a session: ctrl+c, ctrl+d, ctrl+z, enter, tab, shift+tab, escape, backspace, delete, insert, up, down, left, right, home, end, pageup, pagedown, f1-f12, "+
			"or any single character (q, y, :). Several keys separated by spaces: \"down down enter\", \"escape : w q enter\". Returns the output they caused, like send_command. "+
			"cols and rows resize the terminal first (with or without keys).",
		hints("Send control keys", false, true, false, true),
		sessionIDParam(),
		mcp.WithString("control", mcp.Description("Key name or single character, or several separated by spaces. May be empty when cols and rows resize the terminal.")),
		timeoutParam("for the program to be ready again"),
		mcp.WithNumber("cols", mcp.Min(20), mcp.Max(1000), mcp.Description("New terminal width in columns (give rows too).")),
		mcp.WithNumber("rows", mcp.Min(5), mcp.Max(500), mcp.Description("New terminal height in rows (give cols too).")),
		mcp.WithOutputSchema[CommandResult](),
	)
}

func confirmDangerousTool() mcp.Tool {
	return tool("confirm_dangerous_command",
		"Run input that send_command refused as dangerous, after you have judged it necessary. The justification is recorded in the audit log. Every other check (allow and block lists, allowed paths, size limits) still applies.",
		hints("Confirm dangerous command", false, true, false, true),
		sessionIDParam(),
		mcp.WithString("input", mcp.Required(), mcp.Description("The exact input that was refused.")),
		mcp.WithString("justification", mcp.Required(), mcp.MinLength(10), mcp.Description("Why this is necessary and safe here (at least 10 characters).")),
		timeoutParam("for the program to be ready again"),
		mcp.WithOutputSchema[CommandResult](),
	)
}
