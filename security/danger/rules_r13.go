package danger

// Examples for the classes of tune9 (rarer options and option spellings):
// extraction into the directory an earlier cd chose, cpio's unconditional
// extraction, query output sent to a file named as a database, Python's listings bound
// by with and emptied by os.truncate.

func init() {
	addExamples(r13Examples)
}

var r13Examples = []moreExamples{
	{"overwrite-protected", sh("cd && bsdtar -xf /srv/backups/dotfiles-2022.tar", "cd ~/src/shop && tar xf ../shop-backup.tgz --overwrite",
		"cpio -i -u -d -D ~ < /mnt/usb/home.cpio", "cd /home/ana && cpio --extract --unconditional < /srv/backups/ana.cpio"),
		sh("cd ~/src/shop && tar xf ../vendor-assets.tgz", "cd /tmp/unpack && tar -xf ~/Downloads/shop-backup.tgz --overwrite", "cd ~ && tar -tf old.tar",
			"cd ~/src/shop && cpio -idm < ../shop-backup.cpio", "cd /tmp/cp && cpio -idmu < ~/shop.cpio", "cd ~ && tar -xf x.tar -C ~/scratch", "cpio -t < ~/home.cpio")},
	{"write-system-file", sh("cd /etc && sudo tar -xpf ~/conf.tar", "cd / && unzip -o rootfs.zip", "cd /etc && sudo cpio -idu < etc.cpio"),
		sh("cd /etc && tar -cf ~/conf.tar .", "cd / && tar -tvf rootfs.tar", "cd /opt && sudo tar -xzf ~/go.tgz")},
	{"overwrite-protected", sql(".once shop.sqlite3", "\\o orders.db", ".output 'data/app.db'\nSELECT * FROM t;"),
		sql(".output dump.sql", "\\o report.txt", ".once orders.csv", ".output stdout")},
	{"py-delete-files", py("with os.scandir('lib') as entries:\n    for entry in entries:\n        os.remove(entry.path)",
		"import os\nwith os.scandir(os.path.expanduser('~/notes')) as d:\n    for x in d:\n        if x.is_file(): os.unlink(x.path)"),
		py("with os.scandir('lib') as entries:\n    for entry in entries:\n        print(entry.name, entry.stat().st_size)",
			"with os.scandir('/tmp/run-42') as d:\n    for x in d:\n        os.unlink(x.path)")},
	{"log-tamper", py("[os.truncate(os.path.join('/var/log/nginx', n), 0) for n in os.listdir('/var/log/nginx')]",
		"for e in os.scandir('/var/log'):\n    if e.is_file(): os.truncate(e.path, 0)"),
		py("[os.path.getsize(os.path.join('/var/log', n)) for n in os.listdir('/var/log')]", "for e in os.scandir('/var/log'):\n    print(e.name)")},
}
