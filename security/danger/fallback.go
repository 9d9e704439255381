package danger

import "regexp"

// fallbackRules judge shell input the parser rejects (an unfinished line, a
// stray parenthesis) or nests too deeply. They look at the flat text, so they
// are deliberately broad: unparsable input is never waved through unchecked.
var fallbackRules = []struct {
	rule string
	re   *regexp.Regexp
}{
	{"rm-recursive-force", regexp.MustCompile(`\brm\s+(?:-\S+\s+)*(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s+-\S+)*\s+(?:--\s+)?['"]?(?:/|/\*|~/?|~/\*|\$\{?HOME\}?/?|\.\./?|\*)['"]?(?:\s|$|[;&|)])`)},
	{"rm-recursive-force", regexp.MustCompile(`--no-preserve-root`)},
	{"fork-bomb", regexp.MustCompile(`(\S+)\s*\(\)\s*\{[^}]*\|[^}]*&[^}]*\}`)},
	{"mkfs", regexp.MustCompile(`\bmkfs(?:\.\w+)?\s+(?:-\S+\s+(?:\S+\s+)?)*/dev/`)},
	{"dd-device", regexp.MustCompile(`\bdd\b[^\n;|]*\bof=/dev/(?:[shv]d[a-z]|xvd|nvme|mmcblk|disk|md|dm-|mapper|loop)`)},
	{"write-block-device", regexp.MustCompile(`>\s*/dev/(?:[shv]d[a-z]|xvd[a-z]|nvme|mmcblk|r?disk)`)},
	{"write-system-file", regexp.MustCompile(`(?:>|\btee\s+(?:-a\s+)?)\s*/etc/`)},
	{"pipe-to-shell", regexp.MustCompile(`\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|da|k)?sh\b`)},
	{"pipe-to-shell", regexp.MustCompile(`\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b`)},
	{"chmod-recursive-777", regexp.MustCompile(`\bchmod\s+(?:-\S+\s+)*-[a-zA-Z]*R[a-zA-Z]*\s+(?:-\S+\s+)*0?777\b`)},
	{"find-delete", regexp.MustCompile(`\bfind\s+(?:/|~)\s.*-delete\b`)},
	{"shutdown", regexp.MustCompile(`(?:^|[;&|]\s*)(?:sudo\s+)?(?:shutdown|reboot|halt|poweroff)(?:\s|$|;)`)},
	{"git-force-push-main", regexp.MustCompile(`\bgit\s+push\b.*\s(?:-f|--force)(?:\s.*)?\s\+?(?:main|master)\b`)},
	{"kill-all", regexp.MustCompile(`\bkill\s+(?:-\S+\s+)?-1(?:\s|$|;)`)},
}

func fallbackShell(input string) Verdict {
	for _, f := range fallbackRules {
		if f.re.MatchString(input) {
			return hit(f.rule)
		}
	}
	return Verdict{}
}
