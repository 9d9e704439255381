package danger

import (
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// classifyShell parses input as bash and judges every simple command in it,
// wherever it sits: lists, pipelines, subshells, substitutions, function
// bodies. Input that does not parse is judged by the text fallback and then,
// as far as the parser can recover, structurally.
func classifyShell(input string, depth int) Verdict {
	if depth > shell.MaxDepth {
		return fallbackShell(input)
	}
	// lines typed into a client a line starts are that client's, and need
	// not parse as shell (shutil.rmtree('/srv') after python3)
	if strings.Contains(input, "\n") {
		if v := checkTypedIntoClient(input, depth); v.Dangerous {
			return v
		}
	}
	f, err := shell.Parse(input)
	if err != nil {
		if v := fallbackShell(input); v.Dangerous {
			return v
		}
		if f, err = shell.Parse(input, syntax.RecoverErrors(8)); err != nil || f == nil {
			return Verdict{}
		}
	}
	// D=$(mktemp -d); …; rm -rf "$D": D is the directory mktemp just made.
	if strings.Contains(input, "mktemp") {
		if sub, ok := shell.SubstituteTemp(f, input); ok {
			if g, err := shell.Parse(sub); err == nil {
				f, input = g, sub
			}
		}
	}
	// OUT=./out; rm -rf "${OUT:?}/": a variable every use of which follows its
	// one literal assignment is that value, so only the substituted input is
	// judged (as bash would run it), not the input with the use unknown.
	if strings.Contains(input, "=") {
		if sub, ok := shell.SubstituteSettled(f, input); ok {
			if g, err := shell.Parse(sub); err == nil {
				f, input = g, sub
			}
		}
	}
	if v := checkTree(f, depth); v.Dangerous {
		return v
	}
	if v := checkLineFlow(f, input, depth); v.Dangerous {
		return v
	}
	// RM="rm -rf"; $RM /: judge the input again with the literal values
	// assigned in it substituted, as bash would expand them.
	if sub, ok := shell.SubstituteAssignments(f, input); ok {
		return classifyShell(sub, depth+1)
	}
	// a=(rm -rf ~); "${a[@]}", alias x='rm -rf'; x ~: the same for lists
	// and aliases.
	if sub, ok := shell.SubstituteLists(f, input); ok {
		return classifyShell(sub, depth+1)
	}
	return checkInlineFuncs(f, depth)
}

func checkTree(n syntax.Node, depth int) Verdict {
	if v := checkSocketRedirects(n); v.Dangerous {
		return v
	}
	var judged map[*syntax.CallExpr]bool // deletions judged in the directory a cd moved to
	if f, ok := n.(*syntax.File); ok {
		var v Verdict
		if v, judged = checkAfterCd(f, depth); v.Dangerous {
			return v
		}
		for call := range settledCalls(f, depth) {
			judged[call] = true
		}
		if v = checkArrays(f); v.Dangerous {
			return v
		}
		if v = checkMintedSecrets(f); v.Dangerous {
			return v
		}
	}
	var v Verdict
	fetched := downloads(n)
	syntax.Walk(n, func(n syntax.Node) bool {
		if v.Dangerous || n == nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok && judged[call] {
				return true
			}
			v = checkStmt(n, depth)
		case *syntax.CallExpr:
			if c, ok := shell.BuildCommand(n); ok && runsDownloaded(c, fetched) {
				v = hit("pipe-to-shell")
			}
		case *syntax.FuncDecl:
			v = checkForkBomb(n)
		case *syntax.WhileClause:
			v = checkSpawnLoop(n)
		case *syntax.ForClause:
			if v = checkForLoop(n); !v.Dangerous {
				v = checkForListFed(n, depth)
			}
			if !v.Dangerous {
				v = checkForItems(n, depth)
			}
		}
		return !v.Dangerous
	})
	return v
}

