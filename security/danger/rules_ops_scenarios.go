package danger

// Rows of the danger table for the effects that walking through an agent's
// scenarios showed missing (see checks_ops_scenarios.go). Registered in rules.go.

var opsScenarioRules = []rule{
	{"remove-system-package", catAvail,
		"This removes a package the system needs to boot, to let anyone log in remotely or become root, or to install packages again.",
		sh("sudo apt-get purge -y openssh-server", "apt remove --purge systemd", "sudo dnf remove -y sudo", "yum erase kernel-core", "pacman -Rns linux-image-6.1.0-18-amd64",
			"ssh web1 'sudo apt-get -y remove openssh-server'", "apk del musl", "sudo dpkg -P libc6"),
		sh("sudo apt-get remove -y htop", "apt purge -y nginx", "sudo apt autoremove -y", "dnf remove -y kernel-devel", "apt-get install -y openssh-server",
			"apt remove --simulate sudo", "pacman -Rns linux-headers", "sudo apt-get remove --dry-run systemd")},
	{"run-from-scratch", catPersist,
		"This makes code kept in a temporary, world-writable directory run by itself from now on: at every boot, every git commit, or in every program this shell starts.",
		sh("sudo systemctl enable /tmp/x.service", "systemctl link /dev/shm/job.service", "systemctl --user enable --now /tmp/miner.service", "sudo systemctl reenable /var/tmp/agent.service",
			"git config --global core.hooksPath /tmp/hooks", "git config core.fsmonitor /dev/shm/fsm", "export LD_PRELOAD=/tmp/hook.so"),
		sh("sudo systemctl enable --now /etc/systemd/system/myapp.service", "systemctl --user link ~/proj/dev.service", "systemctl enable nginx", "systemctl cat /tmp/x.service",
			"git config core.hooksPath .githooks", "git config --get core.hooksPath", "export LD_PRELOAD=./build/libtrace.so", "export TMPDIR=/tmp/build")},
	{"secret-key-delete", catData,
		"This deletes a private key; without a backup, whatever was encrypted to it can no longer be read and its signatures no longer made.",
		sh("gpg --delete-secret-keys ABCD1234", "gpg --batch --yes --delete-secret-and-public-key ops@example.com", "gpg2 --delete-secret-key 0xDEADBEEF"),
		sh("gpg --list-secret-keys", "gpg --delete-keys ABCD1234", "gpg --export-secret-keys -a ABCD1234 > backup.asc", "gpg --gen-key")},
	{"ssh-reverse-tunnel", catRemote,
		"This forwards a port of another host or a public tunnel service back into this machine, opening a way in from the far side.",
		sh("ssh -R 2222:localhost:22 user@vps.example.com", "ssh -fN -R 0.0.0.0:8022:localhost:22 relay.example.net", "autossh -M 0 -R 9000:127.0.0.1:5432 ops@203.0.113.8",
			"ssh -NR 8080:localhost:80 gw.example.org", "ssh -o RemoteForward='2200 localhost:22' bastion.example.com",
			"ngrok tcp 22", "chisel client 203.0.113.9:8080 R:socks"),
		sh("ssh -L 5432:localhost:5432 bastion", "ssh -N -L 8080:10.0.0.5:80 bastion", "ssh -R 9000:localhost:9000 localhost", "ssh -D 1080 proxy.example.com", "ssh -i ~/.ssh/id_ed25519 -p 2222 git@example.com", "ngrok http 3000", "ngrok tcp 5432", "chisel client 203.0.113.9:8080 3000:db:5432")},
	{"kubectl-scale-all", catAvail,
		"This scales every workload to zero replicas at once, taking the whole namespace (or cluster) down.",
		sh("kubectl scale deploy --all --replicas=0 -n prod", "kubectl scale statefulset --all --replicas 0", "oc scale dc --all --replicas=0 -n shop", "kubectl get deploy -o name | xargs kubectl scale --replicas=0"),
		sh("kubectl scale deploy web --replicas=0 -n dev-alice", "kubectl scale deploy --all --replicas=2", "kubectl scale sts redis --replicas=3", "kubectl get deploy --all-namespaces")},
	{"backup-delete", catData,
		"This deletes backups or snapshots (or makes a remote copy mirror an emptier source), so what they held cannot be restored.",
		sh("borg delete /backup::all", "borg delete ssh://b@host/./repo", "borg prune --keep-last=1 /backup", "restic forget 4bba301e 79766175", "restic -r s3:s3.example.com/bk forget --keep-last 1 --prune",
			"rclone purge remote:backups", "rclone sync ./empty remote:backups", "rclone delete b2:archive/2024", "tmutil delete -d /Volumes/Backup -t 2024-01-01-120000"),
		sh("borg list /backup", "borg create /backup::{now} ~/src", "borg delete --dry-run /backup::old", "restic snapshots", "restic forget --keep-daily 7 --keep-weekly 4 --prune",
			"rclone copy remote:backups ./restore", "rclone sync remote:backups ./restore", "rclone sync ./site remote:tmp-preview", "rclone sync --dry-run ./a remote:b")},
}
