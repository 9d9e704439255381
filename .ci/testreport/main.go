// Command testreport reads `go test -json` on stdin and prints what plain
// `go test` would (each package's result, the whole output of every failed test,
// build errors), then every skipped test with its reason, so that a test skipped
// for want of a program (sshd, gdb, tmux...) is seen rather than passed over.
//
// It exits 1 when a test, a package or a build failed. `make test` runs it as
//
//	go test -json ./... | go run ./.ci/testreport
//
// under pipefail, so a `go test` that fails without saying so in JSON fails too.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

func main() {
	failed, err := report(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}

// event is one line of `go test -json` (cmd/test2json), build events included.
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output, build-fail
	Test       string
	Output     string
}

type skip struct{ pkg, test, reason string }

// report copies in's results to out and says whether anything failed.
func report(in io.Reader, out io.Writer) (failed bool, err error) {
	held := map[[2]string][]string{} // a running test's output, until it ends
	var skips []skip
	passed, fails := 0, 0
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(out, "%s\n", line) // not an event: pass it on as it is
			continue
		}
		key := [2]string{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "build-fail":
			failed = true
		case e.Test == "" && e.Action == "output":
			if e.Output != "PASS\n" { // the package's result line says so
				fmt.Fprint(out, e.Output)
			}
		case e.Test == "":
			failed = failed || e.Action == "fail"
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Action == "fail":
			failed = true
			fails++
			fmt.Fprint(out, strings.Join(held[key], ""))
			delete(held, key)
		case e.Action == "skip":
			skips = append(skips, skip{e.Package, e.Test, reason(held[key])})
			delete(held, key)
		case e.Action == "pass":
			passed++
			delete(held, key)
		}
	}
	if err := sc.Err(); err != nil {
		return true, err
	}
	// Whatever never ended (a binary that crashed or timed out) is shown too.
	keys := slices.SortedFunc(maps.Keys(held), func(a, b [2]string) int {
		return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1])
	})
	for _, key := range keys {
		fmt.Fprint(out, strings.Join(held[key], ""))
	}
	fmt.Fprintf(out, "\n%d tests passed, %d failed, %d skipped\n", passed, fails, len(skips))
	for _, s := range skips {
		fmt.Fprintf(out, "  SKIP %s %s: %s\n", strings.TrimPrefix(s.pkg, module+"/"), s.test, s.reason)
	}
	return failed, nil
}

const module = "github.com/mcp-terminal/mcp-terminal"

// reason is what a skipped test said, without the lines go test adds around it.
func reason(lines []string) string {
	var said []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		said = append(said, l)
	}
	if len(said) == 0 {
		return "(no reason given)"
	}
	return strings.Join(said, " / ")
}
