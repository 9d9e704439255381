package danger

import (
	"regexp"
	"strings"
)

// Code whose effect does not happen: calls that ask for a dry run, and
// database writes inside a transaction that the code rolls back.

// codeAsRun is code (as scanPython/scanLiterals leave it) with names put
// back where used, and what would not take effect taken out.
func codeAsRun(code string) string { return dropRolledBack(dropDryRuns(inlineBound(code))) }

// Calls that ask an API to check a request without carrying it out: EC2's
// DryRun=True (boto3, aws-sdk-js DryRun: true, aws-sdk-ruby dry_run: true),
// Kubernetes' dry_run='All', Google's validate_only=True. What such a call
// names is not destroyed, so its method is renamed before the rules read the
// code; a call without the argument (the real run after the check) is kept.

var (
	sdkCall = regexp.MustCompile(`\.\s*([A-Za-z_]\w*[!?]?)\s*\(`)
	// dryRunArg: the argument, set to true or (Kubernetes) to a string.
	dryRunArg = regexp.MustCompile(`(?:^|[\s,({])(?:DryRun|dry_run|dryRun|validate_only|validateOnly)\s*(?:=>|=|:)\s*(?:True|true|\x01\d+\x02)`)
)

// dropDryRuns renames the method of every call whose own arguments ask for a
// dry run. code is as scanPython/scanLiterals leave it (no string contents).
func dropDryRuns(code string) string {
	out := []byte(code)
	for _, m := range sdkCall.FindAllStringSubmatchIndex(code, -1) {
		end := closingParen(code, m[1])
		if end > 0 && dryRunArg.MatchString(code[m[1]:end]) {
			for i := m[2]; i < m[3]; i++ {
				out[i] = 'x'
			}
		}
	}
	return string(out)
}

var (
	// txOpen: a transaction begun around ORM calls: ActiveRecord's and
	// Sequelize's transaction blocks, Django's atomic(), SQLAlchemy's
	// begin()/begin_nested() and its session, which begins one on first use.
	txOpen = regexp.MustCompile(`\.\s*transaction\b|\batomic\s*\(|\bbegin(?:_nested)?\s*\(|\bsession\s*\.\s*query\s*\(`)
	// txUndo: the code rolling it back.
	txUndo   = regexp.MustCompile(`\braise\s+(?:ActiveRecord|Sequel)\s*::\s*Rollback\b|\bset_rollback\s*\(\s*True\s*\)|\.\s*rollback\s*\(\s*\)`)
	txCommit = regexp.MustCompile(`\bcommit\w*\b`)
)

// dropRolledBack blanks the ORM writes (ormAll's) made in a transaction that
// the code then rolls back with nothing committed in between (a rehearsal:
// Order.delete_all; raise ActiveRecord::Rollback). Shell commands and files
// touched in the block are not undone by the database, so they stay.
func dropRolledBack(code string) string {
	open := txOpen.FindStringIndex(code)
	if open == nil {
		return code
	}
	undo := txUndo.FindStringIndex(code[open[0]:])
	if undo == nil {
		return code
	}
	span := code[open[0] : open[0]+undo[0]]
	if txCommit.MatchString(span) {
		return code
	}
	span = ormAll.ReplaceAllStringFunc(span, func(m string) string { return strings.Repeat(" ", len(m)) })
	return code[:open[0]] + span + code[open[0]+undo[0]:]
}
