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

// tool builds a tool's name, description, annotations and output schema; typed adds
// the input schema from the handler's argument struct (args.go).
func tool(name, description string, annotations []mcp.ToolOption, opts ...mcp.ToolOption) mcp.Tool {
	all := append([]mcp.ToolOption{mcp.WithDescription(description)}, annotations...)
	return mcp.NewTool(name, append(all, opts...)...)
}

func createSessionTool() mcp.Tool {
	return tool("create_session",
		"Start an interactive program (bash, python3, node, psql, ssh, gdb, vim, ...) on a real terminal and return its session_id and startup screen. "+
			"Returns as soon as the program shows it is ready (a prompt), at most a few seconds. Use send_command to type into it and close_session when done.",
		hints("Create terminal session", false, false, false, true),
		mcp.WithOutputSchema[CreateResult](),
	)
}

func sendCommandTool() mcp.Tool {
	return tool("send_command",
		"Type input into a session and press Enter, then return the new output it caused (the echo removed, up to and including the line the cursor is on, usually the next prompt). "+
			"Several lines are typed one after another, each when the previous finished. is_complete tells whether the program is ready again and reason says how that is known. "+
			"Dangerous input (rm -rf /, DROP TABLE, curl | sh, ...) is refused with the rule it matched; confirm_dangerous_command runs it with a justification.",
		hints("Send command", false, true, false, true),
		mcp.WithOutputSchema[CommandResult](),
	)
}

func readOutputTool() mcp.Tool {
	return tool("read_output",
		"Read a session's visible screen without typing anything (full_screen adds the scrollback). With wait_for and timeout_ms it waits until the output not yet returned by any reply (including what arrived between calls) matches, and returns that output instead of the screen: the read-only way to wait for a long job after a timeout.",
		hints("Read terminal output", true, false, true, false),
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
		mcp.WithOutputSchema[CloseResult](),
	)
}

func sendControlTool() mcp.Tool {
	return tool("send_control",
		"Press keys in a session: ctrl+c, ctrl+d, ctrl+z, enter, tab, shift+tab, escape, backspace, delete, insert, up, down, left, right, home, end, pageup, pagedown, f1-f12, "+
			"alt+ any key (alt+x, alt+enter), ctrl+ shift+ alt+ with those (ctrl+left, shift+up), or any single character (q, y, :). Several keys separated by spaces: \"down down enter\", \"escape : w q enter\". Returns the output they caused, like send_command. "+
			"cols and rows resize the terminal first (with or without keys).",
		hints("Send control keys", false, true, false, true),
		mcp.WithOutputSchema[CommandResult](),
	)
}

func confirmDangerousTool() mcp.Tool {
	return tool("confirm_dangerous_command",
		"Run input that send_command refused as dangerous, after you have judged it necessary. The justification is recorded in the audit log. Every other check (allow and block lists, allowed paths, size limits) still applies.",
		hints("Confirm dangerous command", false, true, false, true),
		mcp.WithOutputSchema[CommandResult](),
	)
}
