package tools

import (
	"strings"
	"unicode/utf8"

	"github.com/mcp-terminal/mcp-terminal/session"
)

// render prepares one session's output for the agent, redacting only what is
// returned. Output too long for limit is first narrowed to the whole lines that
// can fill the reply from each end (limit characters each); those are redacted, the
// session's stream is told what lies between (a key still open?), and the redacted
// text is cut to limit. The cut is made in redacted text, so a secret it crosses
// never shows its visible half, and a marker longer than the secret it replaces
// never pushes the reply past limit.
func (s *Server) render(id, output string, limit int) (string, bool) {
	gd := s.guards.get(id, s.cfg.Redactor)
	head, middle, tail := around(output, limit)
	if middle == "" {
		return truncate(gd.clean(output), limit)
	}
	h := gd.clean(head)
	gd.stream.Skip(middle)
	t := gd.clean(tail)
	kept := strings.Split(strings.TrimSuffix(h, "\n"), "\n")
	return keepEnds(append(kept, strings.Split(t, "\n")...), len(kept),
		strings.Count(middle, "\n"), utf8.RuneCountInString(middle), limit), true
}

// around splits output into the whole lines at its start and at its end that hold at
// least limit characters each, and what lies between; middle is empty when they
// meet. Only head and tail are redacted, so this is all a long output costs.
func around(output string, limit int) (head, middle, tail string) {
	h, runes := 0, 0
	for h < len(output) && runes < limit {
		i := strings.IndexByte(output[h:], '\n')
		if i < 0 {
			return output, "", ""
		}
		runes += utf8.RuneCountInString(output[h : h+i+1])
		h += i + 1
	}
	t, runes := len(output), 0
	for t > h && runes < limit {
		i := strings.LastIndexByte(output[h:t-1], '\n')
		if i < 0 {
			return output, "", ""
		}
		runes += utf8.RuneCountInString(output[h+i+1 : t])
		t = h + i + 1
	}
	if t <= h {
		return output, "", ""
	}
	return output[:h], output[h:t], output[t:]
}

func describe(st *session.ExitStatus) string {
	if st == nil {
		return "still running"
	}
	return st.String()
}
