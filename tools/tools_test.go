package tools

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the schema snapshots and golden results in testdata")

// TestToolSnapshots fails when a tool's schema drifts from its snapshot, so a change
// to what clients see is always deliberate (go test ./tools -update to accept it).
func TestToolSnapshots(t *testing.T) {
	s := New(Config{}, newManager(t))
	names := map[string]bool{}
	for _, st := range s.Tools() {
		names[st.Tool.Name] = true
		got, err := json.MarshalIndent(st.Tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "snapshots", st.Tool.Name+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: no snapshot (run go test ./tools -update): %v", st.Tool.Name, err)
		}
		if diff := cmp.Diff(string(want), string(got)+"\n"); diff != "" {
			t.Errorf("%s schema changed (-snapshot +now); run go test ./tools -update if intended:\n%s", st.Tool.Name, diff)
		}
	}
	for _, want := range []string{"create_session", "send_command", "read_output", "list_sessions", "close_session", "send_control", "confirm_dangerous_command"} {
		if !names[want] {
			t.Errorf("tool %s missing", want)
		}
	}
}

func TestAnnotationsAreExplicit(t *testing.T) {
	for _, st := range New(Config{}, newManager(t)).Tools() {
		a := st.Tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: every annotation hint must be set explicitly: %+v", st.Tool.Name, a)
		}
		if st.Tool.OutputSchema.Type != "object" {
			t.Errorf("%s: no output schema", st.Tool.Name)
		}
	}
}
