package redact

import (
	"regexp"
	"strings"
	"sync"
)

// Stream redacts a sequence of chunks of one terminal's output (successive
// results, or successive screens as the output scrolls). It remembers being
// inside a PEM private-key block between calls, so body lines arriving
// without their BEGIN line are still redacted. Create one per session with
// (*Redactor).Stream. A Stream is safe for concurrent use.
type Stream struct {
	r      *Redactor
	mu     sync.Mutex
	inKey  bool   // the last chunk ended inside a private-key block
	tail   string // the last chunk's unterminated last line (bounded)
	enable bool
}

// Stream returns a new Stream that redacts as r does. A nil or disabled
// Redactor yields a Stream that returns chunks unchanged.
func (r *Redactor) Stream() *Stream {
	return &Stream{r: r, enable: r != nil && r.enabled}
}

const maxTail = 256

var (
	pemBeginLine = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----`)
	pemEndLine   = regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY-----`)
	// pemBodyLine: base64, a header (Proc-Type: 4,ENCRYPTED), a blank line,
	// optionally behind a line number (cat -n).
	pemBodyLine = regexp.MustCompile(`^[ \t]*(?:\d+[ \t:|]+)?(?:[A-Za-z0-9+/=]*|[A-Za-z-]+: .*)[ \t\r]*$`)
)

// Redact returns chunk with every recognised secret replaced, including the
// body lines of a private-key block that began in an earlier chunk.
func (s *Stream) Redact(chunk string) string {
	if s == nil || !s.enable || chunk == "" {
		return chunk
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out strings.Builder
	rest := chunk
	if s.inKey || s.beginSplit(chunk) {
		n, ended := s.keyBodyLen(chunk)
		if n > 0 {
			out.WriteString("[REDACTED:private-key]")
			if chunk[n-1] == '\n' {
				out.WriteByte('\n')
			}
		}
		rest, s.inKey = chunk[n:], !ended
	}
	if !s.inKey {
		out.WriteString(s.r.Redact(rest))
		s.inKey = endsInsideKey(rest)
	}
	s.remember(chunk)
	return out.String()
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
// a truncated key never swallows what follows. The first line is judged
// together with the previous chunk's unterminated last line.
func (s *Stream) keyBodyLen(chunk string) (n int, ended bool) {
	first := true
	for line := range strings.Lines(chunk) {
		probe := line
		if first {
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
	b := pemBeginLine.FindAllStringIndex(s, -1)
	if b == nil {
		return false
	}
	last := b[len(b)-1][1]
	return !pemEndLine.MatchString(s[last:])
}

// remember keeps the unterminated last line, for a BEGIN or END line split
// between chunks.
func (s *Stream) remember(chunk string) {
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
