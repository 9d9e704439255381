package redact

import "strings"

// findAssignment: a value given to a key that names a secret. The anchor is
// a keyword (pass, pwd, secret, token, key, auth) inside the key; the key is
// the identifier around it, then a separator (=, :, :=, or for a command-line
// option or a .netrc line, a space), then the value, quoted or not.
func findAssignment(f *finding, hit int) (span, bool) {
	s := f.s
	if hit < f.keysDone {
		return span{}, false
	}
	ks, ke := hit, min(hit+2, len(s)) // the shortest keyword, pw, is two key bytes
	for low := max(hit-96, 0); ks > low && isKeyByte(s[ks-1]); {
		ks--
	}
	for high := min(hit+96, len(s)); ke < high && isKeyByte(s[ke]); {
		ke++
	}
	f.keysDone = ke
	key := s[ks:ke]
	if f.kinds == nil {
		f.kinds, f.lent = memos.Get().(*keyMemo), true
	}
	kind := f.kinds.kind(key)
	if kind == "" && ks > 0 && s[ks-1] == ';' && shortPassword[lowerASCII(key)] {
		kind = "password" // Uid=app;Pwd=x; in a connection string
	}
	if kind != "" && kind != "key?" {
		if vs, ve, ok := xmlValue(s, ks, ke, f.atEnd); ok {
			if placeholder(s[vs:ve]) || reference(s[vs:ve]) {
				return span{}, false
			}
			return span{vs, ve, kind}, true
		}
	}
	p, sep := separator(s, ke, key, kind)
	if sep == 0 {
		return span{}, false
	}
	if kind == "" { // a value of a key that names no secret is not looked at for keys,
		if !equalFold(key, "key") && !equalFold(key, "name") { // unless it names one: <add key="ApiPassword" value="x"/>
			_, f.keysDone, _ = valueAt(s, p)
		}
		return span{}, false
	}
	if kind == "authorization" {
		return authorizationValue(f, p)
	}
	vs, ve, quoted := valueAt(s, p)
	if kind == "password" && strings.HasPrefix(s[vs:ve], "pass:") {
		vs += len("pass:") // openssl -passout pass:x (env:X and file:p are references)
	}
	v := s[vs:ve]
	if quoted && s[ke] != s[vs-1] && insideQuote(s, ks, s[vs-1]) {
		// getpass("Password: "), read -p 'Enter passphrase: ' pw: the quote ends a
		// prompt's text that the key is part of.
		return span{}, false
	}
	if len(v) >= minToken || f.atEnd && ve == len(s) {
		for _, i := range tokensByFirst[firstByte(v)] { // a known format names itself: GITHUB_TOKEN=ghp_...
			if t := &tokenRules[i]; strings.HasPrefix(v, t.prefix) {
				if sp, ok := t.find(f, vs); ok {
					return sp, true
				}
			}
		}
	}
	if kind == "key?" {
		if !generated(v) && !(f.atEnd && ve == len(s)) { // a value cut short cannot show its shape
			f.keysDone = ve
			return span{}, false
		}
		kind = "key"
	}
	atEnd := f.atEnd && ve == len(s)
	if !secretValue(kind, key, v, quoted, sep, s[ve:], atEnd) {
		f.keysDone = ve // nor is what it holds a key (token: token: 1)
		return span{}, false
	}
	return span{vs, ve, kind}, true
}

// separator finds what follows a key: its closing quote or bracket
// (app.config['SECRET_KEY'] =), then =, :, := or =>, or for an option or a
// .netrc entry a space. It returns where the value starts and the separator,
// 0 if there is none.
func separator(s string, ke int, key, kind string) (int, byte) {
	p, ks := ke, ke-len(key)
	if strings.HasSuffix(s[:ks], "[REDACTED:") {
		return p, 0 // a marker's kind
	}
	if p < len(s) && (s[p] == '"' || s[p] == '\'') {
		p++
		if p < len(s) && s[p] == ']' && ks > 0 && s[ks-1] == s[p-1] {
			p++ // config['SECRET_KEY'] =
		}
	}
	spaced := p
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	spaced = p - spaced
	if p >= len(s) {
		return p, 0
	}
	sep := s[p]
	switch {
	case sep == '=' && spaced == 0 && p+2 < len(s) && s[p+1] == '=' && s[p+2] != '=' && s[p+2] != ' ' && lineStart(s, ks) && kind != "":
		return p + 1, '=' // spring.datasource.password==x: a .properties value that starts with =
	case sep == '=' && p+1 < len(s) && (s[p+1] == '=' || s[p+1] == '~'), sep == ':' && p+1 < len(s) && s[p+1] == ':':
		return p, 0 // a comparison, a scope
	case sep == ':' && spaced > 0 && p+1 < len(s) && s[p+1] == '\'':
		return p, 0 // PASSWORD :'pw': a psql variable
	case sep == '=' || sep == ':':
		p++
		if p < len(s) && (s[p] == '=' || sep == '=' && s[p] == '>') {
			p++
		}
		if sep == '=' && spaced == 0 && p < len(s) && (s[p] == ' ' || s[p] == '\t') {
			return p, 0 // PGPASSWORD= psql: an empty value
		}
	case spaced > 0 && strings.HasPrefix(key, "-") && kind != "":
		sep = ' ' // --password x
	case spaced > 0 && kind == "password" && netrcContext(s, ke-len(key)):
		sep = ' ' // machine h login u password p
	case spaced > 0 && kind != "" && spacedValue(s, ks, p, key, kind):
		sep = ' '
	default:
		return p, 0
	}
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	return p, sep
}

