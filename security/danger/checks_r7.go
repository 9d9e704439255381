package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Round 7: the command-line tools of migration frameworks and ORMs, whose
// subcommands drop, reset or empty the database the project points at, and
// deleting every key a Redis scan returns.

// dbTask is one destructive subcommand of a migration tool: the words that
// name it (after the tool, options skipped), and, when the subcommand is
// harmless without one, the flags that make it destroy data.
type dbTask struct {
	words []string
	flags []string
	rule  string
	// scope, when set, judges the task by its target (checks_data.go);
	// defaultOK: naming none runs it against a developer's default.
	scope     int
	defaultOK bool
}

// dbTools maps a migration tool (as run, or the script that runs it) to its
// destructive subcommands.
var dbTools = map[string][]dbTask{
	"prisma": {{words: []string{"migrate", "reset"}, rule: "sql-drop"},
		{words: []string{"db", "push"}, flags: []string{"--accept-data-loss", "--force-reset"}, rule: "sql-drop"}},
	"rails": railsTasks, "rake": railsTasks,
	"manage.py":    djangoTasks,
	"django-admin": djangoTasks,
	"artisan": {{words: []string{"migrate:fresh"}, rule: "sql-drop"}, {words: []string{"migrate:reset"}, rule: "sql-drop"},
		{words: []string{"migrate:refresh"}, rule: "sql-drop"}, {words: []string{"db:wipe"}, rule: "sql-drop"}},
	"console": {{words: []string{"doctrine:database:drop"}, flags: []string{"--force", "-f"}, rule: "sql-drop"},
		{words: []string{"doctrine:schema:drop"}, flags: []string{"--force", "-f"}, rule: "sql-drop"}},
	"sequelize":     sequelizeTasks,
	"sequelize-cli": sequelizeTasks,
	"knex":          {{words: []string{"migrate:rollback"}, flags: []string{"--all"}, rule: "sql-drop"}},
	"alembic":       {{words: []string{"downgrade", "base"}, rule: "sql-drop"}},
	"flask":         {{words: []string{"db", "downgrade", "base"}, rule: "sql-drop"}},
	"mix": {{words: []string{"ecto.drop"}, rule: "sql-drop"}, {words: []string{"ecto.reset"}, rule: "sql-drop"},
		{words: []string{"ecto.rollback"}, flags: []string{"--all"}, rule: "sql-drop"}},
	"dotnet": {{words: []string{"ef", "database", "drop"}, rule: "sql-drop"},
		{words: []string{"ef", "database", "update", "0"}, rule: "sql-drop"}}, // migration 0: before the first
	"typeorm": {{words: []string{"schema:drop"}, rule: "sql-drop"}},
	// push --force applies the schema's data-loss statements (dropped columns and tables) without asking
	"drizzle-kit": {{words: []string{"push"}, flags: []string{"--force"}, rule: "sql-drop"},
		{words: []string{"push:pg"}, flags: []string{"--force"}, rule: "sql-drop"}, {words: []string{"push:mysql"}, flags: []string{"--force"}, rule: "sql-drop"},
		{words: []string{"push:sqlite"}, flags: []string{"--force"}, rule: "sql-drop"}},
	"mikro-orm": {{words: []string{"schema:drop"}, flags: []string{"--run", "-r"}, rule: "sql-drop"},
		{words: []string{"schema:fresh"}, flags: []string{"--run", "-r"}, rule: "sql-drop"}, {words: []string{"migration:fresh"}, rule: "sql-drop"}},
	"ace": {{words: []string{"migration:fresh"}, rule: "sql-drop"}, {words: []string{"migration:reset"}, rule: "sql-drop"},
		{words: []string{"migration:refresh"}, rule: "sql-drop"}, {words: []string{"db:wipe"}, rule: "sql-drop"}},
	"payload": {{words: []string{"migrate:fresh"}, rule: "sql-drop"}, {words: []string{"migrate:reset"}, rule: "sql-drop"},
		{words: []string{"migrate:refresh"}, rule: "sql-drop"}},
	"yii":       {{words: []string{"migrate/fresh"}, rule: "sql-drop"}, {words: []string{"migrate/down", "all"}, rule: "sql-drop"}},
	"sqitch":    {{words: []string{"revert"}, flags: []string{"-y"}, rule: "sql-drop"}}, // to the first change, without asking
	"diesel":    {{words: []string{"database", "reset"}, rule: "sql-drop"}},
	"sqlx":      {{words: []string{"database", "drop"}, rule: "sql-drop"}, {words: []string{"database", "reset"}, rule: "sql-drop"}},
	"goose":     {{words: []string{"reset"}, rule: "sql-drop"}, {words: []string{"down-to", "0"}, rule: "sql-drop"}},
	"flyway":    {{words: []string{"clean"}, rule: "sql-drop"}},
	"liquibase": {{words: []string{"dropAll"}, rule: "sql-drop"}, {words: []string{"drop-all"}, rule: "sql-drop"}},
	"migrate":   {{words: []string{"drop"}, rule: "sql-drop"}, {words: []string{"down"}, flags: []string{"-all", "--all"}, rule: "sql-drop"}},
	"dbmate":    {{words: []string{"drop"}, rule: "sql-drop"}},
	"atlas":     {{words: []string{"schema", "clean"}, rule: "sql-drop"}},
	"supabase":  {{words: []string{"db", "reset"}, flags: []string{"--linked", "--db-url"}, rule: "sql-drop"}}, // without them, the local stack
	"wp": {{words: []string{"db", "reset"}, rule: "sql-drop"}, {words: []string{"db", "drop"}, rule: "sql-drop"},
		{words: []string{"db", "clean"}, rule: "sql-drop"}, {words: []string{"site", "empty"}, rule: "orm-delete-all"}},
	"drush": {{words: []string{"sql-drop"}, rule: "sql-drop"}, {words: []string{"sql:drop"}, rule: "sql-drop"},
		{words: []string{"site:install"}, rule: "sql-drop"}, {words: []string{"site-install"}, rule: "sql-drop"}, {words: []string{"si"}, rule: "sql-drop"}},
}

