package launcher

import (
	"errors"
	"strconv"
	"strings"
)

// Subcommand is the server binary's internal subcommand that runs as the launcher.
const Subcommand = "sandbox-exec"

// ProbeSubcommand is the internal subcommand that checks a secluded session's
// view from inside (sandbox.Seclusion runs it through the launcher).
const ProbeSubcommand = "sandbox-probe"

// Plan is everything the launcher does, computed by the server: Landlock's own
// numbers (the masks of the UAPI, already limited to what the ABI knows) and
// real paths, so that the launcher only makes system calls.
type Plan struct {
	// ABI is the Landlock ABI the masks are for; 0 when there is no Landlock.
	ABI int
	// FS, Net and Scoped are landlock_ruleset_attr's handled_access_fs,
	// handled_access_net and scoped. All zero: nothing is restricted.
	FS, Net, Scoped uint64
	// Rules grant file access beneath paths; missing paths are skipped.
	Rules []Rule
	// Terminal, when not zero, is granted on the launcher's stdin when it is a
	// terminal in /dev/pts (the session's own, known only in the child).
	Terminal uint64
	// TmpParent, when set, is where the launcher makes the session's TMPDIR.
	TmpParent string
	// BestEffort runs the program unconfined when Landlock cannot be applied,
	// instead of refusing to start it.
	BestEffort bool
	// Seclude drops every capability before exec; HideProcs also gives the
	// program a mount namespace with a /proc of its own (hidepid=ptraceable).
	Seclude, HideProcs bool
}

// Rule is landlock_path_beneath_attr with a path instead of a descriptor.
type Rule struct {
	Access uint64
	Path   string
}

// Restricts reports whether the plan asks Landlock for anything.
func (p *Plan) Restricts() bool { return p.FS|p.Net|p.Scoped != 0 }

// version starts every encoded plan, so a plan from another build is refused
// rather than misread.
const version = "L1"

// Encode writes the plan as one command-line argument: space-separated decimal
// numbers, each string as its length, a colon and its bytes (paths may hold
// spaces, colons and newlines).
func (p *Plan) Encode() string {
	var b strings.Builder
	b.WriteString(version)
	num := func(n uint64) {
		b.WriteByte(' ')
		b.WriteString(strconv.FormatUint(n, 10))
	}
	str := func(s string) {
		num(uint64(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	var flags uint64
	for i, f := range []bool{p.BestEffort, p.Seclude, p.HideProcs} {
		if f {
			flags |= 1 << i
		}
	}
	num(uint64(p.ABI))
	num(p.FS)
	num(p.Net)
	num(p.Scoped)
	num(p.Terminal)
	num(flags)
	str(p.TmpParent)
	num(uint64(len(p.Rules)))
	for _, r := range p.Rules {
		num(r.Access)
		str(r.Path)
	}
	return b.String()
}

var errPlan = errors.New("malformed plan")

// Decode reads a plan written by Encode.
func Decode(s string) (Plan, error) {
	d := decoder{s: s}
	var p Plan
	if !strings.HasPrefix(s, version+" ") {
		return p, errPlan
	}
	d.s = s[len(version):]
	abi := d.num()
	p.ABI = int(abi)
	p.FS, p.Net, p.Scoped, p.Terminal = d.num(), d.num(), d.num(), d.num()
	flags := d.num()
	p.BestEffort, p.Seclude, p.HideProcs = flags&1 != 0, flags&2 != 0, flags&4 != 0
	p.TmpParent = d.str()
	n := d.num()
	if n > uint64(len(d.s)) {
		return Plan{}, errPlan // each rule takes at least a byte
	}
	p.Rules = make([]Rule, 0, n)
	for range n {
		p.Rules = append(p.Rules, Rule{Access: d.num(), Path: d.str()})
	}
	if d.err || d.s != "" || flags > 7 || abi > 1<<16 {
		return Plan{}, errPlan
	}
	return p, nil
}

type decoder struct {
	s   string
	err bool
}

// num reads " <decimal>".
func (d *decoder) num() uint64 {
	if len(d.s) < 2 || d.s[0] != ' ' {
		d.err = true
		return 0
	}
	i := 1
	for i < len(d.s) && d.s[i] >= '0' && d.s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseUint(d.s[1:i], 10, 64)
	if err != nil {
		d.err = true
		return 0
	}
	d.s = d.s[i:]
	return n
}

// str reads " <length>:<bytes>".
func (d *decoder) str() string {
	n := d.num()
	if d.err || len(d.s) < 1 || d.s[0] != ':' || uint64(len(d.s)-1) < n {
		d.err = true
		return ""
	}
	s := d.s[1 : 1+n]
	d.s = d.s[1+n:]
	return s
}
