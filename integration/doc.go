// Package integration holds black-box tests: they build the mcp-terminal binary, start
// it, and drive it over stdio with mcp-go's client against real programs (bash,
// python3, node, sqlite3, less, vim). It imports no project package; it only execs.
//
// Every test starts its own server. Those that judge only evidence (exit codes, shell
// marks, prompts, tool errors, processes gone within a generous deadline) run in
// parallel; those that depend on time (settle windows, input-wait, timeouts, type-ahead,
// latency) run one at a time, since a second test on a small machine would change
// what they measure.
package integration
