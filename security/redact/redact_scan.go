package redact

// anchors finds, in one pass over the text, every place where a secret could
// start: a known token prefix, a keyword of a key name, a URL's "://", a PEM
// armour line. It is an Aho-Corasick automaton over ASCII-case-folded bytes,
// compiled to a table with one lookup per input byte; only around its hits do
// the slower, specific checks run.
type anchors struct {
	next  []uint16 // state<<8 | folded byte -> next state; hitFlag marks states that end an anchor
	out   [][]int  // state -> indices of the anchors that end there
	words []anchorWord
}

// anchorWord is one anchor: its text, whether its case must match exactly
// (token prefixes) or not (key names), and the finder to run at a hit.
type anchorWord struct {
	text  string
	exact bool
	find  finder
}

const hitFlag = 0x8000

func fold(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func newAnchors(words []anchorWord) *anchors {
	// The trie, then failure links breadth first, then the complete table.
	type node struct {
		child map[byte]int
		fail  int
		out   []int
	}
	nodes := []node{{child: map[byte]int{}}}
	for i, w := range words {
		st := 0
		for j := 0; j < len(w.text); j++ {
			c := fold(w.text[j])
			nx, ok := nodes[st].child[c]
			if !ok {
				nx = len(nodes)
				nodes = append(nodes, node{child: map[byte]int{}})
				nodes[st].child[c] = nx
			}
			st = nx
		}
		nodes[st].out = append(nodes[st].out, i)
	}
	if len(nodes) >= hitFlag {
		panic("redact: too many anchor states")
	}
	a := &anchors{next: make([]uint16, len(nodes)<<8), out: make([][]int, len(nodes)), words: words}
	queue := []int{0}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		if st != 0 {
			nodes[st].out = append(nodes[st].out, nodes[nodes[st].fail].out...)
		}
		for c := range 256 {
			b := fold(byte(c))
			nx, ok := nodes[st].child[b]
			switch {
			case ok && byte(c) == b:
				if st != 0 {
					nodes[nx].fail = int(a.next[nodes[st].fail<<8|c] &^ hitFlag)
				}
				queue = append(queue, nx)
			case ok: // an upper-case byte: the same child as its lower case
			case st == 0:
				nx = 0
			default:
				nx = int(a.next[nodes[st].fail<<8|c] &^ hitFlag)
			}
			a.next[st<<8|c] = uint16(nx)
		}
	}
	for st := range nodes {
		a.out[st] = nodes[st].out
	}
	for i, nx := range a.next {
		if len(nodes[nx].out) > 0 {
			a.next[i] = nx | hitFlag
		}
	}
	return a
}

// scan calls hit with the start of every occurrence of an anchor in s, in
// order of where the occurrences end.
func (a *anchors) scan(s string, hit func(start int, w *anchorWord)) {
	var st uint16
	next := a.next
	for i := 0; i < len(s); i++ {
		st = next[int(st&^hitFlag)<<8|int(s[i])]
		if st&hitFlag == 0 {
			continue
		}
		for _, k := range a.out[st&^hitFlag] {
			w := &a.words[k]
			start := i + 1 - len(w.text)
			if w.exact && s[start:i+1] != w.text {
				continue
			}
			hit(start, w)
		}
	}
}
