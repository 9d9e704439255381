package redact

import (
	"regexp"
	"strings"
	"sync"
)

// Stream redacts a sequence of chunks of one terminal's output (successive
// results, or successive screens as the output scrolls). It remembers being
// inside a PEM private-key block between calls, so body lines arriving
// without their BEGIN line are still redacted, and the previous chunk's
// unterminated last line, so a secret cut between two chunks is found whole:
// the first part is redacted because it runs into the end of its chunk, the
// rest because it continues what came before. Create one per session with
// (*Redactor).Stream. A Stream is safe for concurrent use.
type Stream struct {
	r      *Redactor
	mu     sync.Mutex
	inKey  bool   // the last chunk ended inside a private-key block
	tail   string // the last chunk's unterminated last line (bounded)
	before string // the end of the output so far, the context a secret cut between chunks is judged in (bounded)
	enable bool
	kinds  keyMemo // the key names judged in this output so far
	spans  []span  // reused from read to read
}

// Stream returns a new Stream that redacts as r does. A nil or disabled
// Redactor yields a Stream that returns chunks unchanged.
func (r *Redactor) Stream() *Stream {
	return &Stream{r: r, enable: r != nil && r.enabled}
}

// maxTail bounds the unterminated line kept for the next chunk, and
// maxBefore the context kept with it (a .netrc entry's machine and login
// lines): longer than any token format but a JWT's rare extremes.
const (
	maxTail   = 4096
	maxBefore = 4096
)

var (
	pemBeginLine = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----`)
	pemEndLine   = regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY-----`)
	// pemBodyLine: base64, a header (Proc-Type: 4,ENCRYPTED), a blank line,
	// optionally behind a line number (cat -n).
	pemBodyLine = regexp.MustCompile(`^[ \t]*(?:\d+[ \t:|]+)?(?:[A-Za-z0-9+/=]*|[A-Za-z-]+: .*)[ \t\r]*$`)
)

