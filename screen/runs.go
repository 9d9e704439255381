package screen

import "encoding/binary"

// A row's attributes leave the screen as runs: each run says that the cells from the end of
// the previous run (or column 0) up to its own end have one Attr, and the cells after the
// last run have the zero Attr — so a run can reach past the row's text, over blanks with a
// background. A row of default cells, most rows, has no runs at all.
//
// Runs are kept encoded, after the row's text in the same string (histLine): a flood of
// coloured output sends thousands of rows a second to the scrollback, and a typical run
// takes 5 bytes this way instead of 16 as a struct, with no allocation of its own. Each
// run is its end column (uvarint), its Style (one byte) and its two colours, each a kind
// byte (Color's top byte: default, indexed or RGB) followed by 0, 1 or 3 bytes.

// appendRuns encodes the runs of a row's attributes, leaving out a last run of zero Attrs.
func appendRuns(b []byte, attrs []Attr) []byte {
	for x := 0; x < len(attrs); {
		a, end := attrs[x], x+1
		for end < len(attrs) && attrs[end] == a {
			end++
		}
		if end < len(attrs) || a != (Attr{}) {
			b = appendRun(b, end, a)
		}
		x = end
	}
	return b
}

func appendRun(b []byte, end int, a Attr) []byte {
	b = binary.AppendUvarint(b, uint64(end))
	b = append(b, byte(a.Style))
	return appendRunColor(appendRunColor(b, a.FG), a.BG)
}

func appendRunColor(b []byte, c Color) []byte {
	switch kind := byte(c >> 24); kind {
	case 0:
		return append(b, 0)
	case colorIndexed >> 24:
		return append(b, kind, byte(c))
	default:
		return append(b, kind, byte(c>>16), byte(c>>8), byte(c))
	}
}

// nextRun decodes the first run of runs, which must hold one, and returns the rest.
func nextRun(runs string) (end int, a Attr, rest string) {
	v, n := binary.Uvarint([]byte(runs[:min(len(runs), binary.MaxVarintLen64)]))
	runs = runs[n:]
	a.Style = Style(runs[0])
	a.FG, runs = runColor(runs[1:])
	a.BG, runs = runColor(runs)
	return int(v), a, runs
}

func runColor(b string) (Color, string) {
	switch kind := b[0]; kind {
	case 0:
		return 0, b[1:]
	case colorIndexed >> 24:
		return IndexedColor(b[1]), b[2:]
	default:
		return Color(uint32(kind)<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])), b[4:]
	}
}
