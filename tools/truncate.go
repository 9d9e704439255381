package tools

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/graphemes"
)

// truncate keeps the beginning and the end of s within limit characters, cut at line
// boundaries where possible, with an explicit marker saying how much was left out and
// where to find it. It never cuts silently, and the result, marker included, is never
// longer than limit.
func truncate(s string, limit int) (string, bool) {
	if utf8.RuneCountInString(s) <= limit {
		return s, false
	}
	lines := strings.Split(s, "\n")
	return keepEnds(lines, len(lines), 0, 0, limit), true
}

// keepEnds keeps whole lines from the start and the end of lines within limit
// characters, with a marker between them counting everything left out. A gap of
// gapLines lines and gapRunes characters, already left out, sits before lines[gapAt]
// (render leaves out the middle of a long output before redacting); the tail never
// reaches back across it.
func keepEnds(lines []string, gapAt, gapLines, gapRunes, limit int) string {
	total := gapRunes + len(lines) - 1 // the newlines after every line but the last
	for _, l := range lines {
		total += utf8.RuneCountInString(l)
	}
	count := len(lines) + gapLines
	// The marker is reserved at its longest (every line and character left out, or
	// the middle of one line), so the real one, never longer, fits. Each kept line
	// costs its length and one newline: the one after it in the head, the one
	// before it in the tail.
	reserve := max(utf8.RuneCountInString(marker(count, total, limit)), utf8.RuneCountInString(marker(0, total, limit)))
	budget := limit - reserve
	if budget < 4 {
		// No room for output: the marker alone, cut to fit, still says what happened.
		return firstRunes(marker(count, total, limit), limit)
	}
	headBudget := budget / 2
	tailBudget := budget - headBudget

	var head []string
	used, whole := 0, 0 // whole: lines kept entirely at the head
	for _, l := range lines[:gapAt] {
		n := utf8.RuneCountInString(l) + 1
		if used+n > headBudget {
			if len(head) == 0 { // one huge first line: keep its start
				head = append(head, firstRunes(l, headBudget-1))
			}
			break
		}
		head = append(head, l)
		used += n
		whole++
	}
	headCut := len(head) > whole // the head kept only the start of lines[whole]
	stop := whole
	if gapLines > 0 || gapRunes > 0 {
		stop = max(whole, gapAt)
	}
	var tail []string // built last line first
	used = 0
	for i := len(lines) - 1; i >= stop; i-- {
		n := utf8.RuneCountInString(lines[i]) + 1
		if used+n > tailBudget {
			// The line the head cut keeps its end too, after what the tail already
			// holds: one huge line of output with a shell's prompt below it.
			if room := tailBudget - used - 1; len(tail) == 0 || i == whole && headCut && room > 0 {
				tail = append(tail, lastRunes(lines[i], room))
			}
			break
		}
		tail = append(tail, lines[i])
		used += n
	}
	slices.Reverse(tail)
	keptRunes := 0
	for _, l := range head {
		keptRunes += utf8.RuneCountInString(l)
	}
	for _, l := range tail {
		keptRunes += utf8.RuneCountInString(l)
	}
	omittedLines := max(count-whole-len(tail), 0)
	parts := append(append(head, marker(omittedLines, max(total-keptRunes, 0), limit)), tail...)
	return strings.Join(parts, "\n")
}

func marker(lines, chars, limit int) string {
	what := fmt.Sprintf("%d lines (%d characters)", lines, chars)
	switch lines {
	case 0:
		what = fmt.Sprintf("%d characters of a line", chars) // the middle of one long line
	case 1:
		what = fmt.Sprintf("1 line (%d characters)", chars)
	}
	return fmt.Sprintf("[... %s omitted: the output was longer than max_output_chars=%d; "+
		"read_output with full_screen: true and a larger max_output_chars shows the scrollback ...]", what, limit)
}

// firstRunes returns the longest start of s of at most n characters that ends
// between two grapheme clusters: a letter with its accents, an emoji sequence
// joined by ZWJ or a flag is kept whole or left out whole.
func firstRunes(s string, n int) string {
	end, count := 0, 0
	for g := graphemes.FromString(s); g.Next(); {
		if count += utf8.RuneCountInString(g.Value()); count > n {
			break
		}
		end = g.End()
	}
	return s[:end]
}

// lastRunes returns the longest end of s of at most n characters that begins a
// grapheme cluster.
func lastRunes(s string, n int) string {
	count := utf8.RuneCountInString(s)
	if count <= n {
		return s
	}
	cut := len(s) - len(firstRunesFrom(s, count-n))
	// Clusters are found from the last sure break before the cut, not from the
	// start of what may be a megabyte-long line.
	base := breakBefore(s, cut)
	for g := graphemes.FromString(s[base:]); g.Next(); {
		if base+g.Start() >= cut {
			return s[base+g.Start():]
		}
	}
	return ""
}

// breakBefore returns the last offset at or before i where a grapheme cluster
// surely begins: between two ASCII characters other than CR LF (none of them
// extends, joins or prepends), or the start of s.
func breakBefore(s string, i int) int {
	for ; i > 0; i-- {
		if i < len(s) && s[i-1] < utf8.RuneSelf && s[i] < utf8.RuneSelf && (s[i-1] != '\r' || s[i] != '\n') {
			return i
		}
	}
	return 0
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
