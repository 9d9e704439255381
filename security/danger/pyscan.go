package danger

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

var homeExpr = regexp.MustCompile(`^\{\s*(?:os\s*\.\s*(?:environ\s*\[\s*['"]HOME['"]\s*\]|getenv\s*\(\s*['"]HOME['"]\s*\))|(?:pathlib\s*\.\s*)?Path\s*\.\s*home\s*\(\s*\)|os\s*\.\s*path\s*\.\s*expanduser\s*\(\s*['"]~['"]\s*\))\s*\}$`)

var pyStringStart = regexp.MustCompile(`^(?i:[rbuf]{0,2})('''|"""|'|")`)

// scanPython drops comments and replaces every string literal with
// "\x01<n>\x02", returning the literal values in strs. F-string
// replacement fields become DynMark.
func scanPython(src string) (code string, strs []string) {
	var b strings.Builder
	for i := 0; i < len(src); {
		c := src[i]
		if c == '#' {
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(src)
			}
			continue
		}
		if i == 0 || !isIdentByte(src[i-1]) {
			if m := pyStringStart.FindStringSubmatch(src[i:]); m != nil {
				prefix := strings.ToLower(m[0][:len(m[0])-len(m[1])])
				val, n := pyString(src[i+len(m[0]):], m[1], strings.Contains(prefix, "r"), strings.Contains(prefix, "f"))
				b.WriteString("\x01" + strconv.Itoa(len(strs)) + "\x02")
				strs = append(strs, val)
				i += len(m[0]) + n
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), strs
}

var pyEscapes = map[byte]string{'n': "\n", 't': "\t", 'r': "\r", '\\': `\`, '\'': "'", '"': `"`, '\n': ""}

// pyString reads a literal body up to its closing quote q and returns the
// value and the number of bytes consumed.
func pyString(s, q string, raw, fstr bool) (string, int) {
	var b strings.Builder
	i := 0
	for i < len(s) {
		switch {
		case strings.HasPrefix(s[i:], q):
			return b.String(), i + len(q)
		case len(q) == 1 && s[i] == '\n':
			return b.String(), i
		case s[i] == '\\' && i+1 < len(s):
			if e, ok := pyEscapes[s[i+1]]; ok && !raw {
				b.WriteString(e)
			} else {
				b.WriteString(s[i : i+2])
			}
			i += 2
		case fstr && s[i] == '{' && !strings.HasPrefix(s[i:], "{{"):
			j := skipTo(s, i, "}")
			if homeExpr.MatchString(s[i:j]) {
				b.WriteString("~") // {os.environ['HOME']}, {Path.home()}: judged as ~
			} else if d, ok := pyFieldDir(s[i:j]); ok {
				b.WriteString(d)
			} else if name := strings.Trim(s[i:j], "{} "); plainIdent.MatchString(name) {
				b.WriteString(pyFieldMark + name + pyFieldEnd) // resolved by pyResolveFields
			} else {
				b.WriteString(shell.DynMark)
			}
			i = j
		case fstr && (strings.HasPrefix(s[i:], "{{") || strings.HasPrefix(s[i:], "}}")):
			b.WriteByte(s[i])
			i += 2
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), i
}
