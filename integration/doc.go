// Package integration holds black-box tests: they build the mcp-terminal binary, start
// it, and drive it over stdio with mcp-go's client against real programs (bash,
// python3, node, sqlite3, less, vim). It imports no project package; it only execs.
package integration
