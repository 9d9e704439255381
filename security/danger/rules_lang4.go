package danger

// Rules and examples for server administration in SQL (crash safety,
// recovery history, statements run from strings, MERGE on a constant),
// pg_restore --clean, and code decoded at run time in Python, Node and Ruby.

func init() {
	rules = append(rules, lang4Rules...)
	addExamples(lang4Examples)
}

var lang4Rules = []rule{
	{"sql-crash-safety-off", catData,
		"This turns off the database server's crash safety, or repairs by discarding data, or writes its system catalogs directly: committed data can be lost or corrupted.",
		sql("ALTER SYSTEM SET fsync = off;", "ALTER SYSTEM SET full_page_writes TO 'off';", "alter system set fsync=false",
			"SET GLOBAL innodb_doublewrite = 0;", "SET PERSIST innodb_force_recovery = 6;", "SET zero_damaged_pages = on; ALTER SYSTEM SET zero_damaged_pages = on;",
			"DBCC CHECKDB ('Sales', REPAIR_ALLOW_DATA_LOSS) WITH NO_INFOMSGS;", "UPDATE pg_catalog.pg_database SET datallowconn = false WHERE datname = 'app';",
			"DELETE FROM pg_class WHERE relname = 'orders';"),
		sql("ALTER SYSTEM SET fsync = on;", "ALTER SYSTEM SET synchronous_commit = off;", "SHOW fsync;", "ALTER SYSTEM SET work_mem = '64MB';",
			"SET GLOBAL innodb_force_recovery = 0;", "DBCC CHECKDB ('Sales') WITH NO_INFOMSGS;", "DBCC CHECKDB ('Sales', REPAIR_REBUILD);",
			"SELECT datname, datallowconn FROM pg_database;", "SELECT relname FROM pg_class WHERE relkind = 'r';", "ALTER SYSTEM SET max_connections = 200;")},
	{"sql-purge-history", catData,
		"This deletes the server's binary logs, replication slots or recycle bin: the history replicas, point-in-time recovery or FLASHBACK need.",
		sql("RESET MASTER;", "RESET BINARY LOGS AND GTIDS;", "PURGE BINARY LOGS BEFORE NOW();", "purge master logs before current_timestamp",
			"SELECT pg_drop_replication_slot('standby_1');", "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots;", "PURGE DBA_RECYCLEBIN;"),
		sql("PURGE BINARY LOGS BEFORE NOW() - INTERVAL 7 DAY;", "PURGE BINARY LOGS TO 'mysql-bin.000042';", "SHOW BINARY LOGS;",
			"SELECT slot_name, active FROM pg_replication_slots;", "SELECT pg_create_physical_replication_slot('standby_2');", "RESET QUERY CACHE;", "SHOW RECYCLEBIN;")},
	{"db-restore-clean", catData,
		"This restores a dump with --clean (or --create) into a live database: its objects are dropped first, and what the dump lacks is lost.",
		sh("pg_restore --clean -d production latest.dump", "pg_restore -c -d app_prod /backups/app.dump",
			"sudo -u postgres pg_restore --clean --if-exists --dbname=app backup.tar", "pg_restore -h db.internal -U admin -cd billing nightly.dump",
			"pg_restore -d postgres --clean --create app.dump", "pg_restore --dbname app --clean -j 4 app.dump"),
		sh("pg_restore -d app_restore_tmp --clean latest.dump", "pg_restore --clean latest.dump > restore.sql", "pg_restore -l latest.dump",
			"pg_restore -d app latest.dump", "pg_restore -C -d postgres app.dump", "pg_restore --help", "pg_restore -c -f out.sql latest.dump")},
}

