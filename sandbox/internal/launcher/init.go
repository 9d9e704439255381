package launcher

import "os"

// init runs the launcher as soon as the binary starts with its subcommand. Go
// initialises packages sorted by import path, each once its imports are ready
// (the Go spec, "Package initialization"), so this one runs before every server
// package that sorts after sandbox/internal/launcher (security/danger, whose
// rules take tens of milliseconds to compile, session, tools) and that the
// launcher never needs. cmd/mcp-terminal dispatches the subcommand too, should
// that order ever change.
func init() {
	if len(os.Args) < 2 {
		return
	}
	switch os.Args[1] {
	case Subcommand:
		os.Exit(Main(os.Args[2:], os.Stderr))
	case ProbeSubcommand:
		os.Exit(Probe(os.Stderr))
	}
}