// generated: a value with the shape of a generated secret: long, and mixing
// cases and digits, or base64 with its padding.
func generated(v string) bool {
	if strings.IndexByte(v, '.') >= 0 || strings.IndexByte(v, ':') >= 0 || strings.IndexByte(v, ' ') >= 0 {
		return false // HomePage.Title.Welcome2024, user:1234:Cart: a name built of parts
	}
	return len(v) >= 20 && (mixedCase(v) || len(v)%4 == 0 && strings.HasSuffix(v, "=") && strings.Trim(v, "=") != "")
}

func isKeyByte(c byte) bool { return keyBytes[c] }

// valueAt returns the value starting at p: inside quotes if it is quoted, else
// up to a space or a delimiter of the text around it (&;,)}] and quotes).
func valueAt(s string, p int) (start, end int, quoted bool) {
	if p+1 < len(s) && strings.IndexByte("bBrRuU", s[p]) >= 0 && (s[p+1] == '"' || s[p+1] == '\'') {
		p++ // a Python bytes, raw or unicode literal: b'\xe4\xa6'
	}
	if p < len(s) && (s[p] == '"' || s[p] == '\'' || s[p] == '`') {
		stops := &quotedEnds[s[p]&3] // ", ' and ` differ in their low bits
		e, lim := p+1, min(len(s), p+4096)
		for e < lim {
			if !stops[s[e]] {
				e++
				continue
			}
			if s[e] != '\\' {
				break
			}
			if e+1 < len(s) && s[e+1] != '\n' {
				e++
			}
			e++
		}
		return p + 1, min(e, len(s)), true
	}
	e, lim := p, min(len(s), p+4096)
	for e < lim && !valueEnds[s[e]] {
		e++
	}
	return p, e, false
}

// valueEnds: the bytes that end an unquoted value.
var valueEnds = byteSet(" \t\r\n'\"&;,)}]")

// quotedEnds, by the low two bits of the opening quote: the bytes where a
// value in those quotes ends or may (a backslash escapes the byte after it).
var quotedEnds = func() (t [4][256]bool) {
	for _, q := range []byte("\"'`") {
		t[q&3] = byteSet(string(q) + "\n\\")
	}
	return t
}()

func byteSet(s string) (set [256]bool) {
	for i := 0; i < len(s); i++ {
		set[s[i]] = true
	}
	return set
}

// authorizationValue: the credentials after an Authorization header's scheme.
// A JWT is left to its own rule, which names it.
func authorizationValue(f *finding, p int) (span, bool) {
	s := f.s
	w := p
	for w < len(s) && isWordByte(s[w]) {
		w++
	}
	switch strings.ToLower(s[p:w]) {
	case "bearer", "basic", "token":
	default:
		return span{}, false
	}
	vs := w
	for vs < len(s) && (s[vs] == ' ' || s[vs] == '\t') {
		vs++
	}
	if vs == w || strings.HasPrefix(s[vs:], "eyJ") {
		return span{}, false
	}
	ve := vs
	for ve < len(s) && (isWordByte(s[ve]) || strings.IndexByte(".~+/-=", s[ve]) >= 0) {
		ve++
	}
	if f.atEnd && ve == len(s) && ve > vs || ve-vs >= 16 && mixedCase(s[vs:ve]) {
		return span{vs, ve, "bearer-token"}, true
	}
	return span{}, false
}

// netrcContext: a "password p" pair with no separator is a .netrc entry when a
// machine or login word comes shortly before it.
func netrcContext(s string, ks int) bool {
	before := s[max(0, ks-256):ks]
	return strings.Contains(before, "machine ") || strings.Contains(before, "login ")
}

// insideQuote: the key starting at ks is inside a string quoted with q, opened
// earlier on its line (within maxQuoteLook bytes): an odd number of q before it.
func insideQuote(s string, ks int, q byte) bool {
	lo := max(ks-maxQuoteLook, 0)
	start := lo + strings.LastIndexByte(s[lo:ks], '\n') + 1
	n := 0
	for i := start; i < ks; i++ {
		if s[i] == q && (i == 0 || s[i-1] != '\\') {
			n++
		}
	}
	return n%2 == 1
}

// maxQuoteLook bounds how far back insideQuote counts quotes.
const maxQuoteLook = 256