func checkStmt(s *syntax.Stmt, depth int) Verdict {
	if v := checkHostStmt(s, depth); v.Dangerous {
		return v
	}
	if v := checkExposeStmt(s); v.Dangerous {
		return v
	}
	if v := checkSecretDumpStmt(s); v.Dangerous {
		return v
	}
	if v := checkRedirects(s.Redirs); v.Dangerous {
		return v
	}
	if v := checkOverwriteRedirects(s); v.Dangerous {
		return v
	}
	if v := checkListFed(s); v.Dangerous {
		return v
	}
	if v := checkXargsProcSubst(s, depth); v.Dangerous {
		return v
	}
	if v := checkProcSubstStdin(s, depth); v.Dangerous {
		return v
	}
	if v := checkFedOverwrite(s); v.Dangerous {
		return v
	}
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		c, ok := shell.BuildCommand(cmd)
		if !ok {
			return Verdict{}
		}
		if text, ok := shell.HereText(s.Redirs); ok {
			if v := checkXargsReplace(c, text, depth); v.Dangerous {
				return v
			}
		}
		if text, ok := shell.HereText(s.Redirs); ok && remoteShellOnStdin(c) && depth < shell.MaxDepth {
			if v := classifyShell(shell.ForParser(text, Shell), depth+1); v.Dangerous {
				return via(v, "ssh") // ssh host <<'EOF' … EOF: the far side's shell runs the here-document
			}
		}
		if text, ok := shell.HereText(s.Redirs); ok && c.MoreArgs {
			c.Args = append(c.Args, wordsOf(strings.Fields(text))...)
		}
		if v := checkCommand(c, depth); v.Dangerous {
			return v
		}
		if v := checkGlobbedName(c, depth); v.Dangerous {
			return v
		}
		return checkFedCode(c, s.Redirs, depth)
	case *syntax.BinaryCmd:
		if cmd.Op == syntax.Pipe || cmd.Op == syntax.PipeAll {
			if v := checkPipelineOverwrite(shell.Pipeline(cmd)); v.Dangerous {
				return v
			}
			if v := checkPipedQueries(shell.Pipeline(cmd), depth); v.Dangerous {
				return v
			}
			return checkPipeline(shell.Pipeline(cmd), depth)
		}
	case *syntax.WhileClause:
		return checkReadLoop(s, nil)
	}
	return Verdict{}
}

func checkRedirects(rs []*syntax.Redirect) Verdict {
	for _, r := range rs {
		if r == nil || !shell.WriteOps[r.Op] {
			continue
		}
		if v := checkWriteTarget(shell.ResolveWord(r.Word).S); v.Dangerous {
			return v
		}
	}
	return Verdict{}
}

func checkWriteTarget(p string) Verdict {
	switch {
	case isBlockDevice(p):
		return hit("write-block-device")
	case p == "/proc/sysrq-trigger":
		return hit("shutdown")
	case vmDiskImage(p):
		return hit("overwrite-protected")
	case cgroupKill(p).Dangerous:
		return cgroupKill(p)
	case p == "/sys/fs/selinux/enforce":
		return hit("security-off") // echo 0 > it is setenforce 0
	case isAuthorizedKeys(p):
		return hit("write-authorized-keys")
	case isCriticalFile(p): // not an application's own file under /etc/<app>
		return hit("write-system-file")
	}
	return Verdict{}
}

func checkPipeline(stages []*syntax.Stmt, depth int) Verdict {
	downloaded := false
	var prev []string // literal output of an echo stage, fed to xargs
	text, known := "", false
	var cmds []shell.Command          // the simple commands before this stage
	judged := map[*syntax.Stmt]bool{} // shells whose decoded stdin was judged as code
	for i, s := range stages {
		if v := checkReadLoop(s, cmds); v.Dangerous {
			return v
		}
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			prev, known = nil, false
			continue
		}
		c, ok := shell.BuildCommand(call)
		if !ok {
			continue
		}
		if downloaded && readsCodeFromStdin(c) {
			return hit("pipe-to-shell")
		}
		if v := checkPipedText(c, text, depth); known && v.Dangerous {
			return v
		}
		if v := checkXargsReplace(c, text, depth); known && v.Dangerous {
			return v
		}
		judged[s] = known
		downloaded = downloaded || shell.Downloaders[c.Name]
		if c.MoreArgs && prev != nil {
			for _, p := range prev {
				c.Args = append(c.Args, shell.Word{S: p})
			}
			if v := checkCommand(c, depth); v.Dangerous {
				return v
			}
		}
		if i == len(stages)-1 && prefixFilteredFed(stages, depth) == call {
			break // xargs given only names with a prefix its command may act on
		}
		if v := checkXargsFed(c, stages[:i], prev, depth); v.Dangerous {
			return v
		}
		prev = echoed(c)
		text, known = shell.StdinText(c, s.Redirs, text, known)
		cmds = append(cmds, c)
	}
	if v := checkStreamPipeline(stages, judged); v.Dangerous {
		return v
	}
	return checkNamePipeline(cmds)
}

