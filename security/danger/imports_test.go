package danger

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsOnlyAllowed enforces the architecture table: danger imports no
// other package of this module but security/internal/shell.
func TestImportsOnlyAllowed(t *testing.T) {
	t.Parallel()
	allowed := map[string]bool{
		"github.com/mcp-terminal/mcp-terminal/security/internal/shell": true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		ast, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/mcp-terminal/mcp-terminal") && !allowed[path] {
				t.Errorf("%s imports project package %s", f, path)
			}
		}
	}
}
