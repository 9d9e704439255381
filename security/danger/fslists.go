package danger

import (
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Lists of names a deleter gets from elsewhere than its own arguments: a
// file (xargs -a list, cat list | xargs, while read ... < list), an array
// filled by mapfile or readarray, and tee or ssh-keygen fed their input by a
// redirection. A recursive deletion of names kept in a file cannot be judged
// by what it names, so it needs confirmation; a file-by-file one passes.

// listReaders print the names kept in the files they are given;
// scriptReaders do too, after their script or pattern (sed 's/^/..\//' names).
var (
	listReaders   = shell.Set("cat", "sort", "uniq", "head", "tail", "tac", "cut", "shuf")
	scriptReaders = shell.Set("sed", "awk", "gawk", "grep", "egrep", "fgrep")
)

// readsListFile: c prints the lines of a file (cat dirs.txt).
func readsListFile(c shell.Command) bool {
	if !listReaders[c.Name] && !scriptReaders[c.Name] {
		return false
	}
	o := shell.ParseOpts(c.Args[1:], "nkdfcemABC")
	ops := o.Operands
	if scriptReaders[c.Name] {
		if o.Has("lLrR", "files-with-matches", "recursive") {
			return false // names of files that match, judged as a producer
		}
		if len(ops) > 0 {
			ops = ops[1:]
		}
	}
	return len(ops) > 0 && !slices.ContainsFunc(ops, func(w shell.Word) bool { return w.S == "-" || scratchPath(w.S) })
}

// contentSearchers search a tree (the working directory when none is named)
// and with -l print the names of the files that match: rg(1), ag(1), ack(1),
// git-grep(1).
var contentSearchers = shell.Set("rg", "ag", "ack", "ack-grep", "ug")

// grepListsProtected: grep -rl PATTERN src, rg -l PATTERN, git grep -l PATTERN
// name the project's files that match.
func grepListsProtected(c shell.Command) bool {
	args := c.Args[1:]
	if c.Name == "git" && len(args) > 0 && args[0].S == "grep" {
		args = args[1:]
	} else if !contentSearchers[c.Name] {
		return grepLists(c)
	}
	o := shell.ParseOpts(args, "egtTmABCfj")
	if !o.Has("l", "files-with-matches") || len(o.Operands) == 0 {
		return false
	}
	paths := o.Operands[1:]
	if len(paths) == 0 {
		paths = []shell.Word{{S: "."}}
	}
	return slices.ContainsFunc(paths, func(w shell.Word) bool { return treeProtected[classifyPath(fsPath(w))] })
}

func grepLists(c shell.Command) bool {
	if !scriptReaders[c.Name] || c.Name == "sed" || c.Name == "awk" || c.Name == "gawk" {
		return false
	}
	o := shell.ParseOpts(c.Args[1:], "efmABCd")
	if !o.Has("l", "files-with-matches") || len(o.Operands) < 2 {
		return false
	}
	for _, w := range o.Operands[1:] {
		if treeProtected[classifyPath(fsPath(w))] {
			return true
		}
	}
	return false
}

// parallelFromFile: parallel -a FILE cmd, parallel cmd :::: FILE.
func parallelFromFile(c shell.Command) (shell.Command, bool) {
	if c.Name != "parallel" {
		return c, false
	}
	fromFile := len(optionValues(c.Args[1:], "-a", "--arg-file")) > 0
	args := c.Args
	if i := slices.IndexFunc(args, func(w shell.Word) bool { return w.S == "::::" }); i > 0 {
		args, fromFile = args[:i], true
	}
	if !fromFile {
		return c, false
	}
	var kept []shell.Word
	for i := 0; i < len(args); i++ {
		if args[i].S == "-a" || args[i].S == "--arg-file" {
			i++
			continue
		}
		kept = append(kept, args[i])
	}
	return shell.Command{Name: "parallel", Args: kept}, true
}

// checkListFed judges a statement whose deleter takes its names from a file:
// xargs -a FILE rm -rf, xargs rm -rf < FILE, cat FILE | xargs rm -rf; and
// tee fed nothing by the stage before it.
func checkListFed(s *syntax.Stmt) Verdict {
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		ws := make([]shell.Word, 0, len(cmd.Args))
		for _, a := range cmd.Args {
			ws = append(ws, shell.ResolveWord(a))
		}
		if len(ws) == 0 {
			return Verdict{}
		}
		c, ok := shell.BuildCommand(cmd)
		if !ok {
			return Verdict{}
		}
		fromFile := slices.Contains(c.Programs, "xargs") &&
			(len(optionValues(ws, "-a", "--arg-file")) > 0 || stdinFile(s.Redirs))
		if pc, ok := parallelFromFile(c); ok {
			c, fromFile = pc, true
		}
		if del, rec := deletesInput(c); fromFile && del && rec {
			return hit("delete-protected-tree")
		}
	case *syntax.BinaryCmd:
		if cmd.Op != syntax.Pipe {
			return Verdict{}
		}
		var prev []shell.Command
		for i, st := range shell.Pipeline(cmd) {
			call, ok := st.Cmd.(*syntax.CallExpr)
			if !ok {
				return Verdict{}
			}
			c, ok := shell.BuildCommand(call)
			if !ok {
				return Verdict{}
			}
			if c.Name == "tee" && i > 0 && writesNothing(shell.Pipeline(cmd)[i-1]) && !shell.ParseOpts(c.Args[1:], "").Has("a", "append") {
				for _, t := range shell.ParseOpts(c.Args[1:], "").Operands {
					if v := overwriteVerdict(fsPath(t), byEmpty); v.Dangerous {
						return v // : | tee .env
					}
				}
			}
			if del, rec := deletesInput(c); del && rec && len(prev) > 0 && readsListFile(prev[0]) &&
				!slices.ContainsFunc(prev[1:], func(p shell.Command) bool { return !passesNames[p.Name] }) {
				return hit("delete-protected-tree")
			}
			prev = append(prev, c)
		}
	}
	return Verdict{}
}

