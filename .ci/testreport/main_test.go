package main

import (
	"strings"
	"testing"
)

// A go test -json stream: a pass, a skip with its reason, a skipped subtest, a
// failure with its logs, a build failure and a line that is not an event.
const stream = `{"Action":"start","Package":"github.com/mcp-terminal/mcp-terminal/pty"}
{"Action":"run","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestOK"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestOK","Output":"    a_test.go:9: chatter of a passing test\n"}
{"Action":"pass","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestOK"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestSSH","Output":"=== RUN   TestSSH\n"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestSSH","Output":"    a_test.go:12: sshd is not installed\n"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestSSH","Output":"--- SKIP: TestSSH (0.00s)\n"}
{"Action":"skip","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestSSH"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestSub/a","Output":"--- SKIP: TestSub/a (0.00s)\n"}
{"Action":"skip","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestSub/a"}
{"Action":"pass","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestSub"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestBad","Output":"    a_test.go:20: got \"x\", want \"y\"\n"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestBad","Output":"--- FAIL: TestBad (0.01s)\n"}
{"Action":"fail","Package":"github.com/mcp-terminal/mcp-terminal/pty","Test":"TestBad"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Output":"FAIL\n"}
{"Action":"output","Package":"github.com/mcp-terminal/mcp-terminal/pty","Output":"FAIL\tgithub.com/mcp-terminal/mcp-terminal/pty\t0.1s\n"}
{"Action":"fail","Package":"github.com/mcp-terminal/mcp-terminal/pty"}
{"ImportPath":"github.com/mcp-terminal/mcp-terminal/detect [detect.test]","Action":"build-output","Output":"detect/x.go:1:2: undefined: y\n"}
{"ImportPath":"github.com/mcp-terminal/mcp-terminal/detect [detect.test]","Action":"build-fail"}
go: something the go command said
`

func TestReport(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	failed, err := report(strings.NewReader(stream), &out)
	if err != nil || !failed {
		t.Fatalf("report = %v, %v; want failed", failed, err)
	}
	got := out.String()
	for _, want := range []string{
		"a_test.go:20: got \"x\", want \"y\"\n--- FAIL: TestBad",
		"FAIL\tgithub.com/mcp-terminal/mcp-terminal/pty\t0.1s\n",
		"detect/x.go:1:2: undefined: y\n",
		"go: something the go command said\n",
		"2 tests passed, 1 failed, 2 skipped\n",
		"  SKIP pty TestSSH: a_test.go:12: sshd is not installed\n",
		"  SKIP pty TestSub/a: (no reason given)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report does not show %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "chatter of a passing test") {
		t.Errorf("report shows a passing test's output:\n%s", got)
	}
}

func TestReportFailsOnlyOnFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stream string
		failed       bool
	}{
		{"pass and skip", `{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"skip","Package":"p","Test":"TestB"}
{"Action":"skip","Package":"q"}
{"Action":"pass","Package":"p"}
`, false},
		{"a failed test", `{"Action":"fail","Package":"p","Test":"TestA"}` + "\n", true},
		{"a failed package with no failed test (a crash)", `{"Action":"fail","Package":"p"}` + "\n", true},
		{"a failed build", `{"ImportPath":"p","Action":"build-fail"}` + "\n", true},
	}
	for _, tt := range tests {
		failed, err := report(strings.NewReader(tt.stream), &strings.Builder{})
		if err != nil || failed != tt.failed {
			t.Errorf("%s: report = %v, %v; want %v", tt.name, failed, err, tt.failed)
		}
	}
}
