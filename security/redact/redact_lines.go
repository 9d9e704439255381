package redact

import "strings"

// findMySQLFlag: the password glued to -p on a mysql/mariadb command line
// (mysql -u root -pS3cret db). -p alone asks for it, and other programs' -p
// means something else, so only these commands are looked at.
func findMySQLFlag(f *finding, hit int) (span, bool) {
	s := f.s
	_, le := lineAt(s, hit)
	i := hit
	for {
		k := strings.Index(s[i:le], " -p")
		if k < 0 {
			return span{}, false
		}
		vs := i + k + 3
		ve := vs
		for ve < le && s[ve] != ' ' && s[ve] != '\t' && s[ve] != '\r' {
			ve++
		}
		if ve > vs && !placeholder(s[vs:ve]) {
			return span{vs, ve, "password"}, true
		}
		i = vs
	}
}

// findPgpass: the password field of a .pgpass line
// (host:port:database:user:password), judged once per line.
func findPgpass(f *finding, hit int) (span, bool) {
	s := f.s
	if hit < f.lineDone {
		return span{}, false
	}
	ls, le := lineAt(s, hit)
	f.lineDone = le
	line := strings.TrimRight(s[ls:le], "\r")
	if strings.ContainsAny(line, " \t") || strings.Count(line, ":") != 4 {
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
