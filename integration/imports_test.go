package integration

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// allowedImports is the README's architecture table: which project packages each
// package may import. A package missing from the table fails the test too, so a new package
// has to be placed in the architecture on purpose.
var allowedImports = map[string][]string{
	"cmd/mcp-terminal":          {"tools", "session", "security/danger", "security/policy", "security/redact", "pty", "sandbox", "auth", "record", "web"},
	"record":                    {},
	"sandbox":                   {"sandbox/internal/launcher"},
	"sandbox/internal/launcher": {},
	"auth":                      {},
	"pty":                       {},
	"screen":                    {},
	"detect":                    {"screen"},
	"security/danger":           {"security/internal/shell"},
	"security/policy":           {"security/internal/shell", "security/danger"},
	"security/redact":           {},
	"security/internal/shell":   {},
	"session":                   {"pty", "screen", "detect"},
	"tools":                     {"session", "security/danger", "security/policy", "security/redact", "screen"},
	"web":                       {"session", "screen"},
	"integration":               {},
}

const module = "github.com/mcp-terminal/mcp-terminal"

func TestImportBoundaries(t *testing.T) {
	t.Parallel()
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
			t.Errorf("package %q is not in the architecture table (README.md); add it on purpose", name)
			continue
		}
		for _, imp := range append(append(p.Imports, p.TestImports...), p.XTestImports...) {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			if !contains(allowed, dep) {
				t.Errorf("%s imports %s; the architecture table (README.md) allows only %v", name, dep, allowed)
			}
		}
	}
	if seen < len(allowedImports) {
		t.Errorf("go list saw %d packages, the table has %d", seen, len(allowedImports))
	}
}

// TestReadmeArchitectureTable: the README's table and allowedImports say the same.
func TestReadmeArchitectureTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "\n## Architecture\n")
	section, _, _ = strings.Cut(section, "\n## ")
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 || !strings.HasPrefix(cells[0], "`") {
			continue
		}
		rows++
		name := strings.Trim(cells[0], "`")
		var readme []string
		for _, dep := range strings.Split(cells[2], ", ") {
			if dep, _, _ = strings.Cut(dep, " ("); dep != "—" {
				readme = append(readme, dep)
			}
		}
		allowed, known := allowedImports[name]
		slices.Sort(readme)
		allowed = slices.Sorted(slices.Values(allowed))
		if !known || !slices.Equal(readme, allowed) {
			t.Errorf("README: %s may import %v; allowedImports says %v (known: %v)", name, readme, allowed, known)
		}
	}
	if rows != len(allowedImports) {
		t.Errorf("the README's architecture table has %d packages, allowedImports %d", rows, len(allowedImports))
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
