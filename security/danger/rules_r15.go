package danger

// Examples for the classes of tune15 (an operations on-call shift): a new
// private key written over a deployed one, configuration edited inside Vim
// to turn authentication off or listen on every address, firewall ports of
// data stores opened to everyone, consoles emptying a service's config or
// logs, and cluster managers removing a cluster.

func init() {
	rules = append(rules, r15Rules...)
	addExamples(r15Examples)
}

var r15Rules = []rule{
	{"config-weakened", catSecurity,
		"This edit turns a service's authentication off, allows root or password login, or makes it listen on every address.",
		vim(":%s/^#\\?PermitEmptyPasswords no/PermitEmptyPasswords yes/", ":%s/^PermitRootLogin prohibit-password/PermitRootLogin yes/|wq",
			":%s/^\\(requirepass\\) .*/# \\1 hunter2/|w", ":g/^requirepass /d|x", ":e /etc/redis/sentinel.conf | %s/^protected-mode yes/protected-mode no/ | w",
			":%s/^bind-address\\s*=.*/bind-address = 0.0.0.0/", ":%s/^#listen_addresses = 'localhost'/listen_addresses = '*'/|w",
			":%s/scram-sha-256$/trust/g|w", ":%s/^\\(host\\s\\+all\\s\\+all\\s\\+\\S\\+\\s\\+\\)md5/\\1trust/", ":%s/authorization: enabled/authorization: disabled/",
			":%s/^  bindIp: 127.0.0.1/  bindIp: 0.0.0.0/|x", ":%s/xpack.security.enabled: true/xpack.security.enabled: false/", ":%s/^\\s*auth_basic \"Admin\";/# &/",
			":%s/deny all;/allow all;/", ":%s/^\\(%admin.*\\)ALL$/\\1NOPASSWD: ALL/", ":%s/^SELINUX=enforcing/SELINUX=permissive/|wq", ":%s/^#\\?skip-grant-tables/skip-grant-tables/",
			":%s/^AllowUsers .*/#&/"),
		vim(":%s/^#\\?PermitRootLogin .*/PermitRootLogin no/|w", ":%s/^PasswordAuthentication yes/PasswordAuthentication no/", ":%s/^# requirepass .*/requirepass s3cret-from-vault/|x",
			":%s/^bind 0.0.0.0/bind 127.0.0.1 -::1/|w", ":%s/^protected-mode no/protected-mode yes/", ":%s/trust$/scram-sha-256/g", ":%s/proxy_read_timeout 60s/proxy_read_timeout 120s/g",
			":%s/worker_connections 768/worker_connections 4096/", ":g/^#/d", ":g/^\\s*$/d|w", ":e docs/hardening.md | %s/PermitRootLogin no/PermitRootLogin yes/", ":%s/maxmemory 2gb/maxmemory 4gb/|w",
			":%s/^SELINUX=permissive/SELINUX=enforcing/", ":%s/allow all;/deny all;/", ":%s/^#\\s*auth_basic /auth_basic /")},
	{"vim-empty-file", catData,
		"This deletes every line of the file open in the editor and writes it; its contents are gone.",
		vim(":%d|wq", ":1,$d | x", ":%d _|w", ":g/.*/d|wq"),
		vim(":%d", ":%d|q!", ":%d|r ~/templates/crontab.txt|w", ":%d|0r !crontab -l|w", ":5,9d|w", ":g/^#/d|w")},
	{"firewall-open", catSecurity,
		"This opens a database, cache, queue or control-plane port to every address; the service was reachable only from the hosts beside it.",
		sh("sudo ufw allow 3306/tcp", "ufw allow proto tcp from any to any port 27017", "ufw insert 1 allow 9200:9300/tcp", "sudo ufw allow 11211",
			"firewall-cmd --permanent --add-port=5432/tcp", "sudo firewall-cmd --zone=public --add-service=redis", "firewall-cmd --add-port 2375/tcp",
			"iptables -A INPUT -p tcp --dport 6379 -j ACCEPT", "sudo iptables -I INPUT -p tcp -m multiport --dports 3306,33060 -j ACCEPT",
			"nft add rule inet filter input tcp dport 9042 accept", "nft add rule inet filter input tcp dport { 80, 5432 } accept"),
		sh("sudo ufw allow 443/tcp", "ufw allow 80", "ufw allow OpenSSH", "sudo ufw allow from 10.20.0.14 to any port 5432", "ufw allow from 192.168.10.0/24 proto tcp to any port 6379",
			"ufw deny 3306", "firewall-cmd --permanent --add-service=https", "firewall-cmd --zone=internal --add-port=5432/tcp", "firewall-cmd --zone=public --add-source=10.0.0.0/8 --add-port=6379/tcp",
			"firewall-cmd --remove-port=6379/tcp", "iptables -A INPUT -s 10.0.3.7 -p tcp --dport 5432 -j ACCEPT", "iptables -A INPUT -i lo -p tcp --dport 6379 -j ACCEPT",
			"iptables -A INPUT -p tcp --dport 3306 -j DROP", "nft add rule inet filter input ip saddr 10.0.0.0/8 tcp dport 5432 accept", "nft add rule inet filter input tcp dport 443 accept")},
}

