package danger

// Examples for the classes of tune9 (rarer options and option spellings):
// extraction into the directory an earlier cd chose, cpio's unconditional
// extraction, query output sent to a file named as a database.

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
}
