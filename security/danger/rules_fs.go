package danger

// fsRules are the rows of the filesystem effect model (fsclass.go): what a
// deletion or overwrite would destroy, judged by the class of its target.
var fsRules = []rule{
	{"delete-protected-tree", catDelete,
		"This recursively deletes a project tree, repository state, home directory, mounted volume or service data (not a build, cache or temporary artifact), which cannot be undone.",
		sh("rm -rf ~/code/shop", "rm -r -f lib/ app/", "rm --recursive --force ./website", "rm -rf .git", "rm -rf ~/Pictures/2019",
			"rm -rf /srv/minio", "sudo rm -rf /var/lib/mysql/data", "rm -rf /media/alice/SDCARD/*", `rm -rf "$PWD"`, "rm -rf $(pwd)/",
			"rm -rf ~/.[!.]*", "rm -rf ../../website", `rm -rf "$OLDPWD"/src`, "rm -fr /home/bob/music",
			// find, xargs, loops and cd resolve to the same targets
			"find . -name '*.ts' -delete", "find ~/music -type f -exec rm {} +", "find /srv/share ! -name '*.keep' -delete",
			"find ~/code -maxdepth 1 -name 'app*' | xargs rm -rf", "ls -d ~/Desktop/* | xargs rm -rf",
			"for p in ~/work/*; do rm -rf \"$p\"; done", "find ~/code -type d | while read -r d; do rm -rf \"$d\"; done",
			"while IFS= read -r d; do rm -r \"$d\"; done < <(ls -d ~/mail/*)", "cd ~/code/shop && rm -rf .", "cd src && find -delete",
			// wrappers and interpreters looked through
			"script -c 'rm -rf ~/thesis' /dev/null", "tmux new-session -d 'rm -rf /srv/gitea'", "screen -dm rm -rf ~/Music",
			"setpriv --reuid 1000 rm -rf ~/mail", "nsenter -t 42 -m rm -rf /var/lib/redis/dump", "parallel rm -rf {} ::: ~/a ~/b",
			"echo 'rm -rf ~/code' | batch", "at midnight <<< 'rm -rf /srv/ftp'", "git -c alias.nuke='!rm -rf src' nuke",
			"docker exec web rm -rf /var/www/uploads", "kubectl exec pg-0 -- sh -c 'rm -rf /var/lib/postgresql/15/*'",
			"watch 'rm -rf ~/inbox'", "flock /tmp/lk -c 'rm -rf ~/notes'", "perl -MFile::Path=rmtree -e 'rmtree(\"$ENV{HOME}/mail\")'",
			"ruby -rfileutils -e 'FileUtils.rm_rf(Dir.home + \"/notes\")'", "node -e \"fs.rmSync('src', {recursive: true})\"",
			"awk 'BEGIN { system(\"rm -rf ~/code\") }' /dev/null"),
		sh("rm -rf node_modules dist build target .pytest_cache", "rm -rf ~/code/shop/node_modules", "rm -rf /tmp/render-99",
			`rm -rf "${OUT_DIR:?}"/*`, `rm -rf "$TMPDIR"/session-*`, "rm -rf ~/.cache/yarn", "rm -rf package-lock.json",
			"rm -rf __pycache__ */__pycache__", "sudo rm -rf /usr/local/node", "rm -rf build-arm64 .tox", "rm -rf ~/go/pkg/mod ~/.m2/repository",
			"find . -name '*.o' -delete", "find ~/Downloads -name '*.part' -delete", "find src -type d -empty -delete",
			"find . -name node_modules -prune -exec rm -rf {} +", "ls *.tmp | xargs rm -f", "for d in packages/*/build; do rm -rf \"$d\"; done",
			"cd ~/code/shop && rm -rf dist", "cd build && rm -rf CMakeFiles", "rm -f .git/index.lock",
			"tmux new -s work", "screen -dmS srv ./server", "parallel rm -f ::: a.log b.log", "echo 'make report' | at now + 1 hour",
			"git -c alias.st=status st", "docker exec web ls /var/www", "kubectl exec pg-0 -- psql -c 'select 1'",
			"node -e \"fs.rmSync('coverage', {recursive: true, force: true})\"", "perl -e 'unlink glob(\"*.tmp\")'",
			"awk '{ print $1 }' access.log", "watch -n 2 'ls -la'")},
	{"delete-credentials", catDelete,
		"This deletes or wipes keys, credentials or a database file, which cannot be recovered.",
		sh("rm ~/.ssh/id_rsa", "rm -f .env.production", "shred -u ~/.aws/credentials", "rm -f data/production.sqlite3", "sudo rm /var/lib/grafana/grafana.db", "rm ~/.ssh/id_ed25519_work"),
		sh("rm -f .env.example", "rm -f ~/.ssh/known_hosts.old", "rm -f coverage.out", "rm notes.txt", "rm -f dev.sqlite3 certs/server.key")},
	{"overwrite-protected", catData,
		"This truncates or replaces a key, credential file, shell or tool dotfile, or database file, destroying its contents.",
		sh("> ~/.ssh/id_ed25519", ": > .env", "echo > ~/.profile", "truncate -s0 ~/.docker/config.json", "cp /dev/null ~/.aws/config",
			"dd if=/dev/zero of=store/orders.sqlite bs=512 count=4", "echo '[default]' | tee ~/.aws/credentials", "cat /dev/null > ~/.gitconfig",
			"cp settings.ini ~/.pgpass", "openssl req -x509 -newkey rsa:2048 -keyout k.pem -out ~/.ssh/id_rsa"),
		sh("echo 'alias ll=ls' >> ~/.bashrc", "cp -n .env.sample .env", "cat > .env <<EOF\nPORT=3000\nEOF", "> build/.stamp",
			"truncate -s 0 logs/app.log", "echo x | tee -a ~/.zshrc", "cp ~/.ssh/id_ed25519.pub ./deploy.pub", "cp id.pub ~/.ssh/")},
	{"overwrite-own-input", catData,
		"This truncates a file before the same command reads it (the shell empties the redirection target first), so its contents are lost.",
		sh("sort words.txt > words.txt", "jq '.version = \"2\"' package.json > package.json", "grep -v DEBUG app.conf > app.conf",
			"uniq < ids.txt > ids.txt"),
		sh("sort words.txt > words.sorted", "jq . package.json > /tmp/p.json && mv /tmp/p.json package.json", "sort -o words.txt words.txt",
			"echo words.txt > words.txt")},
}

func init() { rules = append(rules, fsRules...) }
