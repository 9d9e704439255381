package pty

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWroteCountsWrites(t *testing.T) {
	before, ok := wrote(nil, os.Getpid())
	if !ok {
		t.Skip("/proc/self/io is not readable here")
	}
	if err := os.WriteFile(filepath.Join(t.TempDir(), "f"), make([]byte, 4096), 0o600); err != nil {
		t.Fatal(err)
	}
	after, _ := wrote(nil, os.Getpid())
	if after < before+4096 {
		t.Fatalf("wchar went from %d to %d after writing 4096 bytes", before, after)
	}
	if _, ok := wrote(nil, 1<<30); ok {
		t.Error("a pid that does not exist has no count")
	}
}
