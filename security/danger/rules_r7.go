package danger

// Examples from round-7 probes: migration and ORM command-line tools,
// Redis scans fed to DEL.

func init() {
	rules = append(rules, r7Rules...)
	addExamples(r7Examples)
}

var r7Rules = []rule{
	{"kv-wipe", catData,
		"This deletes every key under the root (or a whole tree) of a configuration store such as etcd or Consul, which the services reading it depend on.",
		sh(`etcdctl del "" --prefix`, "ETCDCTL_API=3 etcdctl del / --prefix", "etcdctl del --from-key a", "consul kv delete -recurse app/"),
		sh("etcdctl del /app/config/feature-x", "etcdctl del /locks/job- --prefix", "consul kv delete app/config/x", `etcdctl get "" --prefix --keys-only`)},
}

var r7Examples = []moreExamples{
	{"sql-drop", sh("npx prisma migrate reset --force", "pnpm prisma db push --accept-data-loss", "RAILS_ENV=production bin/rails db:drop",
		"bundle exec rake db:drop db:create db:migrate", "php artisan migrate:fresh --force", "alembic downgrade base", "mix ecto.reset",
		"dotnet ef database drop -f", "npx sequelize-cli db:drop", "npx knex migrate:rollback --all", "flyway -url=jdbc:postgresql://db/app clean",
		"php bin/console doctrine:database:drop --force"),
		sh("npx prisma migrate dev --name add_users", "npx prisma db push", "bin/rails db:migrate", "php artisan migrate", "alembic downgrade -1",
			"alembic downgrade base --sql", "mix ecto.migrate", "npx knex migrate:rollback", "bin/rails db:reset --help",
			"php bin/console doctrine:database:drop", "flyway migrate")},
	{"orm-delete-all", sh("python manage.py flush --noinput", "./manage.py flush", "poetry run python manage.py flush"),
		sh("python manage.py migrate", "python manage.py showmigrations", "python manage.py flush --help")},
	{"redis-flush", sh("redis-cli -n 0 --scan | xargs redis-cli del", "redis-cli KEYS '*' | xargs redis-cli UNLINK",
		"redis-cli -h cache --scan --pattern '*' | xargs -L 100 redis-cli -h cache DEL"),
		sh("redis-cli --scan --pattern 'session:*' | xargs redis-cli del", "redis-cli --scan --pattern '*' | wc -l", "redis-cli del cache:home")},
	{"delete-protected-tree", sh("rm -r -f ../../platform/services", "rm -rf ../../shop/apps/web", `rm -rf "${REPO_ROOT}"`, "sudo rm -rf $APP_DIR",
		"rm -rf ~/work/site", "cd ~/code/site && rm -rf -- * .[!.]*", "sudo rm -rf /var/log/nginx"),
		sh("rm -rf ../../shop/node_modules", "rm -r -f ../../monorepo/packages/web/dist", `rm -rf "$PROJECT_DIR/build"`, `rm -rf "${BUILD_DIR}"`,
			"rm -rf ~/projects/blog/site", "rm -rf ../shop-wt/src")},
	{"log-tamper", sh("sudo rm -f /var/log/*.log", "sudo rm /var/log/syslog* /var/log/kern.log*"),
		sh("sudo rm -f /var/log/*.gz", "sudo rm /var/log/myapp/debug.log.1", "sudo find /var/log -name '*.gz' -delete", "rm -f logs/*.log")},
	{"git-clean", sh("git clean -fdx -- src/", "git clean -ffdx ."), sh("git clean -fdx -- build/", "git clean -fx tmp/ dist/", "git clean -fd -- node_modules/")},
	{"py-delete-files", py("list(map(os.remove, glob.glob('/var/lib/mysql/*/*')))", "any(map(os.unlink, Path('/srv/uploads').rglob('*')))"),
		py("list(map(os.remove, glob.glob('build/*.o')))", "list(map(os.path.exists, glob.glob('/var/lib/mysql/*')))",
			"[f.unlink() for f in Path(tmpdir).glob('*.json')]", "for p in Path(tmp_path).iterdir(): p.unlink()")},
	{"log-tamper", py("open('/var/log/auth.log', 'w').close()", "Path('/var/log/secure').write_text('')", "open('/var/log/wtmp', 'wb').truncate(0)"),
		py("open('/tmp/app.log', 'w').close()", "print(open('/var/log/syslog').read()[-2000:])", "open('/var/log/myapp/run.log', 'w').write(out)")},
	{"rm-recursive-force", py(`subprocess.run(f"rm -rf {os.path.dirname(os.getcwd())}", shell=True)`), py(`os.system(f"rm -rf {os.getcwd()}/build")`)},
	{"delete-protected-tree", py("os.system(f'rm -rf {Path.cwd()}')"), py(`subprocess.run(f"rm -rf {tmp}", shell=True)`)},
	{"sql-drop", py("con = sqlite3.connect('app.db'); con.execute('DROP TABLE users')"),
		py("con = sqlite3.connect(':memory:'); con.execute('CREATE TABLE t (x)'); con.execute('DROP TABLE t')",
			`db = sqlite3.connect(":memory:"); db.executescript("CREATE TABLE a(x); DROP TABLE a;")`)},
	{"sql-delete-no-where", sql("DELETE FROM orders WHERE order_id IN (SELECT order_id FROM orders);", "DELETE FROM sessions WHERE EXISTS (SELECT 1);",
		"DO $$ BEGIN DELETE FROM customers; END $$;"),
		sql("DELETE FROM users WHERE id IN (SELECT user_id FROM banned);", "DELETE FROM carts WHERE id IN (SELECT id FROM carts WHERE updated_at < now() - interval '30 days');",
			"DO $$ BEGIN INSERT INTO audit(msg) VALUES ('x'); END $$;", "DELETE FROM t WHERE EXISTS (SELECT 1 FROM holds h WHERE h.t_id = t.id);")},
	{"sql-update-no-where", sql("UPDATE accounts SET balance = 0 WHERE id IN (SELECT id FROM accounts);", "DO $body$ BEGIN UPDATE users SET password = 'x'; END $body$;"),
		sql("UPDATE accounts SET flagged = true WHERE id IN (SELECT account_id FROM fraud);", "DO $$ BEGIN RAISE NOTICE 'hello'; END $$;")},
	{"write-system-file", sh("sudo cp sshd_config /etc/ssh/sshd_config", "sudo cp hosts /etc/hosts", "sudo cp /tmp/x.service /etc/systemd/system/",
		"sudo cp deploy/app.service /etc/systemd/system/ssh.service"),
		sh("sudo cp deploy/app.service /etc/systemd/system/", "sudo mkdir -p /etc/api && sudo cp config/api.toml /etc/api/",
			"sudo install -m 644 contrib/worker.service /etc/systemd/system/worker.service", "sudo cp nginx/shop.conf /etc/nginx/conf.d/")},
	{"py-remove-system", py("Path('/etc/ssh/sshd_config').write_text(cfg)"),
		py("Path('/etc/myapp/config.yaml').write_text(yaml.safe_dump(cfg))", "open('/etc/myservice/settings.ini', 'w').write(text)")},
	{"kill-daemon", sh("kill -9 $(lsof -t -i :5432)", "sudo fuser -k 3306/tcp", "kill $(lsof -ti tcp:27017)", "lsof -t -i :6379 | xargs kill -9"),
		sh("kill -9 $(lsof -t -i :3000)", "fuser -k 8080/tcp", "kill -HUP $(lsof -t -i :5432)", "fuser 5432/tcp", "lsof -i :5432")},
	{"delete-protected-tree", sh("xargs rm -rf < <(git ls-files)", "xargs -a <(git ls-tree -r --name-only HEAD) rm -f", "git ls-files '*.py' | xargs rm"),
		sh("xargs rm -f < <(git ls-files --others --exclude-standard '*.pyc')", "git ls-files -z '*.orig' | xargs -0 rm -f",
			`xargs -0 rm -f < <(find build -name "*.o" -print0)`, "xargs -a files.txt wc -l")},
	{"delete-protected-tree", sh("mv ./my-repo /tmp/trash/", "rm -rf ./api-project", "rm -rf monorepo"),
		sh("rm -rf repo-cache", "rm -rf ./my-repo/node_modules", "rm -f repo.tar.gz", "mv my-repo ../archive/")},
	{"cloud-teardown", sh("s3cmd del --recursive --force s3://prod-logs", "mc rm --recursive --force myminio/backups"),
		sh("s3cmd del s3://bucket/file.txt", "mc rm myminio/tmp/file.txt", "s3cmd ls s3://prod-logs")},
}
