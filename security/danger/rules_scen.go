package danger

// scenExamples: inputs from whole sessions (resetting a dev database, a
// Rails or Django console, cloud cleanup from boto3) that the rules must
// catch, beside the ordinary steps of the same session that must pass.
var scenExamples = []moreExamples{
	{"sql-drop", join(irb("Rake::Task['db:drop'].invoke", "Rake::Task[\"db:schema:load\"].execute"),
		py("df.to_sql('users', engine, if_exists='replace')", "orders.to_sql(name='orders', con=engine, if_exists='replace', index=False)"),
		node("await prisma.$executeRaw`DROP TABLE \"User\"`")),
		join(irb("Rake::Task['db:migrate'].invoke", "Rake::Task['assets:precompile'].invoke"),
			py("df.to_sql('users_staging', engine, if_exists='replace')", "df.to_sql('users', engine, if_exists='append', index=False)"),
			node("await prisma.$queryRaw`SELECT * FROM \"User\" WHERE id = ${id}`"))},
	{"orm-delete-all", py("call_command('flush', interactive=False)", "User.objects.filter().delete()"),
		py("call_command('migrate')", "call_command('collectstatic', interactive=False)", "User.objects.filter(is_test=True).delete()")},
	{"sql-delete-no-where", sql("DELETE FROM users;", "delete from notes"), sql("DELETE FROM tmp_import;", "DELETE FROM staging_tmp")},
	{"repl-delete-tree", irb("FileUtils.rm_rf(Rails.root)", "FileUtils.rm_rf(Rails.root.join('db'))"),
		irb("FileUtils.rm_rf(Rails.root.join('tmp', 'cache'))", "FileUtils.rm_rf(Rails.root.join('log'))")},
	{"kill-all", py("for p in psutil.process_iter(): p.pid != os.getpid() and p.kill()"),
		py("for p in psutil.process_iter(['name']): (p.info['name'] == 'myworker') and p.terminate()",
			"[p.kill() for p in psutil.process_iter(['name']) if p.info['name'] in ('chrome', 'chromedriver')]")},
	{"sdk-bulk-delete", py("for q in sqs.list_queues()['QueueUrls']: sqs.delete_queue(QueueUrl=q)", "for t in dynamodb.tables.all(): t.delete()"),
		py("for b in bucket.list_blobs(prefix='tmp/'): b.delete()", "for q in sqs.list_queues(QueueNamePrefix='tmp-')['QueueUrls']: print(q)")},
	{"cloud-teardown", py("boto3.client('iam').delete_user(UserName='deploy')", "iam.delete_role(RoleName='ci-deployer')"),
		py("api.delete_user(user_id)", "boto3.client('iam').list_users()")},
	{"sql-superuser", sql("SET PASSWORD FOR 'root'@'localhost' = '';"), sql("SET PASSWORD FOR 'app'@'%' = 'n3w-s3cret';", "UPDATE users SET password = '' WHERE id = 3")},
	{"kill-init", gdb("call (int)kill(1, 9)"), gdb("call kill(4321, 15)", "signal SIGCONT")},
	{"kill-all", gdb("print kill(-1, 9)"), gdb("kill")},
	{"redis-flush", join(node("await redis.flushall()"), irb("Redis.new.flushdb")), join(node("await redis.del('session:123')"), py("cache.delete('user:1')"))},
	{"py-delete-files", py("for f in downloads.glob('*'): f.unlink()"),
		py("for f in downloads.glob('*.dmg'): f.unlink()", "for f in logs_dir.rglob('*.gz'): f.unlink()")},
	{"code-destroy-file", py("Path('.env').write_text('')", "Path('.env').write_text(Path('.env.example').read_text())", "os.remove('.env')"),
		py("Path('.env').write_text(Path('.env').read_text().replace(old, new))", "os.remove('.env.bak')",
			"os.remove(os.path.expanduser('~/.ssh/id_rsa.old'))")},
	{"redis-flush", py("for k in r.scan_iter('*'): r.delete(k)", "[r.delete(k) for k in r.keys()]"),
		py("for k in r.scan_iter('cache:*'): r.delete(k)", "[r.delete(k) for k in r.keys('session:*')]", "d = {k: v for k, v in cfg.keys()}; d.pop('x')")},
	{"sql-drop", sql("DROP SCHEMA analytics CASCADE;", "DROP DATABASE demo WITH (FORCE);"), sql("DROP SCHEMA IF EXISTS tmp_load CASCADE;", "DROP DATABASE IF EXISTS demo_tmp;")},
	{"mongo-drop", py("db.users.drop()", "client.drop_database('prod')", "db.tmp_import.drop(); db.users.drop()"),
		py("db.tmp_import.drop()", "client.drop_database('tmp_e2e')", "db['import_tmp'].drop()")},
}
