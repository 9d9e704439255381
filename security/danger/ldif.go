package danger

import (
	"regexp"
	"strings"
)

// LDIF sent to ldapmodify or ldapadd, judged by the change it makes: every
// member of an administrators' group removed ("delete: member" with no
// value names them all), a whole group's members replaced, or an access
// rule that lets anyone (or anonymous) write or manage the directory.

var ldifTools = map[string]bool{"ldapmodify": true, "ldapadd": true}

var (
	ldifMemberAttr = regexp.MustCompile(`(?i)^(?:member|uniquemember|memberuid)$`)
	// ldifOpenAccess: an olcAccess/access rule granting write or manage to
	// every requester or to anonymous ones.
	ldifOpenAccess = regexp.MustCompile(`(?i)^(?:olc)?access:.*\bby\s+(?:\*|anonymous|users)\s+(?:write|manage|=w)`)
	ldifGroupDN    = regexp.MustCompile(`(?i)^dn:\s*cn=([^,]+),`)
)

func judgeLDIF(text string) Verdict {
	group := ""
	lines := strings.Split(strings.ReplaceAll(text, "\r", ""), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if m := ldifGroupDN.FindStringSubmatch(l); m != nil {
			group = m[1]
			continue
		}
		if strings.HasPrefix(strings.ToLower(l), "dn:") {
			group = ""
		}
		if ldifOpenAccess.MatchString(l) {
			return hit("config-weakened")
		}
		op, attr, ok := strings.Cut(l, ":")
		if !ok || !ldifMemberAttr.MatchString(strings.TrimSpace(attr)) || group == "" || !adminGroup(group) {
			continue
		}
		switch strings.ToLower(op) {
		case "delete":
			// with no "member: X" line after it, every value goes
			if i+1 >= len(lines) || !ldifMemberAttr.MatchString(strings.TrimSpace(strings.SplitN(lines[i+1], ":", 2)[0])) {
				return hit("account-change")
			}
		case "replace":
			return hit("account-change")
		}
	}
	return Verdict{}
}
