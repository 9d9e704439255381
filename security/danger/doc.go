// Package danger decides whether an input is dangerous enough to need
// explicit confirmation (Classify), without depending on a running session
// and without executing anything:
//
//   - Shell input (a command line) is parsed with mvdan.cc/sh/v3/syntax,
//     never matched as flat text; SQL statements and Python lines have rule
//     sets of their own, and the Context of the foreground program says
//     which apply.
//   - Every rule lives in one table (rules.go) with the examples it must
//     match and the near-misses it must not. A corpus of ordinary and
//     dangerous inputs (testdata/corpus) measures recall and false positives
//     (corpus_test.go).
//
// It imports only security/internal/shell (shell words, wrappers, Context);
// tools imports it.
package danger
