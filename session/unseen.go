package session

import (
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/screen"
)

// Output no reply has given. A reply ends at the cursor; what arrives after it and
// before the next input, or what a typed-ahead reply leaves out as an earlier
// command's, is kept (the gap) until a read that waits for such output returns it.

// unseenBefore reports whether output arrived after the last reply and before the
// input marked at from. It belongs to no reply, so it is kept for the next read that
// waits for output the agent has not been given.
func (s *Session) unseenBefore(from mark) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen.written == from.written || s.seen.at.IsZero() {
		return false
	}
	text, _ := s.scr.TextSince(s.seen.pos)
	return s.addGapLocked(dropEchoLines(text, s.unseenEchoes))
}

// keepSkipped adds to the gap what the reply to an owed input left out because it
// came before this input's command: an earlier command's late output, never given.
func (s *Session) keepSkipped(from mark, echoes []string) {
	var rest string
	var erases uint64
	switch o := s.originOf(from); {
	case o.hasCmd:
		rest, _ = s.scr.TextSince(o.cmd.Pos)
		erases = o.cmd.Erases
	case o.hasPrompt:
		rest, _ = s.scr.TextSince(o.prompt.Pos)
		erases = o.prompt.Erases
	case hasKind(o.ours, 'B'):
		return // the running program took the line: all of it is this reply's
	default:
		erases = s.scr.Status().Erases
	}
	start := from.pos
	if st := s.scr.Status(); erases != from.erases && erases == st.Erases {
		start = screen.Pos{Line: st.EraseTop} // the earlier command cleared the screen: what it drew since
	}
	full, _ := s.scr.TextSince(start)
	skipped, found := strings.CutSuffix(full, rest)
	if !found {
		return // an erase moved things: the positions no longer line up
	}
	lines := strings.Split(skipped, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !slices.Contains(echoes, strings.TrimSpace(l)) { // the kernel's echo of the typed-ahead line
			kept = append(kept, l)
		}
	}
	s.mu.Lock()
	s.addGapLocked(strings.Join(kept, "\n"))
	s.mu.Unlock()
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
