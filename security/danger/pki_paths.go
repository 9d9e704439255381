package danger

import (
	"regexp"
	"strings"
)

// A certificate authority's files (tune20): its private keys — an SSH CA's
// (/etc/ssh/ca/user_ca, ssh_host_ca_key), step-ca's secrets, an OpenSSL CA's
// private/ directory — are credentials: whoever holds one can sign a
// certificate that logs in as anyone or serves any name. Its database (the
// index.txt of issued and revoked certificates, serial, crlnumber) is the
// record the CA signs and revokes by: a database.

var (
	sshCAKey = regexp.MustCompile(`^(?:ssh_)?(?:user|host)_ca(?:_key)?$|^ca(?:_key)?$|^(?:root|intermediate)_ca_key$`)
	// caDirName: a directory named as a CA's (hollowpine-ca, CA, root_ca, easy-rsa's pki).
	caDirName = regexp.MustCompile(`(?i)^(?:ca|pki|.+[-_]ca|ca[-_].+|root[-_]?ca|intermediate[-_]?ca)$`)
	caDBFiles = map[string]bool{"index.txt": true, "index.txt.attr": true, "serial": true, "crlnumber": true}
)

// caFileClass classes the components of a path inside a CA, or pcUnknown.
func caFileClass(comps []string) pathClass {
	n := len(comps)
	if n < 2 {
		return pcUnknown
	}
	base, dir := comps[n-1], comps[n-2]
	if strings.HasSuffix(base, ".pub") || strings.HasSuffix(base, ".crt") || strings.HasSuffix(base, ".crl") {
		return pcUnknown
	}
	switch {
	case comps[0] == "etc" && comps[1] == "ssh" && (sshCAKey.MatchString(base) || n == 4 && dir == "ca"):
		return pcCredential
	case dir == "secrets" && n >= 3 && (comps[n-3] == "step-ca" || comps[n-3] == ".step"):
		return pcCredential
	case caDBFiles[base] && caDirName.MatchString(dir):
		return pcDatabase
	case dir == "private" && n >= 3 && caDirName.MatchString(comps[n-3]):
		return pcCredential
	}
	return pcUnknown
}