var (
	railsTasks = []dbTask{{words: []string{"db:drop"}, rule: "sql-drop"}, {words: []string{"db:drop:all"}, rule: "sql-drop"},
		{words: []string{"db:reset"}, rule: "sql-drop"}, {words: []string{"db:purge"}, rule: "sql-drop"},
		{words: []string{"db:schema:load"}, rule: "sql-drop"}, {words: []string{"db:structure:load"}, rule: "sql-drop"},
		{words: []string{"db:migrate:reset"}, rule: "sql-drop"}, {words: []string{"db:truncate_all"}, rule: "sql-truncate"},
		{words: []string{"db:seed:replant"}, rule: "sql-truncate"}}
	// migrate APP zero unapplies every migration of the app: its tables are dropped.
	djangoTasks = []dbTask{{words: []string{"flush"}, rule: "orm-delete-all"}, {words: []string{"reset_db"}, rule: "sql-drop"},
		{words: []string{"migrate", "*", "zero"}, rule: "sql-drop"}}
	sequelizeTasks = []dbTask{{words: []string{"db:drop"}, rule: "sql-drop"}, {words: []string{"db:migrate:undo:all"}, rule: "sql-drop"}}
	// dbToolHosts are the programs a migration tool is started through.
	dbToolHosts = []string{"npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "npm", "bundle", "python", "python3", "php", "node", "poetry", "uv", "pipenv", "pdm"}
	// dryRunFlags print what a subcommand would do instead of doing it.
	dryRunFlags = shell.Set("--help", "-h", "--dry-run", "--sql", "--pretend", "--preview", "help", "--plan")
)

func init() {
	for name := range dbTools {
		addHostCheck(name, checkDBTool)
	}
	for _, name := range dbToolHosts {
		addHostCheck(name, checkDBTool)
	}
	addHostCheck("redis-cli", checkRedisScanDelete)
	addHostCheck("valkey-cli", checkRedisScanDelete)
}

// checkDBTool finds the migration tool among c's words (bin/rails,
// npx prisma, python manage.py, php artisan, bundle exec rake) and judges
// the subcommand given to it.
func checkDBTool(c shell.Command, _ int) Verdict {
	words := shell.Lits(c.Args)
	for i, w := range words {
		tasks, ok := dbTools[path.Base(w)]
		if !ok {
			continue
		}
		rest := words[i+1:]
		if slices.ContainsFunc(rest, func(s string) bool { return dryRunFlags[s] }) || testEnvironment(c.Env, rest) {
			return Verdict{}
		}
		var plain []string
		for _, r := range rest {
			if !strings.HasPrefix(r, "-") && !strings.Contains(r, "=") {
				plain = append(plain, r)
			}
		}
		for _, t := range tasks {
			at := sequenceAt(plain, t.words)
			if at < 0 {
				continue
			}
			if len(t.flags) > 0 && !slices.ContainsFunc(rest, func(s string) bool { return slices.Contains(t.flags, s) }) {
				continue
			}
			return hitIf(t.scope == 0 || !disposableTarget(t, c.Args[i+1:], plain[at+len(t.words):]), t.rule)
		}
		return Verdict{}
	}
	return Verdict{}
}

// hasSequence: want appears in words, in order, next to each other; a rake
// or rails line may chain tasks (db:drop db:create db:migrate). "*" in want
// stands for any one word (migrate APP zero), and a trailing "*" for any
// ending (drop_*).
func hasSequence(words, want []string) bool {
	return sequenceAt(words, want) >= 0
}

// sequenceAt is where hasSequence finds want in words, or -1.
func sequenceAt(words, want []string) int {
	for i := 0; i+len(want) <= len(words); i++ {
		if slices.EqualFunc(words[i:i+len(want)], want, func(w, x string) bool {
			p, wild := strings.CutSuffix(x, "*")
			return wild && strings.HasPrefix(w, p) || w == x
		}) {
			return i
		}
	}
	return -1
}

// envVars name the environment a framework's tasks run against; settings
// name Django's settings module.
var envVars = shell.Set("RAILS_ENV", "RACK_ENV", "MIX_ENV", "APP_ENV", "NODE_ENV", "ASPNETCORE_ENVIRONMENT",
	"DOTNET_ENVIRONMENT", "FLASK_ENV", "ENVIRONMENT", "ENV", "STAGE", "DJANGO_SETTINGS_MODULE", "DATABASE_URL")

// testEnvironment: the task is pointed at the test environment (RAILS_ENV=test,
// MIX_ENV=test, --env=testing, --settings=config.settings.test), whose
// database every test run recreates.
func testEnvironment(env, args []string) bool {
	for _, kv := range env {
		if name, val, _ := strings.Cut(kv, "="); envVars[name] && testEnvValue(val) {
			return true
		}
	}
	for i, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok && (a == "--env" || a == "-e" || a == "--settings" || a == "--environment") && i+1 < len(args) {
			name, val = a, args[i+1]
		}
		if (name == "--env" || name == "-e" || name == "--settings" || name == "--environment") && testEnvValue(val) {
			return true
		}
		if !ok && testConfigOpts[a] && i+1 < len(args) {
			name, val = a, args[i+1]
		}
		if testConfigOpts[name] && testConfigFile(val) {
			return true // --config drizzle.test.config.ts, --schema prisma/test.prisma, --env-file .env.test
		}
	}
	return false
}

