package redact

import (
	"regexp"
	"strings"
)

// Redactor replaces secrets with "[REDACTED:<kind>]". It only knows formats
// it can recognise with high confidence, so nothing innocent disappears: git
// SHAs, UUIDs, checksums and ssh public keys are left alone. A Redactor is
// safe for concurrent use.
type Redactor struct {
	enabled bool
}

// NewRedactor returns a Redactor; a disabled one returns its input unchanged.
func NewRedactor(enabled bool) *Redactor {
	return &Redactor{enabled: enabled}
}

type secretPattern struct {
	kind string
	re   *regexp.Regexp
	keep int                   // submatch kept in front of the marker (0: none)
	ok   func(m []string) bool // extra check on the submatches; nil: always
}

// secretPatterns run in order; whole PEM blocks go first so no later pattern
// sees their body.
var secretPatterns = []secretPattern{
	{kind: "private-key", re: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----|[\s\S]*)`)},
	// The tail of a block whose BEGIN line scrolled away: body lines right
	// before an END line.
	{kind: "private-key", re: regexp.MustCompile(`(?m)(?:^[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*\r?\n)+[ \t]*-----END [A-Z0-9 ]*PRIVATE KEY-----`)},
	{kind: "aws-secret-access-key", re: regexp.MustCompile(`(?i)(\baws_secret_access_key["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+=]{40})\b`), keep: 1},
	{kind: "gitlab-token", re: regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`)},
	{kind: "npm-token", re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`)},
	{kind: "pypi-token", re: regexp.MustCompile(`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`)},
	{kind: "huggingface-token", re: regexp.MustCompile(`\bhf_[A-Za-z0-9]{34,}\b`)},
	{kind: "sendgrid-key", re: regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`)},
	{kind: "slack-webhook", re: regexp.MustCompile(`https://hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]{16,}`)},
	{kind: "google-oauth-token", re: regexp.MustCompile(`\bya29\.[A-Za-z0-9_-]{20,}`)},
	{kind: "digitalocean-token", re: regexp.MustCompile(`\bdo[por]_v1_[a-f0-9]{64}\b`)},
	{kind: "github-token", re: regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`)},
	{kind: "github-token", re: regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`)},
	{kind: "aws-access-key-id", re: regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`)},
	{kind: "slack-token", re: regexp.MustCompile(`\bxox[baprs]-[A-Za-z0-9-]{10,}`)},
	{kind: "stripe-key", re: regexp.MustCompile(`\b[rs]k_live_[A-Za-z0-9]{16,}\b`)},
	{kind: "api-key", re: regexp.MustCompile(`\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}`), ok: mixedCase},
	{kind: "google-api-key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`)},
	{kind: "jwt", re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{kind: "bearer-token", re: regexp.MustCompile(`(?i)(\bAuthorization:[ \t]*(?:Bearer|Basic|token)[ \t]+)([A-Za-z0-9._~+/-]{16,}=*)`), keep: 1, ok: mixedCase},
	{kind: "url-password", re: regexp.MustCompile(`(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:)([^\s@/]+)@`), keep: 1, ok: realValue(2)},
	{kind: "", re: assignmentRe, keep: 1, ok: realValue(3)},
}

// assignmentRe: password=..., "api_key": "...", PGPASSWORD=..., secret: ...
// Group 2 is the keyword (the marker's kind), group 3 the value.
var assignmentRe = regexp.MustCompile(`(?i)(\b[a-z0-9_.-]*?(password|passwd|secret|token|api[_-]?key|apikey)["']?[ \t]*[:=][ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s'"&;,)}\]]+)`)

func mixedCase(m []string) bool {
	s := m[0]
	return strings.ContainsAny(s, "0123456789") && strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
		strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyz")
}

var placeholder = regexp.MustCompile(`(?i)^(?:\$.*|<.*>|\{.*\}|%.*|\**|x+|\.+|null|none|nil|true|false|\[REDACTED:.*|[a-z_]+\(.*|\[.*)$`)

// realValue rejects empty values, variables ($VAR, ${VAR}), placeholders
// (<...>, ***, xxx) and code (function calls, indexing).
func realValue(group int) func([]string) bool {
	return func(m []string) bool {
		v := strings.Trim(m[group], `"'`)
		return v != "" && !placeholder.MatchString(v) && !strings.ContainsAny(v, "([")
	}
}

// Redact returns s with every recognised secret replaced. A nil or disabled
// Redactor returns s unchanged.
func (r *Redactor) Redact(s string) string {
	if r == nil || !r.enabled || s == "" {
		return s
	}
	for _, p := range secretPatterns {
		s = p.apply(s)
	}
	return s
}

func (p secretPattern) apply(s string) string {
	return replaceSubmatch(p.re, s, func(m []string) string {
		if p.ok != nil && !p.ok(m) {
			return m[0]
		}
		kind := p.kind
		if kind == "" {
			kind = strings.ToLower(strings.NewReplacer("-", "_", "apikey", "api_key", "passwd", "password").Replace(m[2]))
		}
		prefix := ""
		if p.keep > 0 {
			prefix = m[p.keep]
		}
		suffix := ""
		switch {
		case kind == "url-password":
			suffix = "@"
		case p.kind == "" && strings.ContainsAny(m[3][:1], `"'`):
			prefix, suffix = prefix+m[3][:1], m[3][:1]
		}
		return prefix + "[REDACTED:" + kind + "]" + suffix
	})
}

func replaceSubmatch(re *regexp.Regexp, s string, f func([]string) string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range idx {
		m := make([]string, len(loc)/2)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = s[loc[2*i]:loc[2*i+1]]
			}
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(f(m))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
