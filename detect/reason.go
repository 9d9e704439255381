package detect

// Reason names the evidence behind a completion verdict. The values are part of the
// tool results' contract: the README lists them, with what each one proves, under
// "Tools".
type Reason string

const (
	Exit      Reason = "exit"       // the program exited and its output was drained
	ShellMark Reason = "shell_mark" // shell integration marked the command's end
	Pattern   Reason = "pattern"    // the caller's wait_for pattern matched new output
	InputWait Reason = "input_wait" // the foreground process is blocked reading the terminal
	Prompt    Reason = "prompt"     // a known prompt sits at the cursor
	Settled   Reason = "settled"    // output went quiet, where nothing better exists
	Timeout   Reason = "timeout"    // the caller's deadline passed first
)
