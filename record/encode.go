package record

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Event kinds, as asciicast v2 names them.
const (
	kindOutput = 'o'
	kindInput  = 'i'
	kindResize = 'r'
	kindMarker = 'm'
)

// batch is the events queued between two writes. Their bytes share one buffer, so
// queueing output costs a copy and no allocation once the buffers have grown.
type batch struct {
	events []event
	data   []byte
}

type event struct {
	at         time.Duration
	kind       byte
	start, end int // the event's bytes in batch.data (output, input)
	text       string
}

func (b *batch) add(kind byte, at time.Duration, p []byte, text string) {
	start := len(b.data)
	b.data = append(b.data, p...)
	b.events = append(b.events, event{at: at, kind: kind, start: start, end: len(b.data), text: text})
}

// last is the time of the batch's last event (0 when empty).
func (b *batch) last() time.Duration {
	if len(b.events) == 0 {
		return 0
	}
	return b.events[len(b.events)-1].at
}

func (b batch) reset() batch {
	clear(b.events) // drop the marker strings
	return batch{events: b.events[:0], data: b.data[:0]}
}

// writer turns batches into lines and appends them; only the Recorder's goroutine
// uses it.
type writer struct {
	f       *os.File
	max     int64
	filter  func(string) string
	written int64
	stopped bool
	out     utf8Stream
	line    []byte
	fill    []byte // a filler line being built (see align)
}

// header writes the first line: {"version": 2, "width": ..., ...}.
func (w *writer) header(h Header) error {
	type header struct {
		Version   int               `json:"version"`
		Width     int               `json:"width"`
		Height    int               `json:"height"`
		Timestamp int64             `json:"timestamp"`
		Command   string            `json:"command,omitempty"`
		Title     string            `json:"title,omitempty"`
		Env       map[string]string `json:"env,omitempty"`
	}
	b, err := json.Marshal(header{2, h.Width, h.Height, h.Started.Unix(), h.Command, h.Title, h.Env})
	if err != nil {
		return err
	}
	w.line = append(append(w.line[:0], b...), '\n')
	w.settle()
	n, err := w.f.Write(w.line)
	w.written += int64(n)
	return err
}

// stopReserve is room kept under the cap for the marker that says the cap was hit,
// with the blanks that may place it and the batch's end on a page (see align).
const stopReserve = 320

// write appends a batch with one write. final: the session ended, so a character
// left incomplete at the end of the output is written as U+FFFD.
func (w *writer) write(b *batch, final bool) error {
	if w.stopped {
		return nil
	}
	w.line = w.line[:0]
	for _, e := range b.events {
		before := len(w.line)
		w.appendEvent(e, b.data[e.start:e.end])
		if w.written+int64(len(w.line)) > w.max-stopReserve {
			// Back to the lines before the event, without the blanks its first
			// line may have put before their last newline.
			w.line = w.line[:max(before-1, 0)]
			if before > 0 {
				w.line = append(w.line, '\n')
			}
			w.appendMarker(e.at, fmt.Sprintf("recording stopped: it reached its size limit of %s", size(w.max)))
			w.stopped = true
			break
		}
	}
	if final && !w.stopped {
		if rest := w.out.flush(); rest != "" {
			w.appendLine(b.last(), kindOutput, w.filtered(rest))
		}
	}
	if len(w.line) == 0 {
		return nil
	}
	w.settle()
	n, err := w.f.Write(w.line)
	w.written += int64(n)
	if err != nil {
		w.stopped = true
		return fmt.Errorf("write %s: %w", w.f.Name(), err)
	}
	return nil
}

func (w *writer) appendEvent(e event, p []byte) {
	switch e.kind {
	case kindOutput:
		if text := w.out.decode(p); text != "" {
			w.appendLine(e.at, kindOutput, w.filtered(text))
		}
	case kindInput:
		// Input is whole writes of valid keys; invalid bytes still become U+FFFD.
		w.appendLine(e.at, kindInput, strings.ToValidUTF8(string(p), "\uFFFD"))
	default:
		w.appendLine(e.at, e.kind, strings.ToValidUTF8(e.text, "\uFFFD"))
	}
}

func (w *writer) appendMarker(at time.Duration, label string) { w.appendLine(at, kindMarker, label) }

func (w *writer) filtered(s string) string {
	if w.filter == nil {
		return s
	}
	return w.filter(s)
}

// appendLine adds [seconds, "kind", "data"] and a newline: as several lines of the
// same time and kind where one would not fit a page, each placed within a page of
// the file (see align).
func (w *writer) appendLine(at time.Duration, kind byte, data string) {
	for {
		start := len(w.line)
		w.line = append(w.line, '[')
		w.line = strconv.AppendFloat(w.line, at.Seconds(), 'f', 6, 64)
		w.line = append(w.line, ", \""...)
		w.line = append(w.line, kind)
		w.line = append(w.line, "\", "...)
		var n int
		w.line, n = appendJSONString(w.line, data, page-(len(w.line)-start)-len("]\n"))
		w.line = append(w.line, "]\n"...)
		w.align(start, at)
		if data = data[n:]; data == "" {
			return
		}
	}
}

