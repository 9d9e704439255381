package danger

import (
	"regexp"
	"strings"
)

// A Vim session typed one command a line (:e ~/.bashrc, then :%d, then :wq)
// does what the same commands joined by | on one line do: the file the
// :edit opened is emptied and written. Normal-mode keys that delete the whole
// buffer (ggdG) and write it (ZZ) count as their Ex forms.

var (
	// vimNormalEmpty: gg then dG, or the whole buffer selected (ggVG) and
	// deleted, into a register or the black hole ("_).
	vimNormalEmpty = regexp.MustCompile(`^gg(?:"[a-z_])?dG$|^ggVG(?:"[a-z_])?[dx]$`)
	vimNormalWrite = regexp.MustCompile(`^ZZ$`)
)

// vimSession judges a multi-line Vim input as one |-joined command line.
func vimSession(input string, depth int) Verdict {
	if !strings.Contains(strings.TrimSpace(input), "\n") {
		return Verdict{}
	}
	var parts []string
	for line := range strings.Lines(input) {
		t := strings.TrimSpace(line)
		switch {
		case vimNormalEmpty.MatchString(t):
			parts = append(parts, "%d")
		case vimNormalWrite.MatchString(t):
			parts = append(parts, "x")
		case strings.HasPrefix(t, ":"):
			parts = append(parts, strings.TrimLeft(t, ":"))
		}
	}
	if len(parts) < 2 {
		return Verdict{}
	}
	return vimLine(":"+strings.Join(parts, " | "), depth)
}
