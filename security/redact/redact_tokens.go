package redact

import (
	"slices"
	"strings"
)

// tokenRule is a token format known by its prefix: the prefix, then a body of
// bytes from one set, between min and max long.
type tokenRule struct {
	prefix, kind string
	body         func(byte) bool
	bodySet      *[256]bool // body as a table, for the loop over the body's bytes
	min, max     int
	wordEnd      bool                    // no word byte may follow the body
	ok           func(token string) bool // nil: any body of the right length
}

var tokenRules = func() []tokenRule {
	alnum := func(c byte) bool { return isWordByte(c) && c != '_' }
	alnumU := isWordByte
	alnumUD := func(c byte) bool { return isWordByte(c) || c == '-' }
	alnumD := func(c byte) bool { return alnum(c) || c == '-' }
	hex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }
	upper := func(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' }
	jwt := func(c byte) bool { return alnumUD(c) || c == '.' }
	rules := []tokenRule{
		{prefix: "github_pat_", kind: "github-token", body: alnumU, min: 22, max: 255, wordEnd: true},
		{prefix: "glpat-", kind: "gitlab-token", body: alnumUD, min: 20, max: 255},
		{prefix: "npm_", kind: "npm-token", body: alnum, min: 36, max: 36, wordEnd: true},
		{prefix: "pypi-AgEIcHlwaS5vcmc", kind: "pypi-token", body: alnumUD, min: 50, max: 1024},
		{prefix: "hf_", kind: "huggingface-token", body: alnum, min: 34, max: 255, wordEnd: true},
		{prefix: "SG.", kind: "sendgrid-key", body: jwt, min: 66, max: 66, wordEnd: true, ok: func(t string) bool { return len(t) == 69 && t[25] == '.' }},
		{prefix: "https://hooks.slack.com/services/", kind: "slack-webhook", body: func(c byte) bool { return alnum(c) || c == '/' }, min: 20, max: 255, ok: slackWebhook},
		{prefix: "ya29.", kind: "google-oauth-token", body: alnumUD, min: 20, max: 2048},
		{prefix: "AKIA", kind: "aws-access-key-id", body: upper, min: 16, max: 16, wordEnd: true},
		{prefix: "ASIA", kind: "aws-access-key-id", body: upper, min: 16, max: 16, wordEnd: true},
		{prefix: "sk_live_", kind: "stripe-key", body: alnum, min: 16, max: 255, wordEnd: true},
		{prefix: "rk_live_", kind: "stripe-key", body: alnum, min: 16, max: 255, wordEnd: true},
		{prefix: "sk-", kind: "api-key", body: alnumUD, min: 32, max: 255, ok: mixedCase},
		{prefix: "AIza", kind: "google-api-key", body: alnumUD, min: 35, max: 35, wordEnd: true},
		{prefix: "eyJ", kind: "jwt", body: jwt, min: 26, max: 8192, ok: isJWT},
	}
	b64 := func(c byte) bool { return alnum(c) || c == '+' || c == '/' || c == '=' }
	webhook := func(c byte) bool { return alnumUD(c) || c == '/' }
	rules = append(rules,
		tokenRule{prefix: "tskey-", kind: "tailscale-key", body: alnumD, min: 20, max: 255, ok: mixedCase},
		tokenRule{prefix: "AGE-SECRET-KEY-1", kind: "age-key", body: upper, min: 50, max: 100, wordEnd: true},
		tokenRule{prefix: "rubygems_", kind: "rubygems-key", body: hex, min: 48, max: 48, wordEnd: true},
		tokenRule{prefix: "dckr_pat_", kind: "docker-token", body: alnumUD, min: 20, max: 255},
		tokenRule{prefix: "glsa_", kind: "grafana-token", body: alnumU, min: 32, max: 255, wordEnd: true},
		tokenRule{prefix: "whsec_", kind: "webhook-secret", body: b64, min: 24, max: 255},
		tokenRule{prefix: "PMAK-", kind: "postman-key", body: alnumD, min: 50, max: 80, wordEnd: true},
		tokenRule{prefix: "lin_api_", kind: "linear-key", body: alnum, min: 40, max: 40, wordEnd: true},
		tokenRule{prefix: "eyJhdXRocyI6", kind: "docker-config", body: b64, min: 20, max: 65536}, // base64 of {"auths":
		tokenRule{prefix: "https://discord.com/api/webhooks/", kind: "discord-webhook", body: webhook, min: 60, max: 255},
		tokenRule{prefix: "https://discordapp.com/api/webhooks/", kind: "discord-webhook", body: webhook, min: 60, max: 255},
	)
	for _, p := range []string{"hvs.", "hvb.", "hvr."} { // Vault service, batch and recovery tokens
		rules = append(rules, tokenRule{prefix: p, kind: "vault-token", body: alnumUD, min: 24, max: 512, ok: mixedCase})
	}
	for _, p := range []string{"dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."} { // Doppler
		rules = append(rules, tokenRule{prefix: p, kind: "doppler-token", body: alnum, min: 40, max: 44, wordEnd: true})
	}
	for _, p := range []string{"shpat_", "shpca_", "shppa_", "shpss_"} { // Shopify
		rules = append(rules, tokenRule{prefix: p, kind: "shopify-token", body: hex, min: 32, max: 32, wordEnd: true})
	}
	for _, p := range []string{"glptt-", "gldt-", "glrt-", "glcbt-", "gloas-"} { // GitLab's other tokens
		rules = append(rules, tokenRule{prefix: p, kind: "gitlab-token", body: alnumUD, min: 20, max: 255})
	}
	for _, p := range []string{"sq0atp-", "sq0csp-"} { // Square
		rules = append(rules, tokenRule{prefix: p, kind: "square-token", body: alnumUD, min: 22, max: 100, wordEnd: true, ok: mixedCase})
	}
	for _, p := range []string{"xapp-", "xoxe.xoxp-", "xoxe-"} { // Slack app and refresh tokens
		rules = append(rules, tokenRule{prefix: p, kind: "slack-token", body: alnumD, min: 20, max: 255})
	}
	for _, p := range []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"} {
		rules = append(rules, tokenRule{prefix: p, kind: "github-token", body: alnum, min: 36, max: 255, wordEnd: true})
	}
	for _, p := range []string{"dop_v1_", "doo_v1_", "dor_v1_"} {
		rules = append(rules, tokenRule{prefix: p, kind: "digitalocean-token", body: hex, min: 64, max: 64, wordEnd: true})
	}
	for _, p := range []string{"xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"} {
		rules = append(rules, tokenRule{prefix: p, kind: "slack-token", body: alnumD, min: 10, max: 255})
	}
	for i := range rules {
		set := new([256]bool)
		for c := range 256 {
			set[c] = rules[i].body(byte(c))
		}
		rules[i].bodySet = set
	}
	return rules
}()

