package danger

import (
	"path"
	"regexp"
	"strings"
)

// Configuration edited inside Vim: a substitution is judged by the line it
// writes, not by its pattern. A line that sets a well-known security setting
// of sshd, Redis, PostgreSQL, MongoDB, MySQL, Elasticsearch, nginx, sudo or
// SELinux to its open value, or that comments out or deletes a setting that
// guards the service, weakens it; the same edit the other way tightens it.

var (
	// vimSubst: [range]s[ubstitute]/pattern/replacement/[flags], with any
	// punctuation as the delimiter.
	vimSubst = regexp.MustCompile(`^[%.$,0-9'<>+-]*s(?:u(?:b(?:stitute)?)?)?([/#@,;!:])(.*)$`)
	// vimGlobalDelete: :g/pattern/d deletes every line the pattern finds.
	vimGlobalDelete = regexp.MustCompile(`^[%.$,0-9]*g(?:lobal)?/(.+)/\s*d(?:el(?:ete)?)?\s*$`)

	// openSetting: a line that sets a security setting to its open value
	// (sshd root or password login, Redis protected-mode off or an empty
	// password, a data store bound to every address, MongoDB or
	// Elasticsearch authorization off, MySQL without its grant tables,
	// nginx basic auth off or access to all, pg_hba trust, SELinux off,
	// anonymous access to an FTP or MQTT server, the Docker API on TCP).
	openSetting = regexp.MustCompile(`(?i)^\s*(?:` +
		`(?:permitrootlogin|passwordauthentication|permitemptypasswords)\s+yes|strictmodes\s+no|` +
		`protected-mode\s+no|requirepass\s*(?:""|'')?\s*$|tls-auth-clients\s+no|` +
		`(?:bind|bind[-_]address|bind_?ip|listen_addresses|network\.host|http\.host|transport\.host)\s*[=:]?\s*["']?(?:0\.0\.0\.0|\*|::|\[::\])["']?(?:\s|,|$)|bindipall\s*[=:]\s*true|` +
		`authorization\s*[=:]\s*["']?disabled|noauth\s*=\s*true|auth\s*=\s*false|xpack\.security\.enabled\s*[=:]\s*false|` +
		`skip[-_]grant[-_]tables|ssl\s*=\s*off|auth_basic\s+off|allow\s+all\s*;|` +
		`(?:local|host\w*)\s.*\strust\s*$|^\s*trust\s*$|selinux\s*=\s*(?:disabled|permissive)|` +
		`(?:anonymous_enable|anon_upload_enable)\s*=\s*yes|allow_anonymous\s+true|` +
		// PAM's pam_permit lets every login through and nullok an empty
		// password; logrotate's rotate 0 and journald's Storage=none keep no
		// log; audit=, selinux=, apparmor= or enforcing=0 on the kernel's
		// command line switch those off at boot
		`.*\bpam_permit\.so|.*\bpam_unix\.so.*\bnullok\b|rotate\s+0\s*$|storage\s*=\s*none\s*$|.*\b(?:audit|selinux|apparmor|enforcing)=0\b)` +
		`|tcp://0\.0\.0\.0:237[56]|NOPASSWD\s*:`)

	// guardSetting: a setting that guards a service, so the line commented
	// out or deleted leaves it open (Redis's and MongoDB's passwords, nginx's
	// basic auth and deny all, sshd's user lists and password login off, a
	// bind to the loopback or a private address, MySQL's skip-networking).
	guardSetting = regexp.MustCompile(`(?i)^\s*(?:requirepass\b|authorization\s*:\s*["']?enabled|auth\s*=\s*true|auth_basic\s+["']|auth_request\s|deny\s+all|` +
		`allowusers\b|allowgroups\b|passwordauthentication\s+no|permitrootlogin\s+no|skip[-_]networking|` +
		`bind(?:[-_]address)?\s*[=:]?\s*["']?(?:127\.|::1|-::1|localhost|10\.|192\.168\.))`)

	// commentMark: what starts a comment in configuration files.
	commentMark = regexp.MustCompile(`^\s*(?:#|;|//|"|--)\s*`)
	// patternSpace: a pattern's runs of white space; patternNoise: the rest
	// of its regex syntax around a setting's name.
	patternSpace = regexp.MustCompile(`\\s(?:\\[+=?]|\*)?|\\S(?:\\[+=?]|\*)?|\[\s*\\t\]\*?`)
	patternNoise = regexp.MustCompile(`\\[?=+<>]|\\\(|\\\)|\.\*|[\^$]|\\v|\\c`)
	// authMethods: pg_hba.conf's methods; replaced by a bare "trust", the
	// connections they checked are let in unchecked.
	authMethods = regexp.MustCompile(`(?i)\b(?:md5|scram-sha-256|password|peer|ident|cert|reject|gss|sspi|ldap|radius|pam)\s*$`)
)

