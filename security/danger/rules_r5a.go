package danger

// Rules and examples from round-5 shell probes: an SQL client's shell escape
// that deletes the database file it has open.

func init() {
	rules = append(rules, r5aRules...)
	addExamples(r5aExamples)
}

// r5aExamples: more examples for existing rules.
var r5aExamples = []moreExamples{
	{"delete-protected-tree", sh("NODE_ENV=production rm -rf /opt/app/current/", "sudo rm -rf /home/deploy/apps/shop/shared/*", "cd /opt/api && sudo rm -rf current"),
		sh("sudo rm -rf /opt/app/releases/20240101120000", "rm -rf /opt/app/current/node_modules", "rm -rf /opt/app/shared/log/*", "rm -rf ./current")},
	{"git-delete-remote-branch", sh("git tag -l | xargs git push origin --delete", "git branch -r | grep -v main | sed 's/origin\\///' | xargs -n1 git push origin --delete"),
		sh("git branch --merged | grep -v main | xargs -n1 git branch -d")},
	{"cluster-teardown", sh("helm ls -q -n prod | xargs -L1 helm uninstall -n prod"), sh("helm ls -q -n prod | xargs -L1 helm status -n prod")},
	{"container-teardown", sh("docker ps -q | xargs docker kill"), sh("docker images -f dangling=true -q | xargs docker rmi", "docker ps -q | xargs docker inspect")},
	{"kill-daemon", sh("sudo killall -9 nginx", "sudo killall -s KILL postgres", "sudo pkill --signal TERM sshd"),
		sh("killall -HUP nginx", "sudo pkill -USR1 nginx", "sudo killall -s HUP rsyslogd", "pkill --signal=SIGHUP sshd", "sudo killall -0 postgres")},
}

var r5aRules = []rule{
	{"sql-escape-delete-db", catData,
		"This runs a shell from the database client to delete or empty a database file: the database it holds is gone, like DROP DATABASE.",
		sql(".shell rm -f app.db", "  .system rm app.sqlite3 app.sqlite3-wal", ".shell cd data && rm -f app.db", ".system unlink dev.sqlite3",
			"\\! rm -f orders.db3", ".open app.db\n.shell cp app.db /tmp/ && rm app.db"),
		sql(".shell ls -la", ".shell cp app.db app.db.bak", ".system rm -f app.db-journal.tmp", ".shell rm -f export.csv", ".open app.db", ".backup backup.db",
			"\\! cat dump.sql")},
}
