// Package shell reads shell input the way bash would run it, for the
// classifier (security/danger) and the policy (security/policy): words after
// quote removal with run-time parts marked (DynMark), simple commands seen
// through their wrappers (sudo, env, xargs...), GNU-style options, literal
// variable assignments, text piped between stages, and the Context (shell,
// SQL, Python) of a foreground program. It never executes anything.
//
// It imports no project package.
package shell
