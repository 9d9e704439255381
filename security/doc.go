// Package security owns the safety decisions of mcp-terminal that do not
// depend on a running session:
//
//   - Classify: is this input (a shell command line, an SQL statement, a
//     Python line) dangerous enough to need explicit confirmation? Shell
//     input is parsed with mvdan.cc/sh/v3/syntax, never matched as flat
//     text, and every rule lives in one table (rules.go) with the examples
//     it must match and the near-misses it must not. A corpus of ordinary
//     and dangerous inputs (testdata/corpus) measures recall and false
//     positives (corpus_test.go).
//   - Policy: allow/block lists of programs, matched against the resolved
//     executable file (resolve.go), and allowed directories, checked after
//     expanding variables, globs and symlinks (policy_paths.go); applied to
//     a session's own command, its working directory and every simple
//     command typed into a shell.
//   - Redactor: replace high-confidence secrets with "[REDACTED:<kind>]"
//     before text reaches the agent or the audit log; Stream does the same
//     across successive reads of one terminal, so a private key split over
//     several results stays hidden.
//   - Audit: an append-only JSON-lines record of what was done; the README's
//     "Audit log" section is its format (fields, events, redaction, file mode).
//
// It imports no project package; tools and cmd import it.
package security