// minToken is the length of the shortest token tokenRules accept whole: no
// body byte is one that ends an unquoted value (valueEnds) or a quote, so a
// shorter value holds none.
var minToken = func() int {
	n := 1 << 20
	for _, t := range tokenRules {
		n = min(n, len(t.prefix)+t.min)
	}
	return n
}()

// tokensByFirst indexes tokenRules by their prefix's first byte, so a value
// is compared with the few prefixes it could start with.
var tokensByFirst = func() (idx [256][]int) {
	for i, t := range tokenRules {
		idx[t.prefix[0]] = append(idx[t.prefix[0]], i)
	}
	return idx
}()

func firstByte(v string) byte {
	if v == "" {
		return 0
	}
	return v[0]
}

// find is the token's finder: the prefix at a word start, the body as long as
// the format allows. A body cut by the end of a chunk (atEnd) is redacted
// whatever its length: the rest may follow in the next chunk.
func (t *tokenRule) find(f *finding, start int) (span, bool) {
	s := f.s
	if start > 0 && isWordByte(s[start-1]) {
		return span{}, false
	}
	b := start + len(t.prefix)
	e := b
	for lim := min(len(s), b+t.max+1); e < lim && t.bodySet[s[e]]; {
		e++
	}
	n := e - b
	if f.atEnd && e == len(s) && n > 0 && n < t.max+1 {
		return span{start, e, t.kind}, true
	}
	if n < t.min {
		return span{}, false
	}
	if t.wordEnd && (n > t.max || e < len(s) && isWordByte(s[e])) {
		return span{}, false
	}
	e = b + min(n, t.max)
	tok := s[start:e]
	if t.kind == "jwt" {
		tok = jwtPrefix(tok)
		e = start + len(tok)
	}
	if t.ok != nil && !t.ok(tok) || monotonous(s[b:e]) {
		return span{}, false
	}
	return span{start, e, t.kind}, true
}

