package danger

import "regexp"

// Calls that ask an API to check a request without carrying it out: EC2's
// DryRun=True (boto3, aws-sdk-js DryRun: true, aws-sdk-ruby dry_run: true),
// Kubernetes' dry_run='All', Google's validate_only=True. What such a call
// names is not destroyed, so its method is renamed before the rules read the
// code; a call without the argument (the real run after the check) is kept.

var (
	sdkCall = regexp.MustCompile(`\.\s*([A-Za-z_]\w*[!?]?)\s*\(`)
	// dryRunArg: the argument, set to true or (Kubernetes) to a string.
	dryRunArg = regexp.MustCompile(`(?:^|[\s,({])(?:DryRun|dry_run|dryRun|validate_only|validateOnly)\s*(?:=>|=|:)\s*(?:True|true|\x01\d+\x02)`)
)

// dropDryRuns renames the method of every call whose own arguments ask for a
// dry run. code is as scanPython/scanLiterals leave it (no string contents).
func dropDryRuns(code string) string {
	out := []byte(code)
	for _, m := range sdkCall.FindAllStringSubmatchIndex(code, -1) {
		end := closeCall(code, m[1])
		if end > 0 && dryRunArg.MatchString(code[m[1]:end]) {
			for i := m[2]; i < m[3]; i++ {
				out[i] = 'x'
			}
		}
	}
	return string(out)
}

// closeCall: the index of the parenthesis that closes a call whose
// arguments start at from, or -1.
func closeCall(code string, from int) int {
	depth := 1
	for i := from; i < len(code); i++ {
		switch code[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}
