package session

import (
	"maps"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/detect"
	"github.com/mcp-terminal/mcp-terminal/screen"
)

// Output no reply has given. A reply ends at the cursor; what arrives after it and
// before the next input, or what a typed-ahead reply leaves out as an earlier
// command's, is kept (the gap) until a read that waits for such output returns it.

// unseenBefore reports whether output arrived after the last reply and before the
// input marked at from. It belongs to no reply, so it is kept for the next read that
// waits for output the agent has not been given.
//
// It is cut as a read would cut it: after a clear, what was drawn since the clear (the
// cursor may now be above where the last reply ended).
func (s *Session) unseenBefore(from mark) bool {
	s.mu.Lock()
	seen, echoes := s.seen, s.unseenEchoes
	s.mu.Unlock()
	if seen.written == from.written || seen.at.IsZero() || from.alt {
		// A full-screen program's screen is every reply's whole output: what it
		// drew in between is in the next one, and its screen kept as the gap would
		// let a read's wait_for match what it showed long before.
		return false
	}
	text := s.dropPromptLine(s.unseenSince(seen, echoes))
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addGapLocked(text)
}

// unseenSince is the output after the reply that ended at seen, the echoes of that
// reply's input removed. An echo is a line that shows a prompt followed by the typed
// line (dropEchoLines), and the line the reply ended on is judged whole: a reply
// given before the terminal echoed its input (a short timeout on a loaded machine,
// a program that echoes for itself) ended on the prompt's line, and the echo came
// after it there, with the prompt before the cut.
func (s *Session) unseenSince(seen mark, echoes []string) string {
	if len(echoes) > 0 && seen.pos.Col > 0 {
		lineStart := seen
		lineStart.pos.Col = 0
		first, rest, _ := strings.Cut(s.outputSince(lineStart, nil), "\n")
		if isEcho(first, echoes[0]) {
			return dropEchoLines(rest, echoes[1:])
		}
	}
	return dropEchoLines(s.outputSince(seen, nil), echoes)
}

// dropPromptLine drops the cursor's line, the last of text, when it is a prompt: the
// next input is typed on it and nothing in it is output to keep.
func (s *Session) dropPromptLine(text string) string {
	i := strings.LastIndexByte(text, '\n')
	last := text[i+1:]
	if _, ok := detect.MatchPrompt(last); !ok {
		// A prompt the patterns do not know: the shell's newest mark says it ends at
		// the cursor.
		st := s.scr.Counters()
		if st.MarkSeq == 0 {
			return text
		}
		ms := s.scr.MarksSince(st.MarkSeq - 1)
		if len(ms) == 0 || ms[0].Kind != 'B' || ms[0].Pos.Line != st.CursorRow {
			return text
		}
	}
	return text[:max(i, 0)]
}

// keepSkipped adds to the gap what the reply to an owed input left out because it
// came before this input's command: an earlier command's late output, never given.
// It lies between where the input was written (or the top of an earlier command's
// clear) and the anchor the reply begins at; when this input's own command has
// cleared the screen since, it is gone and nothing is kept. It reports whether
// something was.
func (s *Session) keepSkipped(from mark, echoes []string) bool {
	st := s.scr.Counters()
	var anchor screen.Pos
	var erases uint64
	switch o := s.originOf(from); {
	case o.hasCmd:
		anchor, erases = s.scr.Overdrawn(o.cmd), o.cmd.Erases
	case o.hasPrompt:
		anchor, erases = o.prompt.Pos, o.prompt.Erases
	case hasKind(o.ours, 'B'):
		return false // the running program took the line: all of it is this reply's
	default:
		// nothing of this reply yet: all of it, the cursor's line too
		anchor, erases = screen.Pos{Line: st.CursorRow + 1}, st.Erases
	}
	if erases != st.Erases {
		return false // erased after the anchor: the positions no longer show what was there
	}
	start := from.pos
	if erases != from.erases {
		start = screen.Pos{Line: st.EraseTop} // an earlier command cleared the screen: what it drew since
	}
	full, _ := s.scr.TextSince(start)
	rest, _ := s.scr.TextSince(anchor)
	skipped, found := strings.CutSuffix(full, rest)
	if !found {
		return false
	}
	lines := strings.Split(skipped, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !slices.Contains(echoes, strings.TrimSpace(l)) { // the kernel's echo of the typed-ahead line
			kept = append(kept, l)
		}
	}
	// and the line editor's redraw of it after the earlier command's prompt
	text := dropEchoLines(strings.Join(kept, "\n"), echoes)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addGapLocked(text)
}

// addGapLocked keeps text for the next read waiting for output not given yet.
func (s *Session) addGapLocked(text string) bool {
	text = strings.TrimRight(text, " \n")
	if strings.TrimSpace(text) == "" {
		return false
	}
	if s.gap != "" {
		text = s.gap + "\n" + text
	}
	if len(text) > maxGap {
		text = text[len(text)-maxGap:]
	}
	s.gap = text
	return true
}

// maxGap bounds the output kept between replies for a later read.
const maxGap = 64 << 10

// delivered records that a reply was given up to the cursor now. Echoes of an
// incomplete input may still show later; a read strips them.
func (s *Session) delivered(complete bool, echoes []string) {
	m := s.screenMark()
	m.reply = true
	s.mu.Lock()
	s.seen = m
	s.seenReady = complete
	s.unseenEchoes = nil
	if !complete {
		s.unseenEchoes = echoes
	}
	s.mu.Unlock()
}

// newOnFullScreen is what wait_for matches while a full-screen program (tmux, a
// pager) shows its screen: the reply is that whole screen, with the lines just
// typed on it and whatever matched before, so the pattern is matched only against
// the rows that are new since now, the typed lines' echoes left out. A row that
// scrolled away while a new one like it came is not new: such a match waits for
// the timeout rather than being taken from the old screen.
func (s *Session) newOnFullScreen(echoes []string, output func() string) func() string {
	seen := map[string]int{}
	for _, l := range s.scr.Snapshot().Lines {
		seen[strings.TrimRight(l, " ")]++
	}
	return func() string {
		out := output()
		if !s.scr.Counters().AltScreen {
			return out // the program left it: what follows is output as usual
		}
		left := maps.Clone(seen)
		next := 0 // the echoes are looked for in order, each once
		var fresh []string
		for _, l := range strings.Split(out, "\n") {
			l = strings.TrimRight(l, " ")
			switch {
			case left[l] > 0:
				left[l]--
			case next < len(echoes) && echoes[next] != "" && (isEcho(l, echoes[next]) || strings.TrimSpace(l) == strings.TrimSpace(echoes[next])):
				next++
			default:
				fresh = append(fresh, l)
			}
		}
		return strings.Join(fresh, "\n")
	}
}
