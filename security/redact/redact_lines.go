package redact

import "strings"

// passwordFlags: commands whose short option takes a password, found by a
// word of the command's name (mysql covers mysqldump and mysqladmin, ldap
// covers ldapsearch and ldapmodify). glued: the value follows the flag with no
// space (mysql -pS3cret: -p alone asks for it); other programs' flags of the
// same letter mean something else, so only these commands are looked at.
var passwordFlags = []struct {
	cmd, flag string // flag with the space before it
	glued     bool
}{
	{"mysql", " -p", true}, {"mariadb", " -p", true},
	{"sshpass", " -p", false}, {"redis-cli", " -a", false}, {"ldap", " -w", false},
	{"login", " -p", false}, // docker, podman, helm registry, cf, oras login -p x
}

// findPasswordFlag: the password given to one of passwordFlags' options on the
// command line that holds the hit.
func findPasswordFlag(f *finding, hit int) (span, bool) {
	s := f.s
	_, le := lineAt(s, hit)
	for _, pf := range passwordFlags {
		if len(s)-hit < len(pf.cmd) || !strings.EqualFold(s[hit:hit+len(pf.cmd)], pf.cmd) {
			continue
		}
		for i := hit; ; {
			k := strings.Index(s[i:le], pf.flag)
			if k < 0 {
				break
			}
			vs := i + k + len(pf.flag)
			i = vs
			if !pf.glued {
				if vs >= le || s[vs] != ' ' && s[vs] != '\t' {
					continue
				}
				for vs < le && (s[vs] == ' ' || s[vs] == '\t') {
					vs++
				}
			}
			if vs < le && (s[vs] == '\'' || s[vs] == '"') {
				e := strings.IndexByte(s[vs+1:le], s[vs])
				if e < 0 && f.atEnd && le == len(s) && le > vs+1 {
					return span{vs + 1, le, "password"}, true // cut before its closing quote
				}
				if e > 0 && !placeholder(s[vs+1:vs+1+e]) {
					return span{vs + 1, vs + 1 + e, "password"}, true
				}
				continue
			}
			ve := vs
			for ve < le && s[ve] != ' ' && s[ve] != '\t' && s[ve] != '\r' {
				ve++
			}
			if ve > vs && s[vs] != '-' && !placeholder(s[vs:ve]) {
				return span{vs, ve, "password"}, true
			}
		}
	}
	return span{}, false
}

// findUserFlag: curl's -u/--user user:password (also in a flag cluster, curl
// -su user:pw); the user alone makes curl ask.
func findUserFlag(f *finding, hit int) (span, bool) {
	s := f.s
	_, le := lineAt(s, hit)
	for i := hit; i < le; {
		k := strings.Index(s[i:le], " -")
		if k < 0 {
			return span{}, false
		}
		fs := i + k + 1
		fe := fs
		for fe < le && s[fe] != ' ' && s[fe] != '=' {
			fe++
		}
		i = fe
		flag := s[fs:fe]
		if flag != "--user" && (strings.HasPrefix(flag, "--") || !strings.HasSuffix(flag, "u")) || fe >= le {
			continue
		}
		vs := fe + 1
		q := byte(0)
		if vs < le && (s[vs] == '\'' || s[vs] == '"') {
			q, vs = s[vs], vs+1
		}
		ve := vs
		for ve < le && s[ve] != ' ' && s[ve] != q {
			ve++
		}
		c := strings.IndexByte(s[vs:ve], ':')
		if c < 0 || ve-(vs+c+1) < 1 || placeholder(s[vs+c+1:ve]) {
			continue
		}
		return span{vs + c + 1, ve, "password"}, true
	}
	return span{}, false
}

// findIdentifiedBy: SQL's IDENTIFIED [WITH plugin] BY 'password'.
func findIdentifiedBy(f *finding, hit int) (span, bool) {
	s := f.s
	_, le := lineAt(s, hit)
	line := s[hit:min(le, hit+96)]
	k := strings.Index(strings.ToUpper(line), " BY '")
	if k < 0 {
		return span{}, false
	}
	vs := hit + k + len(" BY '")
	e := strings.IndexByte(s[vs:le], '\'')
	switch {
	case e < 0 && f.atEnd && le == len(s):
		return span{vs, le, "password"}, true
	case e <= 0 || placeholder(s[vs:vs+e]):
		return span{}, false
	}
	return span{vs, vs + e, "password"}, true
}

// findPgpass: the password field of a .pgpass line
// (host:port:database:user:password), judged once per line.
func findPgpass(f *finding, hit int) (span, bool) {
	s := f.s
	if hit < f.lineDone {
		return span{}, false
	}
	for i := hit - 1; i >= 0 && s[i] != '\n'; i-- { // most hits are times and file:line: a blank comes first
		if s[i] == ' ' || s[i] == '\t' {
			return span{}, false
		}
	}
	ls, le := lineAt(s, hit)
	f.lineDone = le
	line := strings.TrimRight(s[ls:le], "\r")
	if strings.ContainsAny(line, " \t") || strings.Count(line, ":") != 4 || strings.Contains(line, "[REDACTED:") { // a marker's colon is no field's end
		return span{}, false
	}
	fields := strings.Split(line, ":")
	for _, fl := range fields {
		if fl == "" {
			return span{}, false
		}
	}
	if fields[1] != "*" && !digits(fields[1]) || len(fields[4]) < 4 || placeholder(fields[4]) || ipv6(fields) {
		return span{}, false
	}
	pw := ls + len(line) - len(fields[4])
	return span{pw, pw + len(fields[4]), "password"}, true
}

// ipv6: every field is a group of at most four hex digits (fe80:0:0:0:1).
func ipv6(fields []string) bool {
	for _, fl := range fields {
		if len(fl) > 4 || strings.Trim(strings.ToLower(fl), "0123456789abcdef") != "" {
			return false
		}
	}
	return true
}
