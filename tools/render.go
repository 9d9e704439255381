package tools

import (
	"strings"
	"unicode/utf8"

	"github.com/mcp-terminal/mcp-terminal/security/redact"
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
	return cut(strings.Split(strings.TrimSuffix(h, "\n"), "\n"), strings.Split(t, "\n"),
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

// cut keeps the first head lines and the last tail lines that fit in limit around
// a marker counting everything left out, lines and characters of the omitted
// middle included. As truncate, it never returns more than limit characters.
func cut(head, tail []string, midLines, midRunes, limit int) string {
	lines := len(head) + len(tail) + midLines
	total := midRunes + len(head) + len(tail) - 1 // the newlines after every line but the last
	for _, l := range append(head[:len(head):len(head)], tail...) {
		total += utf8.RuneCountInString(l)
	}
	budget := limit - utf8.RuneCountInString(marker(lines, total, limit))
	if budget < 4 {
		return firstRunes(marker(lines, total, limit), limit)
	}
	var keep []string
	used, kept, keptRunes := 0, 0, 0
	for _, l := range head {
		n := utf8.RuneCountInString(l) + 1
		if used+n > budget/2 {
			if kept == 0 { // one huge first line: keep its start
				keep = append(keep, firstRunes(l, budget/2-1))
				keptRunes += budget/2 - 1
			}
			break
		}
		keep, used, kept, keptRunes = append(keep, l), used+n, kept+1, keptRunes+n-1
	}
	var back []string // last line first
	used = 0
	for i := len(tail) - 1; i >= 0; i-- {
		n := utf8.RuneCountInString(tail[i]) + 1
		if used+n > budget-budget/2 {
			if len(back) == 0 {
				back = append(back, lastRunes(tail[i], budget-budget/2-1))
				keptRunes += budget - budget/2 - 1
			}
			break
		}
		back, used, keptRunes = append(back, tail[i]), used+n, keptRunes+n-1
	}
	for i, j := 0, len(back)-1; i < j; i, j = i+1, j-1 {
		back[i], back[j] = back[j], back[i]
	}
	omitted := max(lines-kept-len(back), 0)
	parts := append(append(keep, marker(omitted, max(total-keptRunes, 0), limit)), back...)
	return strings.Join(parts, "\n")
}

func (s *Server) audit(e redact.Event) { s.cfg.Audit.Record(e) }

func describe(st *session.ExitStatus) string {
	if st == nil {
		return "still running"
	}
	return st.String()
}
