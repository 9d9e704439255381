// Package screen owns the headless terminal that turns a program's output bytes into clean
// text: a VT emulator (github.com/hinshun/vt10x) behind a front-end tokenizer of our own, plus
// everything vt10x lacks — scrollback with soft-wrap tracking, double-width and combining
// characters, UTF-8 reassembly across writes, answers to terminal queries (DSR, CPR, DA1, DA2,
// DECRQM, OSC 10/11/12, XTGETTCAP), sanitising of sequences vt10x mishandles, OSC 133
// semantic prompt marks, and absolute positions (Pos) that stay valid as output scrolls.
//
// The tokenizer splits the stream into printable runs, C0 controls and complete escape
// sequences; vt10x only ever receives complete, canonical sequences it handles correctly, and
// never gets a query, so it never writes to its io.Writer. Screen is safe for concurrent use:
// one mutex of its own guards everything, and vt10x is only touched while it is held.
//
// Cells keep their colours and styles in one attribute model, Attr (attr.go): the screen
// reads SGR into it itself (sgr.go) and hands vt10x the result, and Grid returns the
// cells, the scrollback's included, for drawing.
//
// vt10x is slow (about 100 ns a rune), so a flood of output takes a fast path: a flow of our
// own (flow.go) lays out plain text, line breaks, SGR and moves along the row exactly as
// vt10x would, rows that scroll off go straight to the scrollback, and only what stays on
// screen reaches vt10x — later, when someone looks (fast.go). A line of text and SGR that
// starts a fresh row and fits in it is laid out whole, its attributes one run per ink
// (flow_line.go). A differential test holds the fast path to byte-for-byte the same
// screen, cells, attributes and history as the slow one.
//
// screen imports no project package: only the standard library, vt10x and go-runewidth.
// Nothing here writes to stdout or stderr.
package screen