// monotonous: a body of at most two distinct bytes is a mask in a token's
// shape (ghp_XXXXXXXX, sk-0000-0000), an example, not a token.
func monotonous(body string) bool {
	var seen [2]byte
	n := 0
	for i := 0; i < len(body); i++ {
		if slices.Contains(seen[:n], body[i]) {
			continue
		}
		if n == len(seen) {
			return false
		}
		seen[n] = body[i]
		n++
	}
	return true
}

// mixedCase: s has a digit, an upper-case and a lower-case letter.
func mixedCase(s string) bool {
	var seen byte
	for i := 0; i < len(s); i++ {
		seen |= caseBits[s[i]]
	}
	return seen == 7
}

var caseBits = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = 2
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 4
	}
	return t
}()

// jwtPrefix keeps the first three dot-separated parts.
func jwtPrefix(t string) string {
	dots := 0
	for i := 0; i < len(t); i++ {
		if t[i] == '.' {
			if dots++; dots == 3 {
				return t[:i]
			}
		}
	}
	return t
}

// isJWT: header.payload.signature, each at least 8 long (the header with
// its "eyJ").
func isJWT(t string) bool {
	parts := strings.Split(t, ".")
	return len(parts) == 3 && len(parts[0]) >= 11 && len(parts[1]) >= 8 && len(parts[2]) >= 8
}

func slackWebhook(t string) bool {
	p := strings.Split(strings.TrimPrefix(t, "https://hooks.slack.com/services/"), "/")
	return len(p) == 3 && strings.HasPrefix(p[0], "T") && strings.HasPrefix(p[1], "B") && len(p[2]) >= 16
}

// findPEM: a private key's armour from its BEGIN line to its END line; one
// with no END (cut, or still arriving) reaches over the rest of the BEGIN line
// (a key written with \n escapes) and the body lines after it.
func findPEM(f *finding, start int) (span, bool) {
	hdr, ok := pemHeader(f.s, start+len("-----BEGIN "))
	if !ok {
		return span{}, false
	}
	if end := f.pemEnd(hdr); end >= 0 {
		return span{start, end, "private-key"}, true
	}
	_, e := lineAt(f.s, hdr)
	for e < len(f.s) {
		ls, le := e+1, 0
		if _, le = lineAt(f.s, ls); !isPEMBody(f.s[ls:le]) {
			break
		}
		e = le
	}
	if e < len(f.s) && e > 0 && f.s[e-1] == '\r' {
		e--
	}
	return span{start, e, "private-key"}, true
}

// pemHeader checks "[A-Z0-9 ]*PRIVATE KEY-----" at i and returns where it ends.
func pemHeader(s string, i int) (int, bool) {
	j := i
	for j < len(s) && j-i < 64 && ('A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9' || s[j] == ' ') {
		j++
	}
	if !strings.HasSuffix(s[i:j], "PRIVATE KEY") || !strings.HasPrefix(s[j:], "-----") {
		return 0, false
	}
	return j + 5, true
}

// pemEnd returns the end of the first private-key END line at or after from,
// or -1. The answer is remembered: a text of many BEGIN lines and no END
// searches once, not once per BEGIN.
func (f *finding) pemEnd(from int) int {
	if f.endFrom >= 0 && from >= f.endFrom && (f.endAt < 0 || from <= f.endAt) {
		if f.endAt < 0 {
			return -1
		}
		return f.endAt
	}
	f.endFrom, f.endAt = from, -1
	for i := from; ; {
		k := strings.Index(f.s[i:], "-----END ")
		if k < 0 {
			return -1
		}
		if e, ok := pemHeader(f.s, i+k+len("-----END ")); ok {
			f.endAt = e
			return e
		}
		i += k + 1
	}
}

// isPEMBody: a line of a key's body: base64, a header (Proc-Type:
// 4,ENCRYPTED) or blank, optionally behind a line number (cat -n).
func isPEMBody(line string) bool {
	return pemBodyLine.MatchString(strings.TrimRight(line, "\r"))
}