// patternText is the literal text a search pattern finds, as near as the
// pattern allows: ^#\?PermitRootLogin .* finds "#PermitRootLogin ".
func patternText(pat string) string {
	t := patternSpace.ReplaceAllStringFunc(pat, func(m string) string {
		if strings.HasPrefix(m, `\S`) {
			return "x"
		}
		return " "
	})
	t = strings.ReplaceAll(patternNoise.ReplaceAllString(t, ""), `\/`, "/")
	return strings.ReplaceAll(t, `\`, "")
}

// vimGroup: a \( … \) group of a pattern, not nested.
var vimGroup = regexp.MustCompile(`\\\((.*?)\\\)`)

// substLine is the line a substitution writes: the replacement, with & and
// \0 standing for what the pattern found and \1-\9 for its groups.
func substLine(pat, repl string) string {
	found := patternText(pat)
	groups := []string{found}
	for _, g := range vimGroup.FindAllStringSubmatch(pat, 9) {
		groups = append(groups, patternText(g[1]))
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		switch c := repl[i]; {
		case c == '&':
			b.WriteString(found)
		case c == '\\' && i+1 < len(repl):
			i++
			if n := int(repl[i] - '0'); n >= 0 && n <= 9 {
				if n < len(groups) {
					b.WriteString(groups[n])
				}
			} else {
				b.WriteByte(repl[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// weakensSetting judges one substitution or :g delete; file is the buffer
// the command line opened, if it named one.
func weakensSetting(cmd, file string) bool {
	if docFile(file) {
		return false // a README or a how-to quoting a setting is text
	}
	if m := vimGlobalDelete.FindStringSubmatch(cmd); m != nil {
		return guardSetting.MatchString(patternText(m[1]))
	}
	m := vimSubst.FindStringSubmatch(cmd)
	if m == nil {
		return false
	}
	fields := splitUnescaped(m[2], m[1][0])
	if len(fields) < 2 {
		return false
	}
	pat, repl := fields[0], fields[1]
	found := strings.TrimSpace(patternText(pat))
	line := substLine(pat, repl)
	if strings.TrimSpace(line) == "trust" && !authMethods.MatchString(found) {
		return false // a bare trust replaces a method, or nothing that matters
	}
	if openSetting.MatchString(line) && !openSetting.MatchString(found) {
		return true
	}
	// a guard commented out, or replaced by nothing
	if guardSetting.MatchString(found) && !commentMark.MatchString(found) {
		rest := commentMark.ReplaceAllString(line, "")
		return strings.TrimSpace(line) == "" || rest != line && guardSetting.MatchString(rest)
	}
	return false
}

// splitUnescaped splits s at each sep not preceded by a backslash.
func splitUnescaped(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// docFile: a file of prose, where a setting is quoted rather than set.
func docFile(file string) bool {
	switch strings.ToLower(path.Ext(file)) {
	case ".md", ".txt", ".rst", ".adoc", ".html", ".tex", ".org":
		return true
	}
	return false
}

// forcedWriteVerdict judges :w! FILE from a buffer that is not FILE. Without
// the ! Vim refuses to write over an existing file, so the ! says FILE is
// there and is being replaced: a key, a dotfile or a system or service
// configuration loses what it held.
func forcedWriteVerdict(p string) Verdict {
	if v := checkWriteTarget(p); v.Dangerous {
		return v
	}
	if v := overwriteVerdict(p, byCopy); v.Dangerous {
		return v
	}
	clean := path.Clean(p)
	for _, dir := range []string{"/etc/", "/usr/", "/boot/", "/lib/systemd/", "/var/lib/"} {
		if strings.HasPrefix(clean, dir) {
			return hit("write-system-file")
		}
	}
	return Verdict{}
}
