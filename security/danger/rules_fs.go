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
			"while IFS= read -r d; do rm -r \"$d\"; done < <(ls -d ~/mail/*)", "cd ~/code/shop && rm -rf .", "cd src && find -delete"),
		sh("rm -rf node_modules dist build target .pytest_cache", "rm -rf ~/code/shop/node_modules", "rm -rf /tmp/render-99",
			`rm -rf "${OUT_DIR:?}"/*`, `rm -rf "$TMPDIR"/session-*`, "rm -rf ~/.cache/yarn", "rm -rf package-lock.json",
			"rm -rf __pycache__ */__pycache__", "sudo rm -rf /usr/local/node", "rm -rf build-arm64 .tox", "rm -rf ~/go/pkg/mod ~/.m2/repository",
			"find . -name '*.o' -delete", "find ~/Downloads -name '*.part' -delete", "find src -type d -empty -delete",
			"find . -name node_modules -prune -exec rm -rf {} +", "ls *.tmp | xargs rm -f", "for d in packages/*/build; do rm -rf \"$d\"; done",
			"cd ~/code/shop && rm -rf dist", "cd build && rm -rf CMakeFiles", "rm -f .git/index.lock")},
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