// checkForkBomb flags a function that calls itself twice, or in the
// background: :(){ :|:& };: and its renamed variants.
func checkForkBomb(f *syntax.FuncDecl) Verdict {
	if f.Name == nil || f.Body == nil {
		return Verdict{}
	}
	calls, background := 0, false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			background = background || n.Background
		case *syntax.CallExpr:
			if len(n.Args) > 0 && shell.ShallowLit(n.Args[0].Parts) == f.Name.Value {
				calls++
			}
		}
		return true
	})
	if calls >= 2 || (calls == 1 && background) {
		return hit("fork-bomb")
	}
	return Verdict{}
}

// checkSpawnLoop flags an endless loop that starts a background job on
// every turn (while true; do cmd & done): it forks without bound.
func checkSpawnLoop(w *syntax.WhileClause) Verdict {
	if w.Until || !alwaysTrue(w.Cond) {
		return Verdict{}
	}
	for _, s := range w.Do {
		if s.Background {
			return hit("fork-bomb")
		}
	}
	return Verdict{}
}

// alwaysTrue: true, :, [ 1 ], (( 1 )).
func alwaysTrue(cond []*syntax.Stmt) bool {
	if len(cond) != 1 {
		return false
	}
	switch c := cond[0].Cmd.(type) {
	case *syntax.CallExpr:
		ws := make([]string, len(c.Args))
		for i, a := range c.Args {
			ws[i] = shell.ShallowLit(a.Parts)
		}
		s := strings.Join(ws, " ")
		return s == "true" || s == ":" || s == "[ 1 ]" || s == "test 1"
	case *syntax.ArithmCmd:
		return true
	}
	return false
}

// echoed is the literal output of an echo command, split into fields.
func echoed(c shell.Command) []string {
	if c.Name != "echo" || len(c.Programs) != 1 {
		return nil
	}
	for _, w := range c.Args[1:] {
		if w.Dyn() {
			return nil
		}
	}
	return strings.Fields(strings.Join(shell.Lits(c.Args[1:]), " "))
}

// remoteShellOnStdin: ssh HOST with no command (or a shell told to read
// stdin: bash -s, sh): the far side's login shell runs what stdin holds.
func remoteShellOnStdin(c shell.Command) bool {
	if c.Name != "ssh" {
		return false
	}
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "BbcDEeFIiJLlmOopQRSWw").Operands)
	switch {
	case len(ops) == 1:
		return true
	case len(ops) >= 2:
		sh := ops[1]
		if sh == "sudo" && len(ops) >= 3 {
			sh = ops[2]
		}
		return shell.ShellPrograms[shell.ProgName(sh)] && (len(ops) == 2 || slices.Contains(ops, "-s"))
	}
	return false
}

// checkLineFlow judges what one command of the line does to another's
// result: a tree renamed and then deleted, files moved one by one onto a
// name, a destroy plan saved and then applied. Each needs a word the input
// must hold, so most inputs skip the walks.
func checkLineFlow(f *syntax.File, input string, depth int) Verdict {
	if !strings.Contains(input, "mv") && !strings.Contains(input, "-destroy") {
		return Verdict{}
	}
	if strings.Contains(input, "mv") {
		if v := checkRenamedDeleted(f, depth); v.Dangerous {
			return v
		}
		if v := checkMoveEach(f); v.Dangerous {
			return v
		}
	}
	if strings.Contains(input, "-destroy") {
		return checkSavedDestroyPlan(f, depth)
	}
	return Verdict{}
}
