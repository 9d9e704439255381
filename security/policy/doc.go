// Package policy applies the operator's allow/block lists of programs,
// matched against the resolved executable file (resolve.go), and allowed
// directories, checked after expanding variables, globs and symlinks
// (policy_paths.go), to a session's own command, its working directory and
// every simple command typed into a shell.
//
// It imports security/internal/shell, to read shell input as the classifier
// does, and security/danger for Context; tools and cmd import it.
package policy
