package danger

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Hardening edits of system configuration, judged by effect (tune20): an
// in-place sed substitution whose every written line tightens a setting
// (sshd's password or root login off, a key exchange narrowed), or a
// drop-in file of sshd or sysctl written with tee from a literal whose
// every line is such a setting, strengthens a protection; the same tools
// writing anything else there stay refused (write-system-file).

var (
	// sshdHardening: sshd settings set to their closed value, or settings
	// that only narrow who may log in and how.
	sshdHardening = regexp.MustCompile(`(?i)^\s*(?:` +
		`(?:passwordauthentication|permitemptypasswords|kbdinteractiveauthentication|challengeresponseauthentication|x11forwarding|` +
		`allowtcpforwarding|allowagentforwarding|permittunnel|permituserenvironment|gatewayports|hostbasedauthentication|usedns)\s+no|` +
		`permitrootlogin\s+(?:no|prohibit-password|without-password|forced-commands-only)|pubkeyauthentication\s+yes|strictmodes\s+yes|` +
		`(?:maxauthtries|maxsessions)\s+[1-9]|(?:logingracetime|clientaliveinterval|clientalivecountmax)\s+\d+[smh]?|` +
		`(?:trustedusercakeys|revokedkeys)\s+/etc/ssh/\S+|(?:ciphers|macs|kexalgorithms|hostkeyalgorithms|pubkeyacceptedalgorithms)\s+\S+|` +
		`loglevel\s+(?:verbose|info)|banner\s+/etc/\S+)\s*$`)
	// sysctlHardening: network and kernel settings at their protective value.
	sysctlHardening = regexp.MustCompile(`^\s*(?:` +
		`net\.ipv[46]\.conf\.(?:all|default)\.(?:accept_redirects|secure_redirects|send_redirects|accept_source_route|accept_ra)\s*=\s*0|` +
		`net\.ipv4\.conf\.(?:all|default)\.(?:rp_filter|log_martians)\s*=\s*[12]|` +
		`net\.ipv4\.(?:tcp_syncookies|icmp_echo_ignore_broadcasts|icmp_ignore_bogus_error_responses)\s*=\s*1|` +
		`kernel\.(?:randomize_va_space\s*=\s*2|kptr_restrict\s*=\s*[12]|dmesg_restrict\s*=\s*1|yama\.ptrace_scope\s*=\s*[123]|unprivileged_bpf_disabled\s*=\s*[12])|` +
		`fs\.(?:protected_\w+\s*=\s*[12]|suid_dumpable\s*=\s*0))\s*$`)
	// hardeningDropIn: the drop-in directories whose files only add settings.
	sedFlags        = regexp.MustCompile(`^[gIi0-9]*$`)
	hardeningDropIn = regexp.MustCompile(`^/etc/(?:ssh/sshd_config\.d|sysctl\.d)/[^/]+\.conf$`)
)

// hardeningLines: every non-empty, non-comment line tightens a setting.
func hardeningLines(text string) bool {
	n := 0
	for _, l := range strings.Split(strings.ReplaceAll(text, `\n`, "\n"), "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if !sshdHardening.MatchString(l) && !sysctlHardening.MatchString(l) {
			return false
		}
		n++
	}
	return n > 0
}

// sedHardens: sed -i whose every expression is a substitution writing a
// hardening line (s/^#\?PasswordAuthentication.*/PasswordAuthentication no/).
func sedHardens(c shell.Command) bool {
	scripts := optionValues(c.Args[1:], "-e", "--expression")
	if len(scripts) == 0 {
		ops := shell.ParseOpts(c.Args[1:], "ef").Operands
		if len(ops) == 0 || hasWord(c.Args, "-f") {
			return false
		}
		scripts = []string{ops[0].S}
	}
	for _, s := range scripts {
		m := vimSubst.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		fields := splitUnescaped(m[2], m[1][0])
		// one substitution and its flags; a second command after ; is not read
		if len(fields) != 3 || !sedFlags.MatchString(fields[2]) || weakensSetting(s, "") || !hardeningLines(substLine(fields[0], fields[1])) {
			return false
		}
	}
	return true
}

// teesHardeningDropIn: echo '<hardening lines>' | tee /etc/sysctl.d/x.conf.
func teesHardeningDropIn(stages []*syntax.Stmt) *syntax.CallExpr {
	return echoedIntoTee(stages, func(o shell.Opts, text string) bool {
		return len(o.Operands) == 1 && hardeningDropIn.MatchString(path.Clean(o.Operands[0].S)) && hardeningLines(text)
	})
}

func init() { addHostCheck("sed", checkSedWeakens) }

// checkSedWeakens: sed -i whose substitution weakens a setting of a system
// configuration file (under /etc), judged as the same substitution in vim is.
func checkSedWeakens(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "ef")
	if !o.Has("i", "in-place") {
		return Verdict{}
	}
	scripts := optionValues(c.Args[1:], "-e", "--expression")
	files := o.Operands
	if len(scripts) == 0 && len(files) > 0 {
		scripts, files = []string{files[0].S}, files[1:]
	}
	etc := false
	for _, f := range files {
		etc = etc || strings.HasPrefix(path.Clean(f.S), "/etc/")
	}
	if !etc {
		return Verdict{}
	}
	for _, s := range scripts {
		for _, cmd := range append([]string{s}, strings.Split(s, ";")...) { // whole, then each command
			if weakensSetting(strings.TrimSpace(cmd), "") {
				return hit("config-weakened")
			}
		}
	}
	return Verdict{}
}

// backupSuffix: what a backup copy adds to a file's name (.bak, .orig,
// .bak-20261127, .2026-11-27, ~).
var backupSuffix = regexp.MustCompile(`^(?:[._-]?(?:bak|backup|orig|old|save|saved|pre[-_]?\w*)(?:[._-]?[0-9][0-9T:._-]*)?|[._-](?:19|20)[0-9]{2}[0-9T:._-]*|~)$`)

// copiesToBackup: cp FILE FILE.bak beside it writes a new file and replaces
// nothing (cp -a /etc/pam.d/common-auth /etc/pam.d/common-auth.bak-20261127).
func copiesToBackup(ops []shell.Word, dst string) bool {
	if len(ops) != 2 || ops[0].Dyn() || ops[1].Dyn() {
		return false
	}
	src := path.Clean(ops[0].S)
	dst = path.Clean(dst)
	rest, ok := strings.CutPrefix(dst, src)
	return ok && rest != "" && backupSuffix.MatchString(rest)
}
