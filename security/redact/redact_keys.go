package redact

import (
	"slices"
	"strings"
	"sync"
)

// What a key name says: whether it names a secret, and of which kind
// (keyKind), judged once per name and text or stream (keyMemo).

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
