package danger

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Records an investigation or an audit depends on (tune20): the evidence an
// incident responder collected (/evidence, /forensics), and the baseline of
// a file-integrity checker (AIDE, Tripwire, Samhain). Deleting, shredding or
// emptying any one file there destroys the record of what happened, as
// emptying a log does (log-tamper); writing new files into them (images,
// listings, checksums) is how they are made and passes. An archive of the
// evidence piped to a raw network sender leaves the host with whatever the
// memory and disk images hold.

var (
	evidenceRoots = regexp.MustCompile(`^/(?:evidence|forensics|srv/evidence|srv/forensics|var/forensics)(?:/|$)`)
	integrityDBs  = regexp.MustCompile(`^/var/lib/(?:aide|tripwire|samhain)(?:/|$)|^/etc/tripwire/[^/]+\.twd$`)
)

func evidencePath(p string) bool {
	p = path.Clean(strings.Trim(p, `"'`))
	// a checker's freshly built database (aide.db.new) is not yet the baseline
	return evidenceRoots.MatchString(p) || integrityDBs.MatchString(p) && !strings.HasSuffix(p, ".new")
}

func init() {
	for _, n := range []string{"rm", "shred", "unlink", "truncate", "srm", "wipe"} {
		addHostCheck(n, checkEvidenceDestroy)
	}
}

// checkEvidenceDestroy: rm, shred or truncate of anything under an evidence
// root or an integrity checker's database.
func checkEvidenceDestroy(c shell.Command, _ int) Verdict {
	o := shell.ParseOpts(c.Args[1:], "nsro")
	if c.Name == "truncate" && !slices.ContainsFunc(optionValues(c.Args[1:], "-s", "--size"), func(s string) bool { return s == "0" || s == "0K" }) {
		return Verdict{}
	}
	for _, w := range o.Operands {
		if evidencePath(w.S) {
			return hit("log-tamper")
		}
	}
	return Verdict{}
}

// archivesEvidence: tar, zip, cpio, dd or cat reading an evidence root.
func archivesEvidence(c shell.Command) bool {
	switch c.Name {
	case "tar", "zip", "cpio", "dd", "cat", "gzip", "xz", "zstd":
	default:
		return false
	}
	for _, a := range shell.Lits(c.Args[1:]) {
		if v, ok := strings.CutPrefix(a, "if="); ok {
			a = v
		}
		if evidenceRoots.MatchString(path.Clean(a)) {
			return true
		}
	}
	return false
}
