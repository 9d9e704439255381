package danger

import (
	"regexp"
	"strconv"
	"strings"
)

// More indirections pyNormalize undoes, each into the call it hides:
//
//   - the C library's system() reached through ctypes (ctypes.CDLL(None),
//     CDLL('libc.so.6'), cdll.LoadLibrary(…), or a name bound to one) is
//     os.system;
//   - getattr(m, name) with name bound once to a literal is m.<literal>;
//   - getattr(<call>, 'name') on a call's result (getattr(boto3.client('s3'),
//     'delete_bucket')) is <call>.name, as getattr on a name already was;

var (
	pyLibc       = `(?:(?:ctypes\s*\.\s*)?(?:CDLL|PyDLL|cdll\s*\.\s*LoadLibrary)\s*\([^()\n]*\)|(?:ctypes\s*\.\s*)?cdll\s*\.\s*libc(?:\s*\.\s*so\s*\.\s*6)?)`
	pyLibcSystem = regexp.MustCompile(pyLibc + `\s*\.\s*system\s*\(`)
	pyLibcBind   = regexp.MustCompile(`(?m)(?:^|;)\s*(\w+)\s*=\s*` + pyLibc + `\s*(?:;|$)`)
	// getattr(m, name) with name bound once to a literal: m.<literal>.
	pyGetattrName = regexp.MustCompile(`\bgetattr\s*\(\s*([\w.]+)\s*,\s*([A-Za-z_]\w*)\s*\)`)
	pyGetattrOn   = regexp.MustCompile(`\bgetattr\s*\(\s*([\w.]+\s*\([^()\n]*\))\s*,\s*(` + pyL + `)\s*\)`)
)

func (n *pyNorm) rewriteDispatch(code string) string {
	for _, m := range pyLibcBind.FindAllStringSubmatch(code, -1) {
		code = regexp.MustCompile(`(^|[^\w.])`+regexp.QuoteMeta(m[1])+`\s*\.\s*system\s*\(`).ReplaceAllString(code, "${1}os.system(")
	}
	code = pyLibcSystem.ReplaceAllString(code, "os.system(")
	vars := pyVars(code, n.strs)
	code = pyGetattrName.ReplaceAllStringFunc(code, func(m string) string {
		sm := pyGetattrName.FindStringSubmatch(m)
		if v, ok := vars[sm[2]]; ok && plainIdent.MatchString(v) {
			return sm[1] + "." + v
		}
		return m
	})
	code = pyGetattrOn.ReplaceAllStringFunc(code, func(m string) string {
		sm := pyGetattrOn.FindStringSubmatch(m)
		name := n.val(sm[2])
		if !plainIdent.MatchString(name) {
			return m
		}
		return sm[1] + "." + name
	})
	return code
}

// pyBlockAfter returns the lines a compound statement's header at index i
// governs: the rest of its line, or the lines indented deeper than it.
func pyBlockAfter(code string, i int) string {
	start := strings.LastIndex(code[:i], "\n") + 1
	indent := len(code[start:i]) - len(strings.TrimLeft(code[start:i], " \t"))
	lines := strings.Split(code[start:], "\n")
	out := []string{lines[0]}
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if len(l)-len(strings.TrimLeft(l, " \t")) <= indent {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// IPython's capture of a shell command's output, name = !cmd (or %sx cmd):
// the command runs, and when it lists a directory (ls DIR, find DIR) the
// name holds that directory's entries, as os.listdir(DIR) would.
var ipyCapture = regexp.MustCompile(`^([A-Za-z_]\w*)\s*=\s*(?:!|%sx\s)\s*(.+)$`)

func ipythonCapture(line string) (name, cmd string, ok bool) {
	m := ipyCapture.FindStringSubmatch(line)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

func capturedListing(name, cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 || f[0] != "ls" && f[0] != "find" {
		return name + " = []"
	}
	for _, a := range f[1:] {
		if !strings.HasPrefix(a, "-") {
			return name + " = os.listdir(" + strconv.Quote(strings.Trim(a, `'"`)) + ")"
		}
	}
	return name + " = os.listdir('.')"
}
