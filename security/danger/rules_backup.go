package danger

// Rows of the danger table for the backup tools' restoring and key modes
// (backup_modes.go). Registered in rules.go.

var backupRules = []rule{
	{"restore-over-live", catData,
		"This restores an older copy over live data (or into the root), replacing the files there and, with --delete, deleting what changed since.",
		sh("restic restore latest --target / ", "restic -r /mnt/b restore 4bba301e --target /srv/app --delete", "cd /srv && borg extract ::nightly-2026-01-01",
			"duplicity restore --force b2://k@bucket/www /var/www", "cd / && borg extract /mnt/borg::host-2026-10-01 etc"),
		sh("restic restore latest --target /tmp/restore", "restic restore latest --target /tmp/r --delete", "cd /tmp/borg-restore && borg extract ::nightly",
			"borg extract --dry-run ::nightly", "duplicity restore sftp://u@h//dup/www /srv/www-restore", "duplicity restore --force s3://b/www /tmp/www")},
	{"backup-key-remove", catData,
		"This removes a key from a backup repository; whoever holds only that password can no longer open the backups.",
		sh("restic key remove 5e1a77c0", "restic -r s3:s3.example.com/bk key remove 1a2b3c4d"),
		sh("restic key list", "restic key add --new-password-file pw.txt", "restic key passwd")},
	{"backup-plain", catExpose,
		"This sends an unencrypted backup to another host: whoever can read the remote store reads the data.",
		sh("duplicity --no-encryption /home sftp://u@h//dup/homes", "duplicity full --no-encryption /srv b2://k@bucket/srv"),
		sh("duplicity /home sftp://u@h//dup/homes", "duplicity --no-encryption /home file:///mnt/usb/dup")},
	{"nfs-export-open", catExpose,
		"This shares a filesystem over NFS with every host, writable or with their root kept as root: anyone on the network can read and change it.",
		sh("sudo zfs set sharenfs='rw=*,no_root_squash' tank/shares", "zfs set sharenfs=on tank/home"),
		sh("zfs set sharenfs='ro=@10.20.0.0/24' tank/shares", "zfs set sharenfs=off tank/home", "zfs get sharenfs tank/home")},
	{"transfer-delete", catData,
		"This deletes files on the far side of a transfer (recursively, by wildcard, or by mirroring with --delete), or mirrors a remote tree over live data: what it removes cannot be fetched back.",
		append(unk("rm -r /archive/2025", "glob rm /archive/*.zip", "mirror -R --delete /srv/empty /archive", "put /dev/null /backups/www.tar.zst", "mirror --delete /outgoing /srv/inbox"),
			sh("smbclient //fs/finance -A creds -c 'recurse; prompt; mdel *'", "lftp -c 'open sftp://h; mirror -R --delete ./empty /backups'")...),
		append(unk("rm /incoming/.upload-lock", "rmdir /backups/2023", "mirror --dry-run --delete /outgoing /srv/inbox", "mirror -R --only-newer /srv/out /incoming", "rm /backups/upload-test.tmp"),
			sh("smbclient //fs/finance -A creds -c 'ls'", "lftp -c 'open sftp://h; mirror -R ./site /www'")...)},
}
