package screen

// Counters is Status without Line: the cursor, the modes and the counters, for
// the callers that do not read the cursor's row. Status renders that row cell by
// cell, and a session asks for where things are several times per reply (a third
// of its CPU time per short command went to rendering a row nobody read).
func (s *Screen) Counters() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.setup.due {
		return s.statusAt(Point{Row: s.flow.y, Col: s.flow.x}, "") // as flowStatus
	}
	s.flushPend()
	cur := s.vt.Cursor()
	return s.statusAt(Point{Row: cur.Y, Col: cur.X}, "") // as status
}