// testConfigOpts name a tool's configuration, schema or environment file.
var testConfigOpts = shell.Set("--config", "--schema", "--knexfile", "--config-file", "--env-file", "--dotenv", "--dataSource", "-d")

// testConfigFile: a file named for tests (drizzle.test.config.ts,
// knexfile.test.js, config/test.json, .env.test).
func testConfigFile(p string) bool {
	for _, part := range strings.FieldsFunc(path.Base(p), func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if p := strings.ToLower(part); p == "test" || p == "tests" || p == "testing" || p == "e2e" {
			return true
		}
	}
	return false
}

// testEnvValue: test, testing, ci, or a settings module or URL naming one
// (config.settings.test, postgres://localhost/app_test).
var testEnvValue = regexp.MustCompile(`(?i)(?:^|[._/-])(?:test|tests|testing|ci)$`).MatchString

// checkRedisScanDelete: DEL or UNLINK fed every key a scan or KEYS returns
// (redis-cli --scan | xargs redis-cli del), which is FLUSHDB by other means.
// A scan limited to a pattern with a prefix (session:*) deletes one kind of key.
func checkRedisScanDelete(c shell.Command, _ int) Verdict {
	del := slices.ContainsFunc(c.Args[1:], func(w shell.Word) bool {
		return strings.EqualFold(w.S, "del") || strings.EqualFold(w.S, "unlink")
	})
	if !del {
		return Verdict{}
	}
	for _, w := range c.Args[1:] {
		if w.Node == nil {
			continue
		}
		for _, p := range w.Node.Parts {
			if cs, ok := p.(*syntax.CmdSubst); ok && scansEveryKey(cs.Stmts) {
				return hit("redis-flush")
			}
		}
	}
	return Verdict{}
}

