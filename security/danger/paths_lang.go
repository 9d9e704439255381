package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Code that deletes from a program (shutil.rmtree, fs.rmSync, FileUtils.rm_rf)
// shares the shell's scratchNames (fsclass.go); any name starting with tmp, temp
// or scratch counts too.

// protectedTree reports whether deleting the tree at p from code loses work
// or data: anything but scratch space (temporary directories and the
// directories a build recreates). Code that deletes recursively names its
// target deliberately, so an unknown or unremarkable path counts as work.
func protectedTree(p string) bool {
	if isImportant(p) || isSystemFile(p) {
		return true
	}
	if p == "" || strings.HasPrefix(p, shell.DynMark) {
		// dir + '/' with dir empty (process.env.OUT || '') is the root, as "$OUT/" is in the shell
		rest := strings.TrimLeft(p, shell.DynMark)
		return rest == "" || rest == "/" || rest == "/*"
	}
	c := path.Clean(p)
	if strings.HasPrefix(c, "/tmp/") || strings.HasPrefix(c, "/var/tmp/") || strings.HasPrefix(c, "/private/tmp/") {
		return false
	}
	if compiledAssets(components(c)) {
		return false
	}
	for _, comp := range components(c) {
		if comp == ".git" {
			return true
		}
		if isScratchName(comp) {
			return false
		}
	}
	return true
}

func isScratchName(comp string) bool {
	low := strings.ToLower(comp)
	return scratchNames[low] || strings.HasSuffix(low, ".egg-info") ||
		strings.HasPrefix(strings.TrimLeft(low, "._-"), "tmp") || strings.HasPrefix(strings.TrimLeft(low, "._-"), "temp") ||
		strings.HasPrefix(strings.TrimLeft(low, "._-"), "scratch") || strings.HasPrefix(strings.TrimLeft(low, "._-"), "venv") ||
		strings.HasPrefix(low, "coverage") || strings.HasPrefix(low, "htmlcov")
}
