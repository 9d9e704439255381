package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// scratchNames are directories a build, a test run or a tool recreates, so
// deleting them from code (shutil.rmtree, fs.rmSync, FileUtils.rm_rf) loses
// nothing. Any name starting with tmp, temp or scratch counts too.
var scratchNames = shell.Set("build", "dist", "out", "target", "node_modules", "__pycache__", ".pytest_cache",
	".mypy_cache", ".ruff_cache", ".cache", ".tox", ".nox", ".venv", "venv", "env", "htmlcov", ".coverage",
	"coverage", ".next", ".nuxt", ".parcel-cache", ".turbo", ".gradle", "_build", "site", ".eggs", "cache", "logs",
	"output", "outputs", "generated", "artifacts", "__generated__", ".svelte-kit", ".angular", ".terraform")

// protectedTree reports whether deleting the tree at p from code loses work
// or data: anything but scratch space (temporary directories and the
// directories a build recreates). Code that deletes recursively names its
// target deliberately, so an unknown or unremarkable path counts as work.
func protectedTree(p string) bool {
	if isImportant(p) || isSystemFile(p) {
		return true
	}
	if p == "" || strings.HasPrefix(p, shell.DynMark) {
		return strings.TrimLeft(p, shell.DynMark) == ""
	}
	c := path.Clean(p)
	if strings.HasPrefix(c, "/tmp/") || strings.HasPrefix(c, "/var/tmp/") || strings.HasPrefix(c, "/private/tmp/") {
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
		strings.HasPrefix(strings.TrimLeft(low, "._-"), "scratch")
}
