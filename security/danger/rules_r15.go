package danger

// Examples for the classes of tune15 (an operations on-call shift): a new
// private key written over a deployed one, configuration edited inside Vim
// to turn authentication off or listen on every address, firewall ports of
// data stores opened to everyone, consoles emptying a service's config or
// logs, and cluster managers removing a cluster.

func init() {
	addExamples(r15Examples)
}

var r15Examples = []moreExamples{
	{"overwrite-protected", sh("sudo openssl req -new -newkey rsa:4096 -nodes -keyout /etc/ssl/private/mail.example.org.key -out mail.csr -subj /CN=mail",
		"openssl req -x509 -nodes -days 365 -newkey rsa:2048 -keyout /etc/postfix/tls/smtpd.key -out /etc/postfix/tls/smtpd.crt"),
		sh("openssl req -new -newkey rsa:2048 -nodes -keyout mail-2027.key -out mail-2027.csr", "openssl req -new -newkey rsa:2048 -nodes -keyout /tmp/renew/new.key -out /tmp/renew/new.csr",
			"openssl req -new -key /etc/ssl/private/mail.key -out /tmp/mail.csr")},
}
