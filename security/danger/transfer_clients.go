package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// The commands typed into a file-transfer client's own prompt (sftp, lftp,
// ftp, smbclient; and smbclient -c / lftp -c scripts), judged by what they
// delete or replace on the far side: a recursive or wildcard delete, a
// mirror with --delete onto a live tree or from an empty one, an empty file
// put over a backup. "!cmd" is a local shell command.

// transferLine judges one line of a transfer client's prompt.
func transferLine(line string, depth int) Verdict {
	line = strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(line, "!"); ok && rest != "" {
		return classifyShell(rest, depth+1)
	}
	f := strings.Fields(line)
	for i := range f {
		f[i] = strings.Trim(f[i], `"'`)
	}
	if len(f) > 0 && f[0] == "glob" { // lftp: glob [opts] cmd args
		f = f[1:]
		for len(f) > 0 && strings.HasPrefix(f[0], "-") {
			f = f[1:]
		}
	}
	if len(f) == 0 {
		return Verdict{}
	}
	var flags, args []string
	for _, a := range f[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
		} else {
			args = append(args, a)
		}
	}
	has := func(names ...string) bool {
		for _, fl := range flags {
			for _, n := range names {
				if fl == n || len(n) == 1 && !strings.HasPrefix(fl, "--") && strings.Contains(fl, n) {
					return true
				}
			}
		}
		return false
	}
	switch f[0] {
	case "rm", "mrm", "del", "delete", "mdel", "mdelete", "rmdir", "deltree":
		if f[0] == "rmdir" && !has("r", "f") {
			return Verdict{} // only an empty directory
		}
		many := f[0] == "mrm" || f[0] == "deltree" || f[0] == "mdel" || f[0] == "mdelete" || has("r", "f", "--recursive")
		for _, a := range args {
			if scratchTarget(a) || strings.HasPrefix(pathBase(a), ".") && strings.HasSuffix(a, "lock") {
				continue
			}
			if many || strings.ContainsAny(a, "*?") || backupSource(a) && archiveName.MatchString(a) {
				return hit("transfer-delete")
			}
		}
	case "mirror":
		if !has("--delete", "e") || has("--dry-run") || len(args) == 0 {
			return Verdict{}
		}
		src, dst := args[0], ""
		if len(args) > 1 {
			dst = args[len(args)-1]
		}
		if scratchTarget(dst) {
			return Verdict{}
		}
		if emptySource.MatchString(src) {
			return hit("transfer-delete")
		}
		// Forward (a remote tree onto a local one): a live local tree
		// replaced; reverse (-R): the far side's backups or archive.
		if has("R", "--reverse") {
			return hitIf(dst == "" || backupSource(dst), "transfer-delete")
		}
		return hitIf(liveTree(dst), "transfer-delete")
	case "put", "reput", "mput":
		return hitIf(len(args) > 1 && args[0] == "/dev/null" && !scratchTarget(args[1]), "transfer-delete")
	}
	return Verdict{}
}

func pathBase(p string) string {
	return p[strings.LastIndex(p, "/")+1:]
}

// checkTransferScript: smbclient -c 'cmds', lftp -c/-e 'cmds' — each
// command of the script judged as typed at the prompt.
func checkTransferScript(c shell.Command, depth int) Verdict {
	for _, s := range append(optionValues(c.Args[1:], "-c", "--command"), optionValues(c.Args[1:], "-e", "")...) {
		for _, cmd := range strings.Split(s, ";") {
			if v := transferLine(cmd, depth); v.Dangerous {
				return v
			}
		}
	}
	return Verdict{}
}

func init() {
	addHostCheck("smbclient", checkTransferScript)
	addHostCheck("lftp", checkTransferScript)
}
