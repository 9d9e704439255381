package session

import "time"

// Tap receives, in order, what a session's terminal showed and was told: a
// recording. Its methods are called on the session's read path and must return at
// once (copy and queue); none is ever given what was typed at a hidden prompt.
type Tap interface {
	Output(b []byte)       // program output, raw; b is reused after the call
	Resize(cols, rows int) // the terminal's new size
	Input(b []byte)        // bytes typed (by an agent or a person), never at a hidden prompt
	Mark(label string)     // a point worth finding again (an agent's input, as audited)
	Close() error          // the session's output ended
}

// TapInfo describes a session as its tap starts.
type TapInfo struct {
	ID         string
	Name       string
	Command    string
	Args       []string
	Cols, Rows int
	Started    time.Time
	Term       string // the TERM the program was given, "" if unknown
	Shell      string // the SHELL the program was given, "" if unknown
}

// Recorded reports whether the session has a tap (is being recorded).
func (s *Session) Recorded() bool { return s.tap != nil }

// Mark puts a labelled marker in the session's recording, if it has one.
func (s *Session) Mark(label string) {
	if s.tap != nil {
		s.tap.Mark(label)
	}
}

// startTap asks cfg.Tap for the session's tap before its output is read.
func (s *Session) startTap(cfg Config) {
	if cfg.Tap == nil {
		return
	}
	st := s.scr.Status()
	s.tap = cfg.Tap(TapInfo{
		ID: s.ID, Name: s.Name, Command: s.Command, Args: s.Args, Cols: st.Cols, Rows: st.Rows, Started: s.Created,
		Term: s.proc.StartEnv("TERM"), Shell: s.proc.StartEnv("SHELL"),
	})
}

// tapInput gives the tap what is about to be typed, unless the prompt it answers
// hides it (as the input began: hidden; or now, a prompt an earlier key of the same
// input brought up) or asks for a secret in the open (read -p 'Password: ').
func (s *Session) tapInput(b []byte, hidden bool) {
	if s.tap != nil && !hidden && !s.SecretExpected() {
		s.tap.Input(b)
	}
}

// closeTap ends the recording once the session's output has ended.
func (s *Session) closeTap() {
	if err := s.tap.Close(); err != nil {
		s.log.Warn("recording not closed cleanly", "err", err)
	}
}
