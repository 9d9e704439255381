// Package record writes a terminal session as an asciicast v2 file
// (https://docs.asciinema.org/manual/asciicast/v2/), the format Debian's asciinema
// 2.2 plays: a JSON header line, then one JSON array per event —
// [seconds, "o", output], [seconds, "r", "COLSxROWS"], [seconds, "i", input] and
// [seconds, "m", label].
//
// A Recorder never slows the terminal it records: the session's read path only
// appends the bytes to a queue, and a goroutine of the Recorder's own turns queued
// events into JSON lines and appends each batch with one write, so a recording is
// valid up to its last whole line however the server ends, even SIGKILL: the
// kernel may stop a write between two pages of the file when the writer is
// killed, and no line crosses a page boundary (see align in encode.go). Output is
// decoded as UTF-8 across reads (a character split between two reads stays whole;
// invalid bytes become U+FFFD, as asciinema's own recorder does) and passed through
// an optional filter (redaction) before it is written.
//
// record imports nothing of the project: the session package calls it through an
// interface of its own (session.Tap), and the command wires the two.
package record
