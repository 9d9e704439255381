package session

import (
	"testing"

	"github.com/mcp-terminal/mcp-terminal/pty"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// A session hands the same Cols and Rows to pty.Start and screen.New, and each fills in a
// zero dimension with its own default: the defaults must be the same, or the program and
// the screen would disagree on the terminal's size.
func TestScreenAndPtyDefaultSizesAgree(t *testing.T) {
	if screen.DefaultCols != pty.DefaultCols || screen.DefaultRows != pty.DefaultRows {
		t.Errorf("screen defaults to %dx%d, pty to %dx%d", screen.DefaultCols, screen.DefaultRows, pty.DefaultCols, pty.DefaultRows)
	}
}