var lang4Examples = []moreExamples{
	{"sql-delete-no-where", sql("MERGE INTO orders t USING (SELECT 1 AS x) s ON (1=1) WHEN MATCHED THEN DELETE;",
		"MERGE orders AS t USING staging AS s ON 1 = 1 WHEN MATCHED THEN DELETE;", "EXEC sp_MSforeachtable 'DELETE FROM ?'",
		"SELECT lo_unlink(oid) FROM pg_largeobject_metadata;"),
		sql("MERGE INTO orders t USING staging s ON t.id = s.id WHEN MATCHED THEN DELETE;",
			"MERGE INTO orders t USING s ON (1=1) WHEN MATCHED AND s.cancelled THEN DELETE;",
			"MERGE INTO t USING s ON 1=1 WHEN NOT MATCHED THEN INSERT VALUES (1);", "SELECT lo_unlink(oid) FROM pg_largeobject_metadata WHERE oid = 16421;")},
	{"sql-delete-no-where", join(sql("SET @q = 'DELETE FROM users'; PREPARE s FROM @q; EXECUTE s;"), irb("ApplicationRecord.connection.execute(\"EXEC sp_MSforeachtable 'DELETE FROM ?'\")")),
		sql("SET @q = 'DELETE FROM users WHERE id = ?'; PREPARE s FROM @q; EXECUTE s USING @id;")},
	{"sql-update-no-where", sql("MERGE INTO customers c USING dual ON (1 = 1) WHEN MATCHED THEN UPDATE SET c.email = NULL;"),
		sql("MERGE INTO customers c USING src ON (c.id = src.id) WHEN MATCHED THEN UPDATE SET c.email = src.email;")},
	{"sql-drop", sql("EXEC sp_MSforeachtable 'DROP TABLE ?'", "EXEC sp_MSforeachdb N'IF ''?'' NOT IN (''master'') DROP DATABASE [?]'",
		"EXEC sp_executesql N'DROP TABLE dbo.Users'", "EXEC('DROP TABLE ' + @name)",
		"DECLARE @s nvarchar(max) = N'DROP TABLE dbo.Orders'; EXEC sp_executesql @s;"),
		sql("DECLARE @s nvarchar(max) = N'SELECT * FROM dbo.Orders'; EXEC sp_executesql @s;", "EXEC sp_MSforeachtable 'UPDATE STATISTICS ? WITH FULLSCAN'", "EXEC sp_MSforeachtable 'SELECT COUNT(*) FROM ?'",
			"EXEC sp_executesql N'SELECT * FROM dbo.Users WHERE id = @id', N'@id int', @id = 3", "EXEC sp_help 'dbo.Users'; SELECT 'DROP TABLE x' AS hint")},
	{"sql-drop", py("def reset(engine):\n    op.drop_table('users')"),
		join(py(`def drop_table(name): return f"DROP TABLE {name}"`), node("function dropTable(name) { console.log('would drop', name) }"))},
	{"py-rmtree", py("def wipe(p):\n    shutil.rmtree(p)\nwipe(os.path.expanduser('~'))"),
		py("def cleanup(d): shutil.rmtree(d, ignore_errors=True)", "def reset(path, keep=False):\n    if not keep: shutil.rmtree(path)")},
	{"orm-delete-all", node("await knex('users').del()", "await db('sessions').truncate()"),
		node("await knex('users').where({ id }).del()", "await knex('users').select('id')")},
	{"sql-truncate", sql("EXEC sp_MSforeachtable @command1 = 'TRUNCATE TABLE ?'"), sql("EXEC sp_MSforeachtable @command1 = 'ALTER INDEX ALL ON ? REBUILD'")},
	{"sql-terminate-backends", sql("ALTER DATABASE Sales SET SINGLE_USER WITH ROLLBACK IMMEDIATE;", "ALTER DATABASE app SET OFFLINE WITH ROLLBACK AFTER 10 SECONDS"),
		sql("ALTER DATABASE Sales SET MULTI_USER;", "ALTER DATABASE app SET RECOVERY SIMPLE;")},
	{"decode-to-shell", join(py("os.system(base64.b64decode(cmd).decode())", "subprocess.run(b64decode(x), shell=True)",
		"exec(codecs.decode(blob, 'rot13'))", "exec(base64.urlsafe_b64decode(p))", "exec(''.join(chr(c) for c in codes))", "subprocess.check_output(binascii.unhexlify(h), shell=True)"),
		node("eval(atob(s))", "new Function(Buffer.from(code, 'base64').toString())()", "vm.runInThisContext(zlib.gunzipSync(buf).toString())"),
		irb("eval(Base64.decode64(s))", "eval(Zlib::Inflate.inflate(Base64.decode64(blob)))", "system(Base64.strict_decode64(cmd))")),
		join(py("os.system(base64.b64decode('bHMgLWxh').decode())", "token = base64.b64decode(parts[1] + '==')",
			"subprocess.run(['curl', '-d', base64.b64decode(body), url])", "codecs.decode(s, 'rot13')",
			"exec(open('scripts/bootstrap.py', 'rb').read().decode('utf-8'))", "print(''.join(chr(c) for c in codes))"),
			node("JSON.parse(atob(tok.split('.')[1]))", "Buffer.from(s, 'base64').toString()", "eval('1 + 1')"),
			irb("JSON.parse(Base64.decode64(tok))", "Base64.decode64(s)", "puts eval('1 + 1')"))},
}
