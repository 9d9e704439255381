package danger

import "strings"

// Verdict is Classify's answer. The zero Verdict means "not dangerous".
type Verdict struct {
	Dangerous bool
	Rule      string // stable id, e.g. "rm-recursive-force", "sql-drop"
	Category  string // e.g. "irreversible deletion"
	Why       string // one sentence for the agent: what this would do
}

// Classify reports whether input, typed into a program of the given context,
// is dangerous. It never executes anything and never fails: input it cannot
// parse is judged by a conservative text check instead of being waved through.
func Classify(ctx Context, input string) Verdict {
	return classify(ctx, input, 0)
}

func classify(ctx Context, input string, depth int) Verdict {
	switch ctx {
	case Shell:
		return classifyShell(input, depth)
	case SQL:
		return classifySQL(input, depth)
	case Python:
		if v := classifyPython(input, depth); v.Dangerous {
			return loopOr(v, input)
		}
		if v := checkCodePastesSecret(input); v.Dangerous {
			return v
		}
		return checkLoopDeletes(input)
	case Redis:
		return classifyRedis(input, depth)
	case Mongo:
		return classifyMongo(input, depth)
	}
	if isCodeContext(ctx) {
		if v := classifyREPL(ctx, input, depth); v.Dangerous || ctx != Node && ctx != Ruby {
			return loopOr(v, input)
		}
		if v := checkCodePastesSecret(input); v.Dangerous {
			return v
		}
		return checkLoopDeletes(input)
	}
	if v := virshPrompt(input, depth); v.Dangerous {
		return v
	}
	if v := classifyShell(input, depth); v.Dangerous {
		return v
	}
	if v := transferLine(input, depth); v.Dangerous {
		return v // sftp, lftp, ftp, smbclient (transfer_clients.go)
	}
	if looksLikeSQL(input) {
		if v := classifySQL(input, depth); v.Dangerous {
			return v
		}
	}
	if v := classifyPython(input, depth); v.Dangerous {
		return v
	}
	// node, irb, php -a and other consoles: the commands their code runs
	// and the paths it deletes.
	if v := checkScriptCode(input, depth); v.Dangerous {
		return v
	}
	// mongosh and other JavaScript consoles are Unknown programs.
	return hitIf(mongoDrops(input), "mongo-drop")
}

// hit builds the Verdict of a rule in the table. An id missing from the table
// still yields a dangerous Verdict (a test keeps ids and table in step).
func hit(id string) Verdict {
	r, ok := ruleIndex()[id]
	if !ok {
		return Verdict{Dangerous: true, Rule: id, Category: "dangerous", Why: "This input matched rule " + id + "."}
	}
	return Verdict{Dangerous: true, Rule: r.id, Category: r.category, Why: r.why}
}

// via notes in Why that a verdict came from a string run by another program.
func via(v Verdict, how string) Verdict {
	if v.Dangerous && !strings.Contains(v.Why, how) {
		v.Why = strings.TrimSuffix(v.Why, ".") + " (run via " + how + ")."
	}
	return v
}

// loopOr names a remote delete repeated over a collection's items (for c in
// certs: requests.delete(…)) as the bulk delete it is.
func loopOr(v Verdict, input string) Verdict {
	if v.Rule == "remote-delete" {
		if lv := checkLoopDeletes(input); lv.Dangerous {
			return lv
		}
	}
	return v
}
