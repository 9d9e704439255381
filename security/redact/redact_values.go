package redact

import (
	"encoding/base64"
	"strings"
)

// secretValue decides whether v, given to a key that names a secret, is the
// secret. It is not when it is a placeholder or a reference, a prompt, a
// short number, a word that describes (auth: basic, passwd: files), the name
// of a secret (secret: my-app-secret-name), or the start of a sentence
// (password:  16 bytes). rest is the text after the value; atEnd: the value
// runs into the end of a chunk and may be the first part of a longer one, so
// only placeholders and prompts are spared.
func secretValue(kind, key, v string, quoted bool, sep byte, rest string, atEnd bool) bool {
	if v == "" || placeholder(v) || !quoted && (prompt(v) || reference(v) || strings.IndexByte(v, '(') >= 0 || strings.IndexByte(v, '[') >= 0) {
		return false
	}
	if sep == ' ' && v[0] == '-' {
		return false // psql --password -h db: the option asks, the next one follows
	}
	if atEnd {
		return true
	}
	if digits(v) && len(v) < 8 {
		return false // token: 1234, a port, a count
	}
	if kind == "password" && equalFold(key, "passwd") && nsswitch[lowerASCII(v)] {
		return false // nsswitch.conf: passwd: files
	}
	if kind != "password" && lowerWord(v) && len(v) < 8 {
		return false // auth: basic, secret: none, token: bearer
	}
	if kind == "auth" && !(len(v) >= 8 && (mixedCase(v) || strings.HasSuffix(v, "="))) {
		return false
	}
	if secretName(v) {
		return false
	}
	if !quoted && (sep == ':' || sep == ' ' && lowerWord(v)) && prose(v, rest) {
		return false
	}
	return true
}

// placeholder: a variable ($X, ${X}, %X%), a template (<x>, {{x}}), a mask
// (***, xxxx, ...), an empty or null word, an earlier marker, or an
// instruction (your-token-here, REPLACE_ME, changeme), or the name of what
// belongs there (password: password). Other well-known default passwords
// (admin, postgres) are not placeholders: systems run with them; changeme
// says it is to be replaced, and hiding it would protect nothing.
func placeholder(v string) bool {
	if v != "" && (quote(v[0]) || quote(v[len(v)-1])) {
		v = strings.Trim(v, `"'`)
	}
	if v == "" {
		return true
	}
	switch v[0] {
	case '$', '<', '{', '[':
		return true
	case '%': // %VAR% is a variable; %vbbk!-@6 is a password
		if e := strings.IndexByte(v[1:], '%'); e > 0 && strings.Trim(v[1:e+1], "_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
			return true
		}
	}
	if mask(v) || strings.HasSuffix(v, "...") || strings.HasSuffix(v, "…") {
		return true // hf_..., sk_test_...: an example cut short
	}
	if len(v) <= maxPlaceholderWord {
		var buf [maxPlaceholderWord]byte
		for i := 0; i < len(v); i++ {
			buf[i] = fold(v[i])
		}
		if templateWords[string(buf[:len(v)])] { // no allocation: a map index by string(bytes)
			return true
		}
	}
	switch fold(v[0]) {
	case 'y':
		if hasPrefixFold(v, "your") {
			return true
		}
	case 'r':
		if hasPrefixFold(v, "replace") {
			return true
		}
	case 'i':
		if hasPrefixFold(v, "insert") {
			return true
		}
	}
	return len(v) >= 4 && fold(v[len(v)-1]) == 'e' && equalFold(v[len(v)-4:], "here") || containsFold(v, "redacted")
}

func quote(c byte) bool { return c == '"' || c == '\'' }

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFold(s[:len(prefix)], prefix)
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && equalFold(s[len(s)-len(suffix):], suffix)
}

// equalFold is strings.EqualFold for a word of ASCII: the lengths first.
func equalFold(s, word string) bool {
	return len(s) == len(word) && strings.EqualFold(s, word)
}

// containsFold: s holds word (lower case ASCII) in any case.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if fold(s[i]) == word[0] && strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

var placeholderWords = wordSet("null none nil true false yes no on off undefined empty n/a na tbd todo fixme hidden masked removed required optional string str int bool env default example placeholder dummy sample fake redacted unset")

// selfNamed values name what belongs there (password: password, user:password@)
// or ask for it to be changed (changeme): a template's text, not a secret.
var selfNamed = wordSet("password passwd pass pwd secret token apikey api_key api-key key changeme change_me change-me changeit")