// findPEMTail: the end of a key whose BEGIN line is not in the text (it
// scrolled away, or was left out by truncation): the base64 lines right
// before its END line.
func findPEMTail(f *finding, start int) (span, bool) {
	end, ok := pemHeader(f.s, start+len("-----END "))
	if !ok {
		return span{}, false
	}
	ls, _ := lineAt(f.s, start)
	if strings.TrimSpace(f.s[ls:start]) != "" {
		return span{}, false
	}
	first := ls
	for first > 0 {
		ps, _ := lineAt(f.s, first-1)
		line := strings.TrimSpace(f.s[ps : first-1])
		if len(line) < 16 || strings.IndexFunc(line, func(r rune) bool { return r > 127 || !isBase64Byte(byte(r)) }) >= 0 {
			break
		}
		first = ps
	}
	if first == ls {
		return span{}, false
	}
	return span{first, end, "private-key"}, true
}

// findBase64PEM: base64 of a private key's armour (kubeconfig
// client-key-data, a Secret's tls.key), wrapped over lines or not.
func findBase64PEM(f *finding, start int) (span, bool) {
	s := f.s
	e := start
	for e < len(s) && isBase64Byte(s[e]) {
		e++
	}
	cut := f.atEnd && e == len(s) // the armour may be cut before it says what it is
	if !cut && !decodesTo(s[start:min(e, start+64)], "PRIVATE KEY") {
		return span{}, false
	}
	for e < len(s) && s[e] == '\n' || e+1 < len(s) && s[e] == '\r' && s[e+1] == '\n' {
		ls := e + 1
		if s[e] == '\r' {
			ls++
		}
		le := ls
		for le < len(s) && isBase64Byte(s[le]) {
			le++
		}
		if le-ls < 16 || le < len(s) && s[le] != '\n' && s[le] != '\r' {
			break
		}
		e = le
	}
	return span{start, e, "private-key"}, true
}

// findURLPassword: the password in scheme://user:password@host (the user may
// be empty, as in redis://:password@host).
func findURLPassword(f *finding, start int) (span, bool) {
	s := f.s
	b := start
	for b > 0 && start-b < 32 && (isWordByte(s[b-1]) || s[b-1] == '+' || s[b-1] == '.' || s[b-1] == '-') {
		b--
	}
	if b == start {
		return span{}, false
	}
	// The user starts after "://", or after a marker there (a key redacted
	// before): the rest is judged after the marker, not in it.
	us := start + 3
	if strings.HasPrefix(s[us:], "[REDACTED:") {
		if e := strings.IndexByte(s[us:min(len(s), us+64)], ']'); e > 0 {
			us += e + 1
		}
	}
	i := us
	for i < len(s) && i-start < 256 && !strings.ContainsRune(" \t\r\n:/@", rune(s[i])) {
		i++
	}
	if u := s[us:i]; i == len(s) && f.atEnd && u != "" && !strings.Contains(u, ".") && strings.ContainsAny(u, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return span{us, i, "url-key"}, true // cut where a key as the user may be (a host has dots)
	}
	if i < len(s) && s[i] == '@' && i-us >= 32 && (hexString(s[us:i]) || generated(s[us:i])) {
		return span{us, i, "url-key"}, true // a key as the user: a Sentry DSN
	}
	if i >= len(s) || s[i] != ':' {
		return span{}, false
	}
	p := i + 1
	e := p
	for e < len(s) && e-p < 512 && !strings.ContainsRune(" \t\r\n@/", rune(s[e])) {
		e++
	}
	v := s[p:e]
	if e == len(s) && f.atEnd && v != "" && strings.Trim(v, "0123456789") != "" {
		return span{p, e, "url-password"}, true // user:pass cut before its @ (a port is digits)
	}
	if e >= len(s) || s[e] != '@' || placeholder(v) {
		return span{}, false
	}
	return span{p, e, "url-password"}, true
}

func hexString(v string) bool {
	return strings.Trim(strings.ToLower(v), "0123456789abcdef") == ""
}

// findQuerySignature: a URL's signature parameter (Azure SAS sig=, AWS
// X-Amz-Signature=, GCS X-Goog-Signature=): who holds the URL holds the access.
func findQuerySignature(f *finding, start int) (span, bool) {
	s := f.s
	if start == 0 || strings.IndexByte("?&-", s[start-1]) < 0 {
		return span{}, false
	}
	vs := start + strings.IndexByte(s[start:], '=') + 1
	ve := vs
	for ve < len(s) && !strings.ContainsRune("& \t\r\n'\"<>#", rune(s[ve])) {
		ve++
	}
	if ve-vs < 16 && !(f.atEnd && ve == len(s) && ve > vs) || placeholder(s[vs:ve]) {
		return span{}, false
	}
	return span{vs, ve, "url-signature"}, true
}
