package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Certificates revoked (tune20): a CA's revocation is published in its CRL
// and OCSP answers, every client that checks them stops trusting the
// certificate at once, and it cannot be taken back — only a hold
// (certificateHold, reason 6) can be lifted. Issuing, listing and CRL
// generation pass, as do the ACME staging server's certificates.

func init() {
	for _, n := range []string{"openssl", "certbot", "step", "easyrsa", "easyrsa3"} {
		addHostCheck(n, checkCertRevoke)
	}
}

func checkCertRevoke(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	switch c.Name {
	case "openssl":
		if len(args) == 0 || args[0] != "ca" || !contains(args, "-revoke") {
			return Verdict{}
		}
		return hitIf(!strings.EqualFold(strings.Join(optionValues(c.Args[1:], "-crl_reason", "-crl_reason"), ""), "certificateHold"), "cert-revoke")
	case "certbot":
		return hitIf(len(ops) > 0 && ops[0] == "revoke" && !hasWord(c.Args, "--staging") && !hasWord(c.Args, "--test-cert") && !hasWord(c.Args, "--dry-run"), "cert-revoke")
	case "step":
		return hitIf(len(ops) > 1 && ops[0] == "ca" && ops[1] == "revoke", "cert-revoke")
	default:
		return hitIf(len(ops) > 0 && ops[0] == "revoke", "cert-revoke")
	}
}

// ipaRevokes: ipa cert-revoke, unless the reason is a hold (6).
func ipaRevokes(c shell.Command, _ []string) bool {
	return !contains(optionValues(c.Args[1:], "--revocation-reason", "--revocation-reason"), "6")
}
