package redact

import (
	"slices"
	"strings"
	"sync"
)

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
	if quoted && ks > 0 && s[ks-1] == s[vs-1] && s[ke] != s[vs-1] {
		return span{}, false // getpass("Password: "): the quote ends a prompt's text
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

// keyMemo remembers the kinds of the key names judged in one text, or in one
// session's stream of output: keyword-dense output names the same keys again
// and again (each object of a JSON array, each line of a log), and judging a
// name costs several times what finding it in the memo does. It is
// direct-mapped: a name whose slot is taken replaces what was there. A slot
// holds a copy of the name, so that the memo keeps no text alive and may
// outlive it (a Stream's, a pooled one); longer names are judged every time.
// What it remembers stays true: a name's kind depends on the name alone.
type keyMemo struct {
	slots [64]struct {
		n    uint8
		key  [maxMemoKey]byte
		kind string // a constant of keyKind's, or built once at start
	}
}

const maxMemoKey = 31

// memos lends the memos of one-off texts (Redact, Secrets): 3 KiB each, too
// much to allocate for every small result.
var memos = sync.Pool{New: func() any { return new(keyMemo) }}

func (m *keyMemo) kind(key string) string {
	if n := len(key); n > maxMemoKey {
		return keyKind(key)
	}
	// The hash mixes the length, the first and the last four bytes and one in
	// the middle: names that differ elsewhere only share a slot.
	n := len(key)
	h := uint32(n)*0x9e3779b1 ^ uint32(key[n/2])
	if n >= 4 {
		h ^= (uint32(key[0]) | uint32(key[1])<<8 | uint32(key[2])<<16 | uint32(key[3])<<24) * 0x85ebca6b
		h ^= (uint32(key[n-4]) | uint32(key[n-3])<<8 | uint32(key[n-2])<<16 | uint32(key[n-1])<<24) * 0xc2b2ae35
	} else {
		h ^= uint32(key[0])*0x85ebca6b ^ uint32(key[n-1])*0xc2b2ae35
	}
	h ^= h >> 16
	e := &m.slots[h%uint32(len(m.slots))]
	if int(e.n) == n && string(e.key[:n]) == key {
		return e.kind
	}
	kind := keyKind(key)
	if n <= maxMemoKey {
		e.n = uint8(copy(e.key[:], key))
		e.kind = kind
	}
	return kind
}

// passWords end in "pass" and name no password.
var passWords = wordSet("pass bypass compass surpass overpass underpass trespass impass multipass onepass twopass firstpass secondpass")

var shortPassword = wordSet("pwd pw pass")

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

// maxKeyWords bounds the words of a key name that are looked at (the last ones).
const maxKeyWords = 8

// keyWords splits a key name into lower-case words at _ - . and case changes
// (SecretAccessKey, APIKey, client-key-data, --password), keeping the last
// maxKeyWords; camel: the name has both cases, so case changes may cut it. lower is the key in lower case; the words are its substrings.
// They are returned by value, so that lower may live on the caller's stack.
func keyWords(key, lower string, camel bool) (words [maxKeyWords]string, n int) {
	add := func(start, end int) {
		if n == maxKeyWords {
			for j := 1; j < n; j++ { // not copy(): it would move lower to the heap
				words[j-1] = words[j]
			}
			n--
		}
		words[n] = lower[start:end]
		n++
	}
	start, prev := 0, byte(nameSep)
	if !camel { // cut at separators only: the common ALL_CAPS and snake_case names
		for i := 0; i < len(key); i++ {
			if nameBytes[key[i]] == nameSep {
				if i > start {
					add(start, i)
				}
				start = i + 1
			}
		}
		if len(key) > start {
			add(start, len(key))
		}
		return words, n
	}
	for i := 0; i < len(key); i++ {
		c := nameBytes[key[i]]
		switch {
		case c == nameSep:
			if i > start {
				add(start, i)
			}
			start = i + 1
		case camel && c == nameUpper && i > start && (prev == nameLower ||
			prev == nameUpper && i+1 < len(key) && nameBytes[key[i+1]] == nameLower): // fooBar, APIKey
			add(start, i)
			start = i
		}
		prev = c
	}
	if len(key) > start {
		add(start, len(key))
	}
	return words, n
}

// nameBytes classes the bytes of a key name for keyWords, as bits to OR.
const (
	nameSep = 1 << iota
	nameUpper
	nameLower
)

var nameBytes = func() (t [256]byte) {
	for _, c := range []byte("_-.") {
		t[c] = nameSep
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = nameUpper
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = nameLower
	}
	return t
}()

// lowerASCII lowers s, allocating only when it has an upper-case letter.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

var (
	// keyQualifiers make a *_KEY a secret: API_KEY, DD_APP_KEY, AccountKey,
	// SECRET_KEY, but not primary_key, sort_key or ssh_key (usually a path).
	keyQualifiers = kindSet("_key", "api access secret private account shared app application master encryption encrypt signing sign client license auth session service storage subscription admin deploy hmac jwt consumer webhook ingest sas instrumentation cipher aes root")
	// keyNonSecret make a *_KEY something other than a secret: a database's
	// key, a public half, a lookup key.
	keyNonSecret = wordSet("primary foreign sort partition hash range row cache idempotency object s3 map lookup routing public pub ssh host gpg pgp fingerprint ssl tls cert verify verification peer dedup dedupe unique composite shard group message event idempotence kms key translation i18n l10n locale index column field attribute property setting config registry redis hot short cut keyboard")
	// fillers end a key name without changing what it holds: client-key-data,
	// secret_key_base, password_value.
	fillers = wordSet("data value b64 base64 base str string")
	// metadata ends a key that says something about a secret.
	metadata = wordSet("file path name names ref id arn version type kind count length len size ttl expiry expires expiration rotation prefix suffix format enabled required header env var field prompt policy role label description desc hint url uri endpoint location source backend manager provider store engine mount dir namespace stdin fd cmd command")
)

// kindSet maps each word of s to the word with suffix, the marker's kind,
// built once so that no kind is built per match.
func kindSet(suffix, s string) map[string]string {
	m := map[string]string{}
	for _, w := range strings.Fields(s) {
		m[w] = w + suffix
	}
	return m
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// keyKind returns the marker's kind for a key that names a secret, or "".
// What a key ends with decides: PASSWORD_FILE, TOKEN_TTL, secretName and
// secretKeyRef name something about a secret, not the secret.
func keyKind(key string) string {
	lower := key
	var cases byte
	for i := 0; i < len(key); i++ {
		cases |= nameBytes[key[i]]
	}
	if cases&nameUpper != 0 {
		var b [32]byte // a key of up to 32 bytes is lowered on the stack: judging it allocates nothing
		if len(key) > len(b) {
			lower = strings.ToLower(key)
		} else {
			for i := 0; i < len(key); i++ {
				b[i] = fold(key[i])
			}
			lower = string(b[:len(key)])
		}
	}
	all, n := keyWords(key, lower, cases&nameUpper != 0 && cases&nameLower != 0)
	w := all[:n]
	for len(w) > 1 && fillers[w[len(w)-1]] {
		w = w[:len(w)-1]
	}
	if len(w) == 0 {
		return ""
	}
	last, prev := w[len(w)-1], ""
	if len(w) > 1 {
		prev = w[len(w)-2]
	}
	switch last {
	case "password", "passwd", "passphrase", "passcode":
		return "password"
	case "pass", "pwd", "pw":
		if prev != "" && prev != "old" {
			return "password"
		}
	case "secret", "secrets":
		return "secret"
	case "token":
		return "token"
	case "authorization":
		return "authorization"
	case "auth":
		if len(w) == 1 {
			return "auth"
		}
	case "key":
		if prev == "access" && len(w) > 2 && w[len(w)-3] == "secret" {
			return "aws-secret-access-key"
		}
		if k, ok := keyQualifiers[prev]; ok {
			return k
		}
		if prev != "" && !keyNonSecret[prev] {
			return "key?" // FERNET_KEY, STRIPE_KEY: a secret if the value has a secret's shape
		}
	case "passin", "passout": // openssl -passin pass:x
		return "password"
	case "requirepass", "masterauth", "bindpw", "rootpw", "dbpass": // redis.conf, nslcd.conf, slapd.conf
		return "password"
	case "authkey":
		return "auth_key"
	case "apikey", "accesskey", "secretkey", "privatekey", "accountkey", "appkey", "masterkey", "signingkey", "encryptionkey":
		return keyQualifiers[last[:len(last)-3]]
	case "authtoken", "accesstoken", "apitoken":
		return "token"
	}
	switch {
	case strings.HasSuffix(last, "password") || strings.HasSuffix(last, "passwd"):
		return "password" // PGPASSWORD, DBPASSWD
	case strings.HasSuffix(last, "pass") && !passWords[last]:
		return "password" // smtppass, requirepass
	case strings.HasSuffix(last, "secret"):
		return "secret"
	case strings.HasSuffix(last, "token") && len(w) == 1:
		return "token" // authToken is [auth token]; GHTOKEN, NPMTOKEN
	}
	if !metadata[last] && (slices.Contains(w, "secret") || slices.Contains(w, "secrets")) {
		return "secret" // JWT_SECRET_V2, SECRET_PHRASE
	}
	return ""
}
