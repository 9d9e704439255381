// Package danger decides whether an input is dangerous enough to need
// explicit confirmation (Classify), without depending on a running session
// and without executing anything:
//
//   - Shell input (a command line) is parsed with mvdan.cc/sh/v3/syntax,
//     never matched as flat text; SQL statements and Python lines have rule
//     sets of their own, and the Context of the foreground program says
//     which apply. The other REPLs have Contexts of their own (Node, Ruby,
//     Debugger, Editor, Pager): their shell escapes (gdb "shell", vim ":!",
//     less "!", child_process, system, backticks) are judged with the shell
//     rules, and their own code only for what it deletes or runs (and
//     the SQL, MongoDB and ORM calls it makes: orm.go). The datastores'
//     own shells are contexts too: redis-cli (Redis) and mongosh (Mongo)
//     have their commands judged (datastore_redis.go, datastore_mongo.go),
//     cqlsh, clickhouse-client and influx speak SQL dialects (sql_dialects.go).
//   - Datastores, brokers and their clients are judged by the target they
//     name (datastore_targets.go): a staging, QA, CI, test or scratch name,
//     or a local instance on another port than the service's own, may be
//     flushed, dropped or purged; production and unnamed targets may not.
//   - Python is judged after its indirections are undone (pyNormalize:
//     decoded literals, __import__/getattr/aliases, path expressions), and
//     deletes by what they destroy: anything but scratch space (tmp, build,
//     dist, __pycache__...) counts as work (protectedTree).
//   - Values are followed between statements of Python, node and Ruby
//     code (interp_flow.go): a name bound to a file's or a download's
//     contents, or to a literal, stands for it where it is used (sent, run,
//     interpolated, named as a member), and a name last bound to a whole
//     model's query set stands for it at its delete or update; what would
//     not take effect (a dry-run SDK call, ORM writes in a transaction the
//     code rolls back) is taken out first (code_undone.go).
//   - A line at a shell may stand for another: Memory keeps a session's
//     history, aliases and functions (the gate calls Remember for each line
//     that ran), and ClassifyIn judges a line as typed and as expanded
//     (!!, !-n, !prefix, !?str?, ^old^new, fc -s, r, aliases, function
//     bodies with their arguments).
//   - Deletions and overwrites are judged by what their targets are
//     (fsclass.go): each path is classed as scratch, plain file, project,
//     VCS state, home, credentials, database, system, or data/mount, after
//     resolving variables, globs, ".." and the directory a "cd" earlier on
//     the line moved to, and one table says which classes are protected.
//     The same model serves rm, find, xargs, loops, rsync, redirections and
//     interpreters' one-liners; command knowledge (flags, destructive
//     subcommands, system units, daemons) is data.
//   - Every rule lives in the rule table (rules.go, rules_fs.go,
//     rules_ops.go, rules_lang.go) with the examples it must match and the
//     near-misses it must not. Two corpora measure it: testdata/corpus,
//     written alongside the rules (a regression floor), and
//     testdata/independent, written and labelled by people who never saw
//     them, whose held-out half is never used for tuning
//     (independent_test.go).
//
// It imports only security/internal/shell (shell words, wrappers, Context);
// tools imports it.
package danger