// page is how Linux writes a file: page by page, and a write that SIGKILL
// interrupts stops at the end of a page, never inside one (generic_perform_write
// checks for a fatal signal before each). So a recording stays valid to its last
// whole line when the server is killed in the middle of a batch if no line
// crosses a page boundary of the file: every line is at most a page long, and one
// that would cross starts on the next page instead. The blanks that move it there
// are whitespace that JSON allows after a line's closing bracket, or, when the
// line before it was written in an earlier batch, a filler line (an empty output
// event) that ends at the boundary.
var page = os.Getpagesize()

// blanks are the spaces align and settle insert.
var blanks = []byte(strings.Repeat(" ", page))

// fillMin is the room a filler line needs, with a time of any length a recording
// reaches: settle leaves no batch ending closer than this to a page's end.
const fillMin = 48

// align moves the line that begins at w.line[start:] to the next page of the file
// when it would cross into it.
func (w *writer) align(start int, at time.Duration) {
	gap := page - int((w.written+int64(start))%int64(page))
	if len(w.line)-start <= gap {
		return
	}
	if start > 0 { // the line before it ends at the boundary
		w.line = slices.Insert(w.line, start-1, blanks[:gap]...)
		return
	}
	w.fill = append(w.fill[:0], '[')
	w.fill = strconv.AppendFloat(w.fill, at.Seconds(), 'f', 6, 64)
	w.fill = append(w.fill, `, "o", ""]`...)
	if len(w.fill)+1 > gap {
		return // settle leaves the room; a line that cannot move stays as it is
	}
	w.fill = append(append(w.fill, blanks[:gap-len(w.fill)-1]...), '\n')
	w.line = slices.Insert(w.line, 0, w.fill...)
}

// settle ends what is about to be written at a page's end, with blanks before its
// last newline, when the rest of the page could not hold a filler line.
func (w *writer) settle() {
	rest := page - int((w.written+int64(len(w.line)))%int64(page))
	if rest < fillMin && len(w.line) > 0 {
		w.line = slices.Insert(w.line, len(w.line)-1, blanks[:rest]...)
	}
}

func size(n int64) string {
	if n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// appendJSONString appends as much of s, valid UTF-8, as fits in room bytes, as a
// JSON string with its quotes, and says how much of s that is: all of it if it
// fits, else up to the start of a character.
func appendJSONString(b []byte, s string, room int) ([]byte, int) {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	room -= 2 // the quotes
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
			continue
		}
		esc := 6
		if c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' {
			esc = 2
		}
		if i-start+esc > room { // the bytes before c fit, or some of them
			end := cutAt(s, start, min(i, start+room))
			return append(append(b, s[start:end]...), '"'), end
		}
		room -= i - start + esc
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	end := cutAt(s, start, min(len(s), start+room))
	return append(append(b, s[start:end]...), '"'), end
}

// cutAt moves end back to the start of a character, but not before start; at the
// end of s it stays.
func cutAt(s string, start, end int) int {
	for end < len(s) && end > start && !utf8.RuneStart(s[end]) {
		end--
	}
	return end
}

// utf8Stream decodes output read in pieces: a character split between two reads is
// kept whole, and bytes that are not UTF-8 become U+FFFD.
type utf8Stream struct {
	carry []byte // the start of a character the last piece ended in (at most 3 bytes)
	buf   []byte
}

func (d *utf8Stream) decode(p []byte) string {
	if len(d.carry) > 0 {
		d.buf = append(append(d.buf[:0], d.carry...), p...)
		p = d.buf
	}
	cut := incompleteTail(p)
	d.carry = append(d.carry[:0], p[cut:]...)
	return strings.ToValidUTF8(string(p[:cut]), "\uFFFD")
}

// flush returns what is left of an incomplete character at the end of the output.
func (d *utf8Stream) flush() string {
	s := strings.ToValidUTF8(string(d.carry), "\uFFFD")
	d.carry = d.carry[:0]
	return s
}

// incompleteTail returns where a character that p ends in the middle of begins, or
// len(p) when p ends on a character boundary (or in bytes no character can start).
func incompleteTail(p []byte) int {
	for i := len(p) - 1; i >= 0 && i > len(p)-utf8.UTFMax; i-- {
		switch c := p[i]; {
		case c < utf8.RuneSelf:
			return len(p)
		case utf8.RuneStart(c):
			if utf8.FullRune(p[i:]) {
				return len(p)
			}
			return i
		}
	}
	return len(p)
}
