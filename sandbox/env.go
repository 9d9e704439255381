package sandbox

import (
	"slices"
	"strings"
)

// KeptEnv are the variables a session inherits from the server when a policy is
// set; everything else in the server's environment (which may hold credentials) is
// left out, and create_session's env is added on top. Locale variables (LC_*) are
// kept too.
var KeptEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TERM", "TMPDIR"}

// BaseEnv filters environ (KEY=value entries) down to KeptEnv and LC_*.
func BaseEnv(environ []string) []string {
	out := []string{}
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "LC_") || slices.Contains(KeptEnv, k) {
			out = append(out, kv)
		}
	}
	return out
}