// Redact returns chunk with every recognised secret replaced, including the
// body lines of a private-key block that began in an earlier chunk and the
// rest of a secret cut at the end of the previous chunk.
func (s *Stream) Redact(chunk string) string {
	if s == nil || !s.enable || chunk == "" {
		return chunk
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.redact(chunk, true)
	s.remember(chunk)
	return out
}

// Peek redacts a screen as Redact would, without changing what the Stream
// remembers: for a look at the terminal between results (a progress
// message). A screen may begin inside a key whose BEGIN line scrolled away,
// so leading base64 lines as long as a key's are taken for its body.
func (s *Stream) Peek(screen string) string {
	if s == nil || !s.enable || screen == "" {
		return screen
	}
	s.mu.Lock()
	p := Stream{r: s.r, enable: true, inKey: s.inKey}
	s.mu.Unlock()
	if first, _, _ := strings.Cut(strings.TrimLeft(screen, "\r\n"), "\n"); longBase64(first) {
		p.inKey = true
	}
	return p.redact(screen, false)
}

// Skip tells the Stream about output it will not be asked to redact (what
// truncation leaves out), so that its state after it is right: whether a key
// is still open.
func (s *Stream) Skip(text string) {
	if s == nil || !s.enable || text == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var begins, ends [][]int
	if strings.Contains(text, "PRIVATE KEY-----") { // in every BEGIN and END line; the regexps stop at every run of dashes
		begins = pemBeginLine.FindAllStringIndex(text, -1)
		ends = pemEndLine.FindAllStringIndex(text, -1)
	}
	lastBegin, lastEnd := -1, -1
	if begins != nil {
		lastBegin = begins[len(begins)-1][0]
	}
	if ends != nil {
		lastEnd = ends[len(ends)-1][0]
	}
	switch {
	case lastBegin > lastEnd:
		s.inKey = true
	case lastEnd >= 0:
		s.inKey = false
	case s.inKey: // still open if everything skipped was key body
		for line := range strings.Lines(text) {
			if !isPEMBody(strings.TrimRight(line, "\n")) {
				s.inKey = false
				break
			}
		}
	}
	s.tail, s.before = "", ""
	s.remember(text)
}

func longBase64(line string) bool {
	line = strings.TrimSpace(line)
	if len(line) < 40 {
		return false
	}
	for i := 0; i < len(line); i++ {
		if !isBase64Byte(line[i]) {
			return false
		}
	}
	return true
}

// redact is Redact without the lock and without remembering; carry: the chunk
// continues the previous chunk's last line.
func (s *Stream) redact(chunk string, carry bool) string {
	if !s.inKey && !(carry && s.tail != "" && s.beginSplit(chunk)) {
		out := s.redactRest(chunk, carry) // the common case: no key open, nothing to write before
		s.inKey = endsInsideKey(chunk)
		return out
	}
	var out strings.Builder
	out.Grow(len(chunk))
	rest := chunk
	if s.inKey || carry && s.beginSplit(chunk) {
		n, ended := s.keyBodyLen(chunk, carry)
		if n > 0 {
			out.WriteString("[REDACTED:private-key]")
			if chunk[n-1] == '\n' {
				out.WriteByte('\n')
			}
		}
		rest, s.inKey = chunk[n:], !ended
		carry = false
	}
	if !s.inKey {
		out.WriteString(s.redactRest(rest, carry))
		s.inKey = endsInsideKey(rest)
	}
	return out.String()
}

// redactRest redacts text as the continuation of the previous chunk's last
// line when carry is set; a secret running into the end of text (no newline
// after it) is redacted however short, as the first part of one.
func (s *Stream) redactRest(text string, carry bool) string {
	prev := ""
	if carry {
		prev = s.before
	}
	joined := prev + text
	atEnd := !strings.HasSuffix(text, "\n")
	spans := appendSecrets(s.spans[:0], joined, atEnd, &s.kinds)
	own := spans[:0] // filtered in place: an element is written only after it is read
	for _, sp := range spans {
		if sp.end <= len(prev) {
			continue
		}
		sp.start = max(sp.start, len(prev)) - len(prev)
		sp.end -= len(prev)
		own = append(own, sp)
	}
	out := apply(text, own)
	if cap(spans) <= 1024 {
		s.spans = spans
	}
	return out
}

// beginSplit: the previous chunk ended with part of a BEGIN line that this
// chunk completes.
func (s *Stream) beginSplit(chunk string) bool {
	if s.tail == "" {
		return false
	}
	first, _, _ := strings.Cut(chunk, "\n")
	return pemBeginLine.MatchString(s.tail+first) && !pemBeginLine.MatchString(s.tail)
}

// keyBodyLen returns how many bytes at the start of chunk still belong to
// the open block, and whether the block ends there: after its END line, or
// before a line that cannot be part of a key (a prompt, ordinary output), so
// a truncated key never swallows what follows. With carry, the first line is
// judged together with the previous chunk's unterminated last line.
func (s *Stream) keyBodyLen(chunk string, carry bool) (n int, ended bool) {
	first := true
	for line := range strings.Lines(chunk) {
		probe := line
		if first && carry {
			probe = s.tail + line
		}
		switch {
		case pemEndLine.MatchString(probe):
			return n + len(line), true
		case first && pemBeginLine.MatchString(probe):
		case !pemBodyLine.MatchString(strings.TrimRight(probe, "\r\n")):
			return n, true
		}
		first = false
		n += len(line)
	}
	return n, false
}

// endsInsideKey: the last BEGIN of a private key in s has no END after it.
func endsInsideKey(s string) bool {
	if !strings.Contains(s, "BEGIN ") { // not "-----BEGIN ": a search for it stops at every dash of a log
		return false
	}
	if !strings.Contains(s, "-----BEGIN ") {
		return false
	}
	b := pemBeginLine.FindAllStringIndex(s, -1)
	if b == nil {
		return false
	}
	last := b[len(b)-1][1]
	return !pemEndLine.MatchString(s[last:])
}

// Answered tells the Stream that the terminal took input it did not echo (a
// password typed at the prompt the last chunk ended with): what follows is not
// the rest of a value cut at the end of that chunk, which would otherwise be
// redacted however it looks ("Secret: " then "got16").
func (s *Stream) Answered() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tail, s.before = "", ""
}

// remember keeps the unterminated last line, for a BEGIN or END line or a
// secret split between chunks.
func (s *Stream) remember(chunk string) {
	if len(chunk) >= maxBefore {
		s.before = chunk[len(chunk)-maxBefore:]
	} else {
		s.before = s.before[max(0, len(s.before)+len(chunk)-maxBefore):] + chunk
	}
	// The context is the unterminated line and the three lines before it.
	if i := lastLines(s.before, 4); i > 0 {
		s.before = s.before[i:]
	}
	i := strings.LastIndexByte(chunk, '\n')
	if i < 0 {
		s.tail += chunk
	} else {
		s.tail = chunk[i+1:]
	}
	if len(s.tail) > maxTail {
		s.tail = s.tail[len(s.tail)-maxTail:]
	}
}

// lastLines returns where the last n lines of s begin (an unterminated last
// line counts).
func lastLines(s string, n int) int {
	end := len(s)
	if strings.HasSuffix(s, "\n") {
		end--
	}
	for range n {
		i := strings.LastIndexByte(s[:end], '\n')
		if i < 0 {
			return 0
		}
		end = i
	}
	return end + 1
}
