package auth

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
)

// Tokens is the static bearer tokens of a tokens file. Replace swaps them for a
// file read again while requests look them up.
type Tokens struct {
	entries atomic.Pointer[[]tokenEntry]
}

type tokenEntry struct {
	name string
	sum  [sha256.Size]byte // of the token: every comparison is over equal lengths
}

// ErrFileMode is returned for a tokens file that others than its owner may read.
var ErrFileMode = errors.New("tokens file is readable by group or others")

// minTokenLen is the shortest token accepted: shorter ones are guessable.
const minTokenLen = 16

// LoadTokens reads a tokens file: one "principal token" pair per line, blank lines
// and lines starting with # ignored. It refuses a file with any group or world
// permission bit, a malformed line, a short token and a token given twice.
func LoadTokens(path string) (*Tokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%w: %s is %v; run chmod 600 %s", ErrFileMode, path, st.Mode().Perm(), path)
	}
	var entries []tokenEntry
	seen := map[[sha256.Size]byte]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s line %d: want \"principal token\"", path, n)
		}
		if len(fields[1]) < minTokenLen {
			return nil, fmt.Errorf("%s line %d: the token is shorter than %d characters", path, n, minTokenLen)
		}
		sum := sha256.Sum256([]byte(fields[1]))
		if seen[sum] {
			return nil, fmt.Errorf("%s line %d: the same token is given twice", path, n)
		}
		seen[sum] = true
		entries = append(entries, tokenEntry{name: fields[0], sum: sum})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s holds no \"principal token\" line", path)
	}
	t := &Tokens{}
	t.entries.Store(&entries)
	return t, nil
}

// Replace makes n's tokens the ones that authenticate, from the next lookup on.
func (t *Tokens) Replace(n *Tokens) { t.entries.Store(n.entries.Load()) }

// Lookup returns the principal a token belongs to. It compares against every
// entry, in constant time each, so timing says nothing about which matched.
func (t *Tokens) Lookup(token string) (string, bool) {
	sum := sha256.Sum256([]byte(token))
	name, found := "", 0
	for _, e := range *t.entries.Load() {
		eq := subtle.ConstantTimeCompare(sum[:], e.sum[:])
		if eq == 1 {
			name = e.name
		}
		found |= eq
	}
	return name, found == 1
}

// Principals returns the distinct principal names, in file order.
func (t *Tokens) Principals() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range *t.entries.Load() {
		if !seen[e.name] {
			seen[e.name] = true
			out = append(out, e.name)
		}
	}
	return out
}
