package screen

import "strconv"

// appendSGR appends what vt10x should get for the attribute at parameter i, each value
// followed by ';', and returns the index of the last parameter the attribute used.
func appendSGR(out []byte, c *csiSeq, i int) ([]byte, int) {
	v := max(c.sub[i][0], 0)
	if c.nsub[i] > 1 { // colon form: 38:2::r:g:b, 38:5:n, 4:3
		return appendColonSGR(out, v, c.sub[i][1:c.nsub[i]]), i
	}
	switch {
	case v == 38 || v == 48 || v == 58:
		return appendSemicolonColour(out, c, i)
	case sgrKnown(v):
		return appendInts(out, v), i
	}
	return out, i
}

// sgrKnown reports the plain attributes vt10x implements or harmlessly ignores.
func sgrKnown(v int) bool {
	switch {
	case v <= 9, v >= 21 && v <= 37, v == 39, v >= 40 && v <= 47, v == 49,
		v >= 90 && v <= 97, v >= 100 && v <= 107:
		return true
	}
	return false
}

// appendSemicolonColour handles 38;5;n and 38;2;r;g;b (and 48, 58). The parameters of an
// extended colour are consumed even when the colour is dropped, so they are never taken
// for attributes of their own.
func appendSemicolonColour(out []byte, c *csiSeq, i int) ([]byte, int) {
	v := c.sub[i][0]
	arg := func(k int) int {
		if i+k < c.n {
			return max(c.sub[i+k][0], 0)
		}
		return 0
	}
	switch {
	case i+1 >= c.n:
		return out, i
	case c.sub[i+1][0] == 5:
		if i+2 < c.n && v != 58 && arg(2) <= 255 {
			out = appendInts(out, v, 5, arg(2))
		}
		return out, min(i+2, c.n-1)
	case c.sub[i+1][0] == 2:
		r, g, b := arg(2), arg(3), arg(4)
		if i+4 < c.n && v != 58 && r <= 255 && g <= 255 && b <= 255 {
			out = appendInts(out, v, 2, r, g, b)
		}
		return out, min(i+4, c.n-1)
	}
	return out, i
}

func appendColonSGR(out []byte, v int, subs []int) []byte {
	at := func(k int) int {
		if k < len(subs) {
			return max(subs[k], 0)
		}
		return 0
	}
	switch {
	case v == 38 || v == 48:
		if at(0) == 5 && len(subs) >= 2 && at(1) <= 255 {
			return appendInts(out, v, 5, at(1))
		}
		if at(0) == 2 && len(subs) >= 4 {
			k := len(subs) - 3 // with or without the colour-space id
			if r, g, b := at(k), at(k+1), at(k+2); r <= 255 && g <= 255 && b <= 255 {
				return appendInts(out, v, 2, r, g, b)
			}
		}
		return out
	case v == 4 && at(0) == 0: // 4:0 is "no underline"
		return appendInts(out, 24)
	case v != 58 && sgrKnown(v):
		return appendInts(out, v)
	}
	return out
}

func appendInts(out []byte, vals ...int) []byte {
	for _, v := range vals {
		out = strconv.AppendInt(out, int64(v), 10)
		out = append(out, ';')
	}
	return out
}

// sgrParams appends the parameters of the SGR vt10x should get, without "ESC [" and "m";
// false when there is nothing to send.
func sgrParams(out []byte, c *csiSeq) ([]byte, bool) {
	n := len(out)
	if c.n == 0 {
		out = append(out, '0')
	}
	for i := 0; i < c.n; i++ {
		out, i = appendSGR(out, c, i)
	}
	if len(out) == n {
		return out, false
	}
	if out[len(out)-1] == ';' {
		out = out[:len(out)-1]
	}
	return out, true
}
