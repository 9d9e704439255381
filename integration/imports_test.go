package integration

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// allowedImports is SPEC.md's architecture table: which project packages each package
// may import. A package missing from the table fails the test too, so a new package
// has to be placed in the architecture on purpose.
var allowedImports = map[string][]string{
	"cmd/mcp-terminal": {"tools", "session", "security", "pty"},
	"pty":              {},
	"screen":           {},
	"detect":           {"screen"},
	"security":         {},
	"session":          {"pty", "screen", "detect"},
	"tools":            {"session", "security", "screen", "pty"},
	"integration":      {},
}

const module = "github.com/mcp-terminal/mcp-terminal"

func TestImportBoundaries(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		seen++
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		allowed, known := allowedImports[name]
		if !known {
			t.Errorf("package %q is not in the architecture table (SPEC.md); add it on purpose", name)
			continue
		}
		for _, imp := range append(append(p.Imports, p.TestImports...), p.XTestImports...) {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			if !contains(allowed, dep) {
				t.Errorf("%s imports %s; SPEC.md allows only %v", name, dep, allowed)
			}
		}
	}
	if seen < len(allowedImports) {
		t.Errorf("go list saw %d packages, the table has %d", seen, len(allowedImports))
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
