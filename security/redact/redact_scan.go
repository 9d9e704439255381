package redact

import "strings"

// anchors finds, in one pass over the text, every place where a secret could
// start: a known token prefix, a keyword of a key name, a URL's "://", a PEM
// armour line. It is an Aho-Corasick automaton over ASCII-case-folded bytes,
// compiled to a table; only around its hits do the slower, specific checks
// run.
//
// The table is laid out for the loop that reads it, which runs over every
// byte of every result: a byte is first mapped to its class (the bytes no
// anchor holds share one), and a state is its row's offset in the table, so a
// step is next[state+class] with no shift or mask in the chain of dependent
// loads. The states that end an anchor are numbered from hitBit up and the
// others below it, so one test of the OR of four states says whether any of
// four bytes ended an anchor, and the table has 1<<16 entries, so a uint16
// indexes it with no bounds check.
type anchors struct {
	class [256]uint16
	next  [1 << 16]uint16 // state + class -> next state
	out   [][]int         // (hit state - hitBit) >> classBits -> indices of the anchors that end there
	words []anchorWord
}

// anchorWord is one anchor: its text, whether its case must match exactly
// (token prefixes) or not (key names), and the finder to run at a hit.
type anchorWord struct {
	text  string
	exact bool
	find  finder
}

const (
	hitBit    = 1 << 15
	classBits = 6 // up to 64 classes: a state's row is 64 entries
)

func fold(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func newAnchors(words []anchorWord) *anchors {
	// The trie, then failure links breadth first, then the complete automaton,
	// then its table.
	type node struct {
		child map[byte]int
		fail  int
		out   []int
		next  [256]int
	}
	nodes := []*node{{child: map[byte]int{}}}
	for i, w := range words {
		st := 0
		for j := 0; j < len(w.text); j++ {
			c := fold(w.text[j])
			nx, ok := nodes[st].child[c]
			if !ok {
				nx = len(nodes)
				nodes = append(nodes, &node{child: map[byte]int{}})
				nodes[st].child[c] = nx
			}
			st = nx
		}
		nodes[st].out = append(nodes[st].out, i)
	}
	queue := []int{0}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		n := nodes[st]
		if st != 0 {
			n.out = append(n.out, nodes[n.fail].out...)
		}
		for c := range 256 {
			b := fold(byte(c))
			nx, ok := n.child[b]
			switch {
			case ok && byte(c) == b:
				if st != 0 {
					nodes[nx].fail = nodes[n.fail].next[c]
				}
				queue = append(queue, nx)
			case ok: // an upper-case byte: the same child as its lower case
			case st == 0:
				nx = 0
			default:
				nx = nodes[n.fail].next[c]
			}
			n.next[c] = nx
		}
	}
	a := &anchors{words: words}
	for i := range a.words { // a word with no letters matches exactly when it matches folded
		w := &a.words[i]
		w.exact = w.exact && strings.ToLower(w.text) != strings.ToUpper(w.text)
	}
	classes := 1 // class 0: the bytes no anchor holds
	for _, w := range words {
		for j := 0; j < len(w.text); j++ {
			if c := fold(w.text[j]); a.class[c] == 0 {
				a.class[c] = uint16(classes)
				classes++
			}
		}
	}
	for c := range 256 {
		a.class[c] = a.class[fold(byte(c))]
	}
	// Number the states: those that end no anchor from 0, those that do from hitBit.
	id := make([]int, len(nodes))
	plain, hits := 0, 0
	for st, n := range nodes {
		if len(n.out) > 0 {
			id[st] = hitBit + hits<<classBits
			a.out = append(a.out, n.out)
			hits++
		} else {
			id[st] = plain << classBits
			plain++
		}
	}
	if classes > 1<<classBits || plain<<classBits > hitBit || hits<<classBits > hitBit {
		panic("redact: too many anchor states or byte classes")
	}
	for st, n := range nodes {
		for c := range 256 {
			a.next[id[st]+int(a.class[c])] = uint16(id[n.next[c]])
		}
	}
	if id[0] != 0 {
		panic("redact: the start state must be 0")
	}
	return a
}

// scan calls hit with the start of every occurrence of an anchor in s, in
// order of where the occurrences end.
func (a *anchors) scan(s string, hit func(start int, w *anchorWord)) {
	var st uint16
	i := 0
	for ; i+4 <= len(s); i += 4 {
		b := s[i : i+4]
		s0 := a.next[st+a.class[b[0]]]
		s1 := a.next[s0+a.class[b[1]]]
		s2 := a.next[s1+a.class[b[2]]]
		s3 := a.next[s2+a.class[b[3]]]
		st = s3
		if (s0|s1|s2|s3)&hitBit == 0 {
			continue
		}
		if s0&hitBit != 0 {
			a.report(s, i, s0, hit)
		}
		if s1&hitBit != 0 {
			a.report(s, i+1, s1, hit)
		}
		if s2&hitBit != 0 {
			a.report(s, i+2, s2, hit)
		}
		if s3&hitBit != 0 {
			a.report(s, i+3, s3, hit)
		}
	}
	for ; i < len(s); i++ {
		st = a.next[st+a.class[s[i]]]
		if st&hitBit != 0 {
			a.report(s, i, st, hit)
		}
	}
}

// report calls hit for the anchors that the hit state st ends at byte i.
func (a *anchors) report(s string, i int, st uint16, hit func(start int, w *anchorWord)) {
	for _, k := range a.out[(st-hitBit)>>classBits] {
		w := &a.words[k]
		start := i + 1 - len(w.text)
		if w.exact && s[start:i+1] != w.text {
			continue
		}
		hit(start, w)
	}
}
