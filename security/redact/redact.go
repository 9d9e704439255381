package redact

import (
	"slices"
	"strings"
)

// Redactor replaces secrets with "[REDACTED:<kind>]". It knows formats it can
// recognise with high confidence (tokens with known prefixes, private keys,
// credentials in URLs and connection strings) and values given to keys that
// name a secret (password=, "SecretAccessKey":, DD_APP_KEY=, --password x),
// and leaves alone what only looks like one: git SHAs, UUIDs, checksums,
// public keys and certificates, placeholders (<your-token>, ${TOKEN}, xxxx),
// references (secretName: db-credentials, password_file: /run/secrets/x),
// short numbers (token: 1234), descriptions (password:  16 bytes) and
// prompts (password: user@host:~$). A Redactor is safe for concurrent use.
//
// It makes one pass over the text with an automaton of anchors (redact_scan.go)
// and runs the specific checks only where an anchor is, so it redacts
// keyword-dense output at well over 100 MB/s (README, Safety model).
type Redactor struct {
	enabled bool
}

// NewRedactor returns a Redactor; a disabled one returns its input unchanged.
func NewRedactor(enabled bool) *Redactor {
	return &Redactor{enabled: enabled}
}

// Redact returns s with every recognised secret replaced. A nil or disabled
// Redactor returns s unchanged.
func (r *Redactor) Redact(s string) string {
	if r == nil || !r.enabled || s == "" {
		return s
	}
	return redactText(s)
}

// Span is where a secret lies in a text: the bytes [Start, End), of Kind (what
// Redact writes as "[REDACTED:<Kind>]").
type Span struct {
	Start, End int
	Kind       string
}

// Secrets returns where Redact would replace secrets in s, in order and not
// overlapping; none from a nil or disabled Redactor. It lets a caller that draws
// text in pieces (the rows of a screen) redact a secret that runs across them.
func (r *Redactor) Secrets(s string) []Span {
	if r == nil || !r.enabled || s == "" {
		return nil
	}
	found := findSecrets(s, false, nil)
	out := make([]Span, len(found))
	for i, sp := range found {
		out[i] = Span{sp.start, sp.end, sp.kind}
	}
	return out
}

// redactText writes the redacted text as the secrets are found, so that
// keyword-dense text keeps no list of them. A secret found before one already
// written (the base64 lines before a key's END line) sends it back to
// findSecrets, which sorts and merges.
func redactText(s string) string {
	var b strings.Builder
	f := &finding{s: s, endFrom: -1}
	defer f.done()
	written, ordered := 0, true
	scanner.scan(s, func(start int, w *anchorWord) {
		if !ordered || f.inSecret(start) {
			return
		}
		sp, ok := w.find(f, start)
		if !ok || sp.end <= sp.start {
			return
		}
		if sp.start < written {
			ordered = false
			return
		}
		if b.Cap() == 0 {
			b.Grow(len(s) + len(s)/4 + 64)
		}
		b.WriteString(s[written:sp.start])
		writeMarker(&b, sp.kind)
		written = sp.end
		f.found(sp)
	})
	switch {
	case !ordered:
		return apply(s, findSecrets(s, false, nil))
	case written == 0:
		return s
	}
	b.WriteString(s[written:])
	return b.String()
}

func writeMarker(b *strings.Builder, kind string) {
	b.WriteString("[REDACTED:")
	b.WriteString(kind)
	b.WriteByte(']')
}

// span is one secret found in a text: the bytes [start, end) give way to the
// marker "[REDACTED:kind]".
type span struct {
	start, end int
	kind       string
}

// finder looks at the anchor hit at start and returns the secret there, if
// any (ok false: none).
type finder func(f *finding, start int) (sp span, ok bool)

// finding is one pass over one text.
type finding struct {
	s     string
	atEnd bool // the text is a chunk cut where more may follow: a value running into its end may be the first part of a secret
	spans []span

	covered     int // hits from coveredFrom to before covered lie inside secrets already found
	coveredFrom int
	keysDone    int // key names before this offset were judged already
	lineDone    int // lines before this offset were judged as .pgpass lines already
	endFrom     int // memo for the next private-key END line (see pemEnd)
	endAt       int
	kinds       *keyMemo // nil until a key is judged
	lent        bool     // kinds is from memos, to go back when the pass ends
}

var scanner = newAnchors(anchorWords())

