package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	var lines []string
	for range 5000 {
		lines = append(lines, strings.Repeat("x", 20)+" line")
	}
	long := strings.Join(lines, "\n")
	out, cut := truncate(long, 2000)
	if !cut {
		t.Fatal("not truncated")
	}
	if n := utf8.RuneCountInString(out); n > 2000 {
		t.Fatalf("%d characters, limit 2000", n)
	}
	if !strings.HasPrefix(out, lines[0]+"\n") || !strings.HasSuffix(out, "\n"+lines[len(lines)-1]) {
		t.Fatal("head or tail not kept")
	}
	if !strings.Contains(out, "lines (") || !strings.Contains(out, "full_screen") {
		t.Fatalf("marker missing: %q", out)
	}
	if same, cut := truncate("short", 2000); cut || same != "short" {
		t.Fatal("short output changed")
	}
	// One huge line keeps both of its ends.
	huge := "A" + strings.Repeat("é", 100000) + "Z"
	out, _ = truncate(huge, 1000)
	if !strings.HasPrefix(out, "A") || !strings.HasSuffix(out, "Z") || utf8.RuneCountInString(out) > 1000 || !utf8.ValidString(out) {
		t.Fatalf("huge line: %d chars, valid %v", utf8.RuneCountInString(out), utf8.ValidString(out))
	}
	// Its marker counts what it left out of the line, not "0 lines".
	if !strings.Contains(out, "characters of a line omitted") {
		t.Fatalf("huge line's marker: %q", out[strings.Index(out, "[..."):])
	}
	// Followed by a prompt, it still keeps its end (found by an independent probe:
	// the prompt took the tail and the end of the line was lost).
	out, _ = truncate(huge+"\n$ ", 1000)
	if !strings.HasPrefix(out, "A") || !strings.HasSuffix(out, "Z\n$ ") || utf8.RuneCountInString(out) > 1000 ||
		!strings.Contains(out, "characters of a line omitted") {
		t.Fatalf("huge line and a prompt: %d chars: %q…%q", utf8.RuneCountInString(out), firstRunes(out, 40), lastRunes(out, 300))
	}
	out, _ = truncate("one\n"+strings.Repeat("y", 5000)+"\ntwo", 1000)
	if !strings.Contains(out, "[... 1 line (") {
		t.Fatalf("one line left out: %q", out)
	}
}

// TestTruncateKeepsClustersWhole: a cut never splits a grapheme cluster (found by an
// independent probe: a family emoji lost its last member and a letter its accent),
// at the head's end or the tail's start, with clusters of every length about it.
func TestTruncateKeepsClustersWhole(t *testing.T) {
	family := "\U0001F468\u200D\U0001F469\u200D\U0001F467" // five code points, one cluster
	accent := "e\u0301"                                    // two
	flag := "\U0001F1EB\U0001F1F7"                         // two
	for _, c := range []string{family, accent, flag} {
		for pad := range 6 {
			line := strings.Repeat("x", pad) + strings.Repeat(c, 700) + strings.Repeat("y", pad)
			for _, limit := range []int{400, 401, 402, 403, 404} {
				out, _ := truncate(line, limit)
				i := strings.Index(out, "\n[...")
				j := strings.LastIndex(out, "...]\n")
				if i < 0 || j < 0 {
					t.Fatalf("%q×700, limit %d: no marker between two parts: %q", c, limit, out)
				}
				for _, part := range []string{out[:i], out[j+len("...]\n"):]} {
					if rest := strings.Trim(strings.ReplaceAll(part, c, ""), "xy"); rest != "" {
						t.Errorf("%q×700 padded by %d, limit %d: a cluster was cut: %q left in %q", c, pad, limit, rest, part)
					}
				}
			}
		}
	}
}

// TestTruncateCountsTheMarker: the reply, marker included, fits the limit, even when
// the marker's numbers are long (millions of lines and characters left out, the
// largest limit) and when the limit leaves room for little else.
func TestTruncateCountsTheMarker(t *testing.T) {
	// 220 000 lines of 9 characters: 120 016 lines and 1 300 143 characters are left
	// out of a reply of 1 000 000, a marker of 161 characters, which a fixed
	// allowance of 160 let past the limit. Building the tail by prepending took half
	// a minute here.
	manyLines := strings.TrimSuffix(strings.Repeat("123456789\n", 220_000), "\n")
	cases := []struct {
		name  string
		s     string
		limit int
	}{
		{"long numbers", manyLines, 1_000_000},
		{"smallest limit", manyLines, 200},
		{"lines as long as the budget", strings.Repeat(strings.Repeat("z", 29)+"\n", 100), 200},
		{"wide characters", strings.Repeat("日本語のテキスト\n", 1000), 300},
		{"limit below the marker", strings.Repeat("w", 1000), 60},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, cut := truncate(c.s, c.limit)
			if n := utf8.RuneCountInString(out); !cut || n > c.limit {
				t.Fatalf("%d characters (cut %v), limit %d", n, cut, c.limit)
			}
			if !strings.Contains(out, "[... ") || !utf8.ValidString(out) {
				t.Fatalf("no marker, or invalid UTF-8: %.200q", out)
			}
		})
	}
}

func FuzzTruncate(f *testing.F) {
	f.Add("line one\nline two\nline three", 200)
	f.Add(strings.Repeat("é\n", 500), 201)
	f.Add(strings.Repeat("x", 5000), 250)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		if limit < 1 || limit > 1<<20 || !utf8.ValidString(s) {
			t.Skip()
		}
		out, cut := truncate(s, limit)
		if n := utf8.RuneCountInString(out); n > limit && cut {
			t.Fatalf("%d characters, limit %d", n, limit)
		}
		if !cut && out != s {
			t.Fatal("changed without saying so")
		}
		if !utf8.ValidString(out) {
			t.Fatal("invalid UTF-8")
		}
	})
}

func BenchmarkTruncate(b *testing.B) {
	s := strings.Repeat("a line of output from a long build\n", 100_000)
	b.ReportAllocs()
	for b.Loop() {
		truncate(s, 20000)
	}
}
