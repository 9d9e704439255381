package screen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCountersIsStatusWithoutLine: after every piece of output, plain, styled,
// wrapped, cleared, full-screen and marked, and while the fast path keeps output
// back, Counters answers what Status does but the cursor's line, and leaves that
// output where it is, as Status does.
func TestCountersIsStatusWithoutLine(t *testing.T) {
	var feed []string
	for i := range 200 {
		feed = append(feed, fmt.Sprintf("\x1b[3%dmline %d\x1b[0m %s\r\n", i%8, i, strings.Repeat("x", i%150)))
	}
	feed = append(feed,
		"\x1b]133;D;0\x07\x1b]133;A\x07$ \x1b]133;B\x07", "echo hi\r\n\x1b]133;C\x07hi\r\n",
		"\x1b[2J\x1b[H", "\x1b[?1049h\x1b[5;5Hfull screen", "\x1b[?1049l", "\x1b[?1h", "partial",
		strings.Repeat("flowing text ", 2000), "\r\n$ ")
	scr := New(Options{Cols: 80, Rows: 24})
	kept := 0
	for _, p := range feed {
		scr.Write([]byte(p))
		due := scr.setup.due
		if due {
			kept++
		}
		got := scr.Counters()
		if due && !scr.setup.due {
			t.Fatalf("Counters handed vt10x the output kept back")
		}
		want := scr.Status()
		want.Line, want.WrappedIn = "", ""
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("after %q: Counters differs from Status (-Status +Counters):\n%s", p, diff)
		}
	}
	t.Logf("%d of %d checks made while output was kept back", kept, len(feed))
}