// inSecret: the hit at start lies inside the secrets found last, where there is
// nothing more to find. A hit before them is looked at: the secret an anchor
// leads to may start well after it (a URL's password after its user, which may
// be a token itself; a value after its key).
func (f *finding) inSecret(start int) bool {
	return f.coveredFrom <= start && start < f.covered
}

// found records a secret found.
func (f *finding) found(sp span) {
	if sp.start > f.covered {
		f.coveredFrom = sp.start
	} else {
		f.coveredFrom = min(f.coveredFrom, sp.start)
	}
	f.covered = max(f.covered, sp.end)
}

// done returns a lent memo.
func (f *finding) done() {
	if f.lent {
		memos.Put(f.kinds)
		f.kinds, f.lent = nil, false
	}
}

// findSecrets returns the secrets in s, in order and not overlapping. atEnd:
// s ends where its chunk was cut (see Stream). kinds: the key names judged
// before (nil: none, or a Redactor's one-off text).
func findSecrets(s string, atEnd bool, kinds *keyMemo) []span {
	return appendSecrets(make([]span, 0, min(len(s)/64, 1024)), s, atEnd, kinds) // keyword-dense text holds a secret every few lines
}

// appendSecrets is findSecrets appending to spans (a Stream's, kept from one
// read to the next).
func appendSecrets(spans []span, s string, atEnd bool, kinds *keyMemo) []span {
	f := &finding{s: s, atEnd: atEnd, endFrom: -1, kinds: kinds, spans: spans}
	defer f.done()
	scanner.scan(s, func(start int, w *anchorWord) {
		if f.inSecret(start) {
			return
		}
		if sp, ok := w.find(f, start); ok && sp.end > sp.start {
			f.spans = append(f.spans, sp)
			f.found(sp)
		}
	})
	return merge(f.spans)
}

// merge sorts spans and joins those that overlap; the first keeps its kind.
func merge(spans []span) []span {
	if len(spans) < 2 {
		return spans
	}
	byStart := func(a, b span) int { return a.start - b.start }
	if !slices.IsSortedFunc(spans, byStart) { // found in order of where their anchors end, almost always sorted
		slices.SortStableFunc(spans, byStart)
	}
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.start < last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// apply writes s with every span replaced by its marker.
func apply(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 24*len(spans))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		writeMarker(&b, sp.kind)
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String()
}

func anchorWords() []anchorWord {
	var w []anchorWord
	for i := range tokenRules {
		w = append(w, anchorWord{text: tokenRules[i].prefix, exact: true, find: tokenRules[i].find})
	}
	for _, k := range []string{"pass", "pwd", "pw", "secret", "token", "key", "auth"} {
		w = append(w, anchorWord{text: k, find: findAssignment})
	}
	for _, pf := range passwordFlags {
		w = append(w, anchorWord{text: pf.cmd, find: findPasswordFlag})
	}
	w = append(w, anchorWord{text: "curl ", find: findUserFlag}, anchorWord{text: "identified ", find: findIdentifiedBy},
		anchorWord{text: "sig=", find: findQuerySignature}, anchorWord{text: "signature=", find: findQuerySignature})
	for _, k := range []string{":0", ":1", ":2", ":3", ":4", ":5", ":6", ":7", ":8", ":9", ":*:"} {
		w = append(w, anchorWord{text: k, exact: true, find: findPgpass})
	}
	return append(w,
		anchorWord{text: "-----BEGIN ", exact: true, find: findPEM},
		anchorWord{text: "-----END ", exact: true, find: findPEMTail},
		anchorWord{text: "LS0tLS1CRUdJTi", exact: true, find: findBase64PEM}, // base64 of "-----BEGIN"
		anchorWord{text: "://", exact: true, find: findURLPassword},
	)
}

// The byte classes are tables: they are asked about every byte around every
// anchor hit.
var (
	wordBytes   = byteSet("_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	keyBytes    = byteSet("-._0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	base64Bytes = byteSet("+/=0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
)

func isWordByte(c byte) bool { return wordBytes[c] }

func isBase64Byte(c byte) bool { return base64Bytes[c] }

// lineAt returns the bounds of the line holding offset i.
func lineAt(s string, i int) (start, end int) {
	start = strings.LastIndexByte(s[:i], '\n') + 1
	end = strings.IndexByte(s[i:], '\n')
	if end < 0 {
		return start, len(s)
	}
	return start, i + end
}