func scansEveryKey(stmts []*syntax.Stmt) bool {
	for _, s := range stmts {
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			continue
		}
		c, ok := shell.BuildCommand(call)
		if !ok || c.Name != "redis-cli" && c.Name != "valkey-cli" {
			continue
		}
		words := shell.Lits(c.Args)
		for i, w := range words {
			switch {
			case w == "--scan":
				j := slices.Index(words, "--pattern")
				return j < 0 || j+1 < len(words) && broadGlob(words[j+1])
			case strings.EqualFold(w, "keys") && i > 0:
				return i+1 >= len(words) || broadGlob(words[i+1])
			}
		}
	}
	return false
}

// storeWipes: configuration and object stores whose delete subcommand,
// given a recursive or prefix flag and a root or empty key, deletes the
// whole store or bucket (etcdctl del "" --prefix, consul kv delete
// -recurse app/, s3cmd del --recursive s3://b).
var storeWipes = map[string]struct {
	verbs, flags []string
	rule         string
	rootOnly     bool
}{
	"etcdctl": {[]string{"del"}, []string{"--prefix", "--from-key"}, "kv-wipe", true},
	"consul":  {[]string{"delete"}, []string{"-recurse", "--recurse"}, "kv-wipe", false},
	"s3cmd":   {[]string{"del", "rm", "rb"}, []string{"--recursive", "-r", "--force", "-f"}, "cloud-teardown", false},
}

func init() {
	for name := range storeWipes {
		addHostCheck(name, checkStoreWipe)
	}
}

func checkStoreWipe(c shell.Command, _ int) Verdict {
	w := storeWipes[c.Name]
	args := shell.Lits(c.Args[1:])
	if !slices.ContainsFunc(args, func(a string) bool { return slices.Contains(w.verbs, a) }) ||
		!slices.ContainsFunc(args, func(a string) bool { return slices.Contains(w.flags, a) }) ||
		slices.ContainsFunc(args, func(a string) bool { return a == "--dry-run" || a == "-n" && c.Name == "s3cmd" }) {
		return Verdict{}
	}
	var keys []string
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && !slices.Contains(w.verbs, a) && (i == 0 || !strings.HasPrefix(args[i-1], "--endpoints")) {
			keys = append(keys, a)
		}
	}
	if !w.rootOnly {
		return hitIf(c.Name != "consul" || len(keys) < 2 || !allTemporaryStr(keys[1:]), w.rule) // consul kv delete -recurse scratch/jdoe/
	}
	fromKey := slices.Contains(args, "--from-key") // every key from the one named on
	return hitIf(len(keys) == 0 || keys[0] == "" || keys[0] == "/" || fromKey, w.rule)
}
