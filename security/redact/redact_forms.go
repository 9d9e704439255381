package redact

import "strings"

// The forms, other than key=value and key: value, in which a key gives a
// secret its value: after a space (CLI set commands, SQL, redis, config
// directives) and in XML.

// spacedValue: forms that give a key its value after a space: a CLI's "set
// KEY VALUE" (aws configure set, git config), SQL's PASSWORD 'x', a redis
// AUTH x, and a config file's "directive value" line (requirepass x, bindpw x)
// whose value does not read as a word.
func spacedValue(s string, ks, p int, key, kind string) bool {
	ls, le := lineAt(s, ks)
	before := strings.TrimRight(s[ls:ks], " \t")
	for rest := before; ; { // the last word that is not an option: git config --global k v
		w := strings.LastIndexAny(rest, " \t")
		if w < 0 {
			break
		}
		if word := rest[w+1:]; !strings.HasPrefix(word, "-") {
			if word == "set" || word == "config" || word == "config:set" {
				return true
			}
			break
		}
		rest = strings.TrimRight(rest[:w], " \t")
	}
	if kind == "password" && strings.EqualFold(key, "password") && s[p] == '\'' && sqlRole(before) {
		return true // ALTER USER u WITH PASSWORD 'x'
	}
	if key == "AUTH" && (before == "" || strings.HasSuffix(before, ">")) {
		return true // 127.0.0.1:6379> AUTH x
	}
	if strings.TrimSpace(before) != "" || kind == "auth" {
		return false
	}
	v := strings.TrimRight(s[p:le], " \t\r")
	return v != "" && !strings.ContainsAny(v, " \t") && strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != ""
}

// sqlRole: the text before a PASSWORD keyword creates or alters a role.
func sqlRole(before string) bool {
	u := strings.ToUpper(before)
	return strings.Contains(u, "USER ") || strings.Contains(u, "ROLE ") || strings.Contains(u, "LOGIN")
}

// lineStart: only blanks come before offset i on its line.
func lineStart(s string, i int) bool {
	ls, _ := lineAt(s, i)
	return strings.TrimSpace(s[ls:i]) == ""
}

// xmlValue: the value of a key named in XML, as an element
// (<password>x</password>) or as a key/name attribute with a value attribute
// (<add key="ClearTextPassword" value="x" />, <param name="password" value="x"/>).
func xmlValue(s string, ks, ke int, atEnd bool) (vs, ve int, ok bool) {
	if ks == 0 || ke >= len(s) {
		return 0, 0, false
	}
	if s[ks-1] == '<' && s[ke] == '>' {
		e := strings.IndexByte(s[ke+1:], '<')
		if e < 0 && atEnd && !strings.Contains(s[ke+1:], "\n") {
			return ke + 1, len(s), true // cut before its end tag
		}
		if e <= 0 || !strings.HasPrefix(s[ke+1+e:], "</") && !(atEnd && ke+2+e == len(s)) {
			return 0, 0, false
		}
		return ke + 1, ke + 1 + e, true
	}
	q := s[ks-1]
	if q != '"' && q != '\'' || s[ke] != q {
		return 0, 0, false
	}
	attr := s[max(0, ks-8) : ks-1]
	if attr != "" && attr[len(attr)-1] == ' ' {
		attr = strings.TrimRight(attr, " ")
	}
	if attr == "" || attr[len(attr)-1] != '=' || !hasSuffixFold(attr, "key=") && !hasSuffixFold(attr, "name=") {
		return 0, 0, false // most often a JSON key: "password": "x"
	}
	rest := strings.TrimLeft(s[ke+1:min(len(s), ke+64)], " \t")
	if !strings.HasPrefix(rest, "value=") || len(rest) < 7 || rest[6] != '"' && rest[6] != '\'' {
		return 0, 0, false
	}
	vs = len(s) - len(s[ke+1:]) + strings.Index(s[ke+1:], "value=") + 7
	e := strings.IndexByte(s[vs:], rest[6])
	if e < 0 && atEnd && !strings.Contains(s[vs:], "\n") {
		return vs, len(s), true // cut before its closing quote
	}
	if e <= 0 {
		return 0, 0, false
	}
	return vs, vs + e, true
}