// templateWords is placeholderWords and selfNamed in one map: one look-up.
var templateWords = func() map[string]bool {
	m := map[string]bool{}
	for _, set := range []map[string]bool{placeholderWords, selfNamed} {
		for w := range set {
			m[w] = true
		}
	}
	return m
}()

var nsswitch = wordSet("files compat db nis nisplus ldap sss systemd winbind dns hesiod cache mymachines resolve myhostname usrfiles altfiles extrausers")

// prompt: a shell prompt printed where a value was expected, as after
// "read -s -p password: " the next prompt follows on the same line.
func prompt(v string) bool {
	last := v[len(v)-1]
	return strings.IndexByte("$#>%", last) >= 0 && strings.ContainsAny(v[:len(v)-1], "@:~/")
}

var referencePrefixes = []string{"vault:", "arn:", "env:", "file:", "op://", "sm://", "ssm:", "awssm:", "gcpsm:", "azkv:", "ref+", "secretsmanager:", "k8s:", "sops:", "http://", "https://"}

// referencesByFirst indexes referencePrefixes by their first byte.
var referencesByFirst = func() (idx [256][]string) {
	for _, p := range referencePrefixes {
		idx[p[0]] = append(idx[p[0]], p)
	}
	return idx
}()

// reference: where a secret is kept, not the secret: a path or a secret
// store's address.
func reference(v string) bool {
	if strings.IndexByte(v, ':') >= 0 || strings.IndexByte(v, '+') >= 0 { // every prefix has one
		for _, p := range referencesByFirst[fold(v[0])] {
			if hasPrefixFold(v, p) {
				return true
			}
		}
	}
	if v[0] != '/' && v[0] != '~' && v[0] != '.' {
		return false
	}
	p := strings.TrimLeft(v, "~.")
	if len(p) < 2 || p[0] != '/' || len(v)-len(p) > 2 {
		return false
	}
	for _, c := range []byte(p) {
		if !(isWordByte(c) || c == '/' || c == '.' || c == '-') {
			return false
		}
	}
	seg := strings.Split(p[1:], "/")[0]
	return lowerWord(strings.NewReplacer("-", "", "_", "", ".", "").Replace(seg)) || seg == ""
}

func digits(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// mask: only the bytes of a mask (***, xxxx, ••••, ___, ???).
func mask(v string) bool {
	for _, r := range v {
		switch r {
		case '*', '•', '.', '…', 'x', 'X', '#', '-', '_', '?':
		default:
			return false
		}
	}
	return true
}

// maxPlaceholderWord is the length of the longest word in placeholderWords
// and selfNamed: a longer value is not looked up.
const maxPlaceholderWord = 11

func lowerWord(v string) bool {
	for _, c := range []byte(v) {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return v != ""
}

// secretName: lower-case words joined by - _ . with one naming a secret
// (my-app-secret-name, db-credentials): a name a secret is kept under.
func secretName(v string) bool {
	parts, named := 0, false
	for start, i := 0, 0; i <= len(v); i++ {
		if i < len(v) && v[i] != '-' && v[i] != '_' && v[i] != '.' {
			if v[i] < 'a' || v[i] > 'z' {
				return false
			}
			continue
		}
		if i > start {
			parts++
			switch v[start:i] {
			case "secret", "secrets", "token", "tokens", "password", "passwd", "key", "keys", "credential", "credentials", "creds", "apikey":
				named = true
			}
		}
		start = i + 1
	}
	return parts > 1 && named
}

// prose: an unquoted value followed on its line by more words is part of a
// sentence (password:  16 bytes; passwd: password updated successfully),
// unless it has the shape of a generated secret.
func prose(v, rest string) bool {
	if rest != "" && (rest[0] == ',' || rest[0] == ';') && plainWord(v) {
		rest = rest[1:] // Password: incorrect, try again
		if rest == "" || rest[0] != ' ' {
			return false
		}
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" || !isWordByte(rest[0]) {
		return false
	}
	return !(len(v) >= 16 && mixedCase(v))
}

// plainWord: letters only, lower case after the first (incorrect, Sorry): a word
// of a sentence, where a comma may follow it.
func plainWord(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || i == 0 && c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// decodesTo reports whether the base64 text b decodes to something holding
// want; b may be cut anywhere.
func decodesTo(b, want string) bool {
	b = b[:len(b)/4*4]
	dec, err := base64.StdEncoding.DecodeString(b)
	return err == nil && strings.Contains(string(dec), want)
}
