package shell

import "strings"

// Strings handed to another interpreter (bash -c, eval, su -c), which the
// classifier and the policy both analyse again.

// MaxDepth bounds how deeply strings handed to another interpreter
// (bash -c, eval, os.system, psql \!) are analysed again. Deeper nesting is
// only checked by the text fallback.
const MaxDepth = 4

// DashC returns the word after the first short option cluster holding letter
// (bash -c, bash -lc, python3 -c, su -c) or after --long / --long=value.
func DashC(args []Word, letter byte, long string) (Word, bool) {
	for i, w := range args {
		a := w.S
		if v, ok := strings.CutPrefix(a, "--"+long+"="); ok && long != "" {
			return Word{S: v, Node: w.Node}, true
		}
		isOpt := (len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, letter) > 0) || (long != "" && a == "--"+long)
		if isOpt && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return Word{}, false
}
