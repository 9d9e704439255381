package security

import "strings"

// Strings handed to another interpreter (bash -c, eval, su -c), which the
// classifier and the policy both analyse again.

// maxDepth bounds how deeply strings handed to another interpreter
// (bash -c, eval, os.system, psql \!) are analysed again. Deeper nesting is
// only checked by the text fallback.
const maxDepth = 4

// dashC returns the word after the first short option cluster holding letter
// (bash -c, bash -lc, python3 -c, su -c) or after --long / --long=value.
func dashC(args []word, letter byte, long string) (word, bool) {
	for i, w := range args {
		a := w.s
		if v, ok := strings.CutPrefix(a, "--"+long+"="); ok && long != "" {
			return word{s: v, node: w.node}, true
		}
		isOpt := (len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, letter) > 0) || (long != "" && a == "--"+long)
		if isOpt && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return word{}, false
}