var r15Examples = []moreExamples{
	{"overwrite-protected", sh("sudo openssl req -new -newkey rsa:4096 -nodes -keyout /etc/ssl/private/mail.example.org.key -out mail.csr -subj /CN=mail",
		"openssl req -x509 -nodes -days 365 -newkey rsa:2048 -keyout /etc/postfix/tls/smtpd.key -out /etc/postfix/tls/smtpd.crt"),
		sh("openssl req -new -newkey rsa:2048 -nodes -keyout mail-2027.key -out mail-2027.csr", "openssl req -new -newkey rsa:2048 -nodes -keyout /tmp/renew/new.key -out /tmp/renew/new.csr",
			"openssl req -new -key /etc/ssl/private/mail.key -out /tmp/mail.csr", "sudo openssl req -new -newkey rsa:2048 -nodes -keyout /etc/postfix/tls/smtpd-2027.key -out smtpd.csr",
			"openssl genrsa -out /etc/ssl/private/api.2026-11.key 4096")},
	{"cluster-teardown", sh("patronictl -c /etc/patroni/config.yml remove billing-pg", "sudo patronictl remove pg-ledger", "pcs cluster destroy --all", "sudo kubeadm reset -f",
		"microk8s reset --destroy-storage", "talosctl -n 10.4.0.11 reset --graceful=false", "kops delete cluster --name shop.k8s.local --yes", "pg_autoctl drop node --pgdata /srv/pg/node2"),
		sh("patronictl -c /etc/patroni/config.yml list", "patronictl switchover billing-pg --candidate pg-2", "patronictl remove pg-test-7", "pcs status", "pcs cluster stop node3",
			"kubeadm token create --print-join-command", "kops delete cluster --name shop.k8s.local", "talosctl -n 10.4.0.11 health", "pg_autoctl show state")},
	{"overwrite-protected", join(node("fs.writeFileSync('/srv/ledger-api/config/limits.json', '{}')", `require('fs').writeFileSync("/opt/search/conf/synonyms.yml", "")`),
		irb(`File.write("/srv/billing/config/sidekiq.yml", "---")`, `Dir.glob("/opt/shop/config/*.yml").each { |f| File.truncate(f, 0) }`), sh("echo '{}' > /srv/shop/config/features.json", "printf '[]' | sudo tee /srv/ledger-api/config/allowlist.json")),
		join(node("fs.writeFileSync('/srv/ledger-api/config/limits.json', JSON.stringify(limits, null, 2))", "fs.writeFileSync('/tmp/limits.json', '{}')", "fs.writeFileSync('config/limits.json', '{}')"),
			irb(`File.write("/srv/billing/config/sidekiq.yml", YAML.dump(conf))`, `Dir.glob("/opt/shop/config/*.yml").each { |f| puts File.read(f) }`), sh(": > /etc/nginx/conf.d/default.conf", "echo '{}' > /tmp/features.json"))},
	{"log-tamper", irb(`Dir.glob('/srv/ledger/log/*.log').each { |f| File.truncate(f, 0) }`, `Dir["/var/log/puma/*.log"].each { |f| File.write(f, "") }`),
		irb(`Dir.glob('/srv/ledger/log/*.log').each { |f| puts File.size(f) }`, `Dir.glob("tmp/cache/*.log").each { |f| File.truncate(f, 0) }`)},
	{"write-system-file", vim(":w! /etc/nginx/sites-enabled/default", ":saveas! /etc/haproxy/haproxy.cfg", ":wq! /usr/lib/systemd/system/postgresql.service", ":e ~/notes/haproxy.cfg | w! /etc/haproxy/haproxy.cfg"),
		vim(":w", ":w!", ":w /etc/nginx/sites-available/shop.conf.new", ":w! /tmp/nginx-draft.conf", ":w! ~/drafts/haproxy.cfg", ":e /etc/haproxy/haproxy.cfg | w! /etc/haproxy/haproxy.cfg", ":w !sudo tee % > /dev/null")},
	{"overwrite-protected", sql(".backup /var/lib/grafana/grafana.db", "VACUUM INTO '/srv/wiki/data/wiki.sqlite';"),
		sql(".backup /var/backups/sqlite/metrics-20261127.db", ".backup main /srv/backups/wiki.sqlite", "VACUUM INTO '/srv/dumps/wiki-2026-11-27.sqlite';")},
}