// stdinFile: a < redirection from a file (not a here-document or /dev/null).
func stdinFile(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r != nil && r.Op == syntax.RdrIn && firstPart(r.Word) != nil {
			if _, ok := firstPart(r.Word).(*syntax.ProcSubst); !ok && !scratchPath(shell.ResolveWord(r.Word).S) {
				return true
			}
		}
	}
	return false
}

// checkArrays: mapfile -t d < <(ls -d ~/code/*); rm -rf "${d[@]}" deletes
// what the producer listed; filled from a file, what the file lists.
func checkArrays(f *syntax.File) Verdict {
	filled := map[string]func(rec bool) bool{}
	var v Verdict
	syntax.Walk(f, func(n syntax.Node) bool {
		s, ok := n.(*syntax.Stmt)
		if !ok || v.Dangerous {
			return !v.Dangerous
		}
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			return true
		}
		for _, a := range call.Assigns {
			if a.Name != nil && a.Array != nil {
				var elems []*syntax.Word
				for _, e := range a.Array.Elems {
					elems = append(elems, e.Value)
				}
				filled[a.Name.Value] = wordsFill(elems) // dirs=(~/code/*), dirs=($(ls -d ~/code/*))
			}
		}
		if len(call.Args) == 0 {
			return true
		}
		c, ok := shell.BuildCommand(call)
		if !ok {
			return true
		}
		if c.Name == "set" && len(call.Args) > 2 && c.Args[1].S == "--" {
			filled["@"] = wordsFill(call.Args[2:]) // set -- ~/code/*; rm -rf "$@"
			return true
		}
		if c.Name == "mapfile" || c.Name == "readarray" {
			ops := shell.ParseOpts(c.Args[1:], "dnOsuCc").Operands
			name := "MAPFILE"
			if len(ops) > 0 {
				name = ops[len(ops)-1].S
			}
			filled[name] = arrayFill(s.Redirs)
			return true
		}
		if !deleters[c.Name] {
			return true
		}
		rec := c.Name == "rm" && shell.ParseOpts(c.Args[1:], "").Has("rR", "recursive")
		for _, w := range c.Args[1:] {
			if fill, ok := filled[paramName(w.Node)]; ok && w.Node != nil && fill(rec) {
				v = hit("delete-protected-tree")
			}
		}
		return !v.Dangerous
	})
	return v
}

