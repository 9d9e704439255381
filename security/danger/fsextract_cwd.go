package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Extraction into the working directory an earlier cd chose: cd ~ && tar
// -xf old.tar is tar -xf old.tar -C ~, cd ~/code/app && cpio -idu < x is
// cpio -idu -D ~/code/app. The archivers are judged with the directory
// written as their own option, so every extraction rule applies.

// cwdExtractors are the archivers whose target directory an earlier cd sets,
// with the option that names it.
var cwdExtractors = map[string]string{"tar": "-C", "bsdtar": "-C", "unzip": "-d", "cpio": "-D"}

// extractIn returns c with its target directory set to dir, unless c names
// one itself.
func extractIn(c shell.Command, dir string) shell.Command {
	opt := cwdExtractors[c.Name]
	for i, w := range c.Args[1:] {
		s := w.S
		oldStyle := i == 0 && c.Name != "unzip" && c.Name != "cpio" && !strings.HasPrefix(s, "-") && strings.ContainsRune(s, 'C')
		if strings.HasPrefix(s, opt) || strings.HasPrefix(s, "--directory") || oldStyle {
			return c // -C DIR, --directory=DIR or tar xzCf DIR given
		}
	}
	c.Args = append(append([]shell.Word{}, c.Args...), shell.Word{S: opt}, shell.Word{S: dir})
	return c
}

// checkCpio: cpio -i (extract) with -u (--unconditional) replaces every file
// the archive holds, newer ones included; into the root, a system directory
// or a home that is the system's or the person's files, into a project or a
// data tree the work there. Without -u cpio keeps a file newer than the
// archive's; -t only lists.
func checkCpio(c shell.Command, _ int) Verdict {
	extract, unconditional, dir := false, false, ""
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i].S
		switch {
		case a == "--extract":
			extract = true
		case a == "--unconditional":
			unconditional = true
		case a == "-D" && i+1 < len(args):
			i++
			dir = fsPath(args[i])
		case strings.HasPrefix(a, "--directory="):
			dir = a[len("--directory="):]
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
			extract = extract || strings.ContainsRune(a, 'i')
			unconditional = unconditional || strings.ContainsRune(a, 'u')
		}
	}
	if !extract || !unconditional || dir == "" {
		return Verdict{}
	}
	if v := extractVerdict(dir); v.Dangerous {
		return v
	}
	return hitIf(treeProtected[classifyPath(fsPath(shell.Word{S: dir}))], "overwrite-protected")
}
