package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// truncate keeps the beginning and the end of s within limit characters, cut at line
// boundaries where possible, with an explicit marker saying how much was left out and
// where to find it. It never cuts silently.
func truncate(s string, limit int) (string, bool) {
	total := utf8.RuneCountInString(s)
	if total <= limit {
		return s, false
	}
	lines := strings.Split(s, "\n")
	budget := limit - 160 // room for the marker
	if budget < 2 {
		budget = 2
	}
	headBudget := budget / 2
	tailBudget := budget - headBudget

	var head []string
	used, whole := 0, 0 // whole: lines kept entirely at the head
	for _, l := range lines {
		n := utf8.RuneCountInString(l) + 1
		if used+n > headBudget {
			if len(head) == 0 { // one huge first line: keep its start
				head = append(head, firstRunes(l, headBudget))
			}
			break
		}
		head = append(head, l)
		used += n
		whole++
	}
	var tail []string
	used = 0
	for i := len(lines) - 1; i >= whole; i-- {
		n := utf8.RuneCountInString(lines[i]) + 1
		if used+n > tailBudget {
			if len(tail) == 0 {
				tail = append(tail, lastRunes(lines[i], tailBudget))
			}
			break
		}
		tail = append([]string{lines[i]}, tail...)
		used += n
	}
	keptRunes := 0
	for _, l := range head {
		keptRunes += utf8.RuneCountInString(l)
	}
	for _, l := range tail {
		keptRunes += utf8.RuneCountInString(l)
	}
	omittedLines := len(lines) - whole - len(tail)
	if omittedLines < 0 {
		omittedLines = 0
	}
	marker := fmt.Sprintf("[... %d lines (%d characters) omitted: the output was longer than max_output_chars=%d; "+
		"read_output with full_screen: true shows the scrollback ...]",
		omittedLines, max(total-keptRunes, 0), limit)
	parts := append(append(head, marker), tail...)
	return strings.Join(parts, "\n"), true
}

func firstRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

func lastRunes(s string, n int) string {
	count := utf8.RuneCountInString(s)
	if count <= n {
		return s
	}
	return firstRunesFrom(s, count-n)
}

func firstRunesFrom(s string, skip int) string {
	i := 0
	for pos := range s {
		if i == skip {
			return s[pos:]
		}
		i++
	}
	return ""
}