// wordsFill says whether deleting the words an array was given needs
// confirmation: what they name, or what a $(producer) among them lists.
func wordsFill(ws []*syntax.Word) func(rec bool) bool {
	return func(rec bool) bool {
		var lits []shell.Word
		for _, w := range ws {
			if w == nil {
				continue
			}
			if cs, ok := firstPart(w).(*syntax.CmdSubst); ok && len(cs.Stmts) == 1 {
				if pc, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr); ok {
					if p, ok := shell.BuildCommand(pc); ok && (producesProtected(p, rec) || rec && readsListFile(p)) {
						return true
					}
				}
				continue
			}
			lits = append(lits, shell.ResolveWord(w))
		}
		return deleteVerdict(lits, rec).Dangerous
	}
}

// arrayFill says, for mapfile's redirections, whether deleting the lines
// read needs confirmation (recursively when rec).
func arrayFill(rs []*syntax.Redirect) func(rec bool) bool {
	for _, r := range rs {
		if r == nil || r.Op != syntax.RdrIn {
			continue
		}
		if ps, ok := firstPart(r.Word).(*syntax.ProcSubst); ok && len(ps.Stmts) == 1 {
			if pc, ok := ps.Stmts[0].Cmd.(*syntax.CallExpr); ok {
				if p, ok := shell.BuildCommand(pc); ok {
					return func(rec bool) bool { return producesProtected(p, rec) || rec && readsListFile(p) }
				}
			}
			return func(bool) bool { return false }
		}
		if stdinFile([]*syntax.Redirect{r}) {
			return func(rec bool) bool { return rec }
		}
	}
	return func(bool) bool { return false }
}

// checkFedOverwrite: tee FILE < /dev/null empties FILE; crontab < /dev/null
// installs an empty table; ssh-keygen -f KEY <<< y answers its "Overwrite?"
// question.
func checkFedOverwrite(s *syntax.Stmt) Verdict {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return Verdict{}
	}
	c, ok := shell.BuildCommand(call)
	if !ok {
		return Verdict{}
	}
	for _, r := range s.Redirs {
		if r == nil {
			continue
		}
		in := shell.ResolveWord(r.Word).S
		switch {
		case c.Name == "tee" && r.Op == syntax.RdrIn && in == "/dev/null":
			if shell.ParseOpts(c.Args[1:], "").Has("a", "append") {
				return Verdict{}
			}
			for _, t := range shell.ParseOpts(c.Args[1:], "").Operands {
				if v := overwriteVerdict(fsPath(t), byEmpty); v.Dangerous {
					return v
				}
			}
		case c.Name == "crontab" && emptyStdin(r, in) && crontabFromStdin(c):
			return hit("crontab-replace") // the empty table read from stdin replaces the installed one
		case c.Name == "ssh-keygen" && r.Op == syntax.WordHdoc && (in == "y" || in == "yes"):
			for _, f := range optionValues(c.Args[1:], "-f", "") {
				if v := overwriteVerdict(f, byWrite); v.Dangerous {
					return v
				}
			}
		}
	}
	return Verdict{}
}

// emptyStdin: a redirection that gives a command nothing to read (< /dev/null,
// an empty here-string).
func emptyStdin(r *syntax.Redirect, in string) bool {
	return r.Op == syntax.RdrIn && in == "/dev/null" || r.Op == syntax.WordHdoc && strings.TrimSpace(in) == ""
}

// crontabFromStdin: crontab with no file, or the file -, installs what it
// reads from stdin (no -l, -e, -r or other action given).
func crontabFromStdin(c shell.Command) bool {
	o := shell.ParseOpts(c.Args[1:], "u")
	ops := shell.Lits(o.Operands)
	return !o.Has("lerTi", "list", "edit", "remove", "test") && (len(ops) == 0 || len(ops) == 1 && ops[0] == "-")
}
