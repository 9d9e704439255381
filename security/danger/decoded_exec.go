package danger

import "regexp"

// Code or commands decoded at run time and run at once: nobody can review
// them before they run. Literals the normalizer could decode are judged by
// what they decode to; what is left here decodes a value.
var (
	// pyRunDecoded: a shell command that is itself a decoded value
	// (os.system(b64decode(cmd).decode()), subprocess.run(b64decode(x), shell=True)).
	pyRunDecoded = regexp.MustCompile(`\b(?:system|popen|getoutput|getstatusoutput|run|call|check_call|check_output|Popen)\s*\(\s*` +
		`(?:[A-Za-z_]\w*\s*\.\s*)*(?:\w*b64decode|b32decode|b85decode|a85decode|decodebytes|unhexlify|fromhex|decompress|decrypt)\s*\(|` +
		`\b(?:exec|eval)\s*\([^\n]*(?:\bcodecs\s*\.\s*decode\s*\(|\b(?:urlsafe|standard)_b64decode\s*\()|` +
		// exec(''.join(chr(c) for c in codes)): text built from character codes.
		`\b(?:exec|eval)\s*\(\s*\x01\d+\x02\s*\.\s*join\s*\([^\n]*\bchr\b`)
	// jsEvalDecoded: eval/new Function/vm.runIn* of base64/hex or inflated text.
	jsEvalDecoded = regexp.MustCompile(`(?:\beval|\bFunction|\bvm\s*\.\s*runIn\w+|\bexecSync|\bexec)\s*\([^\n]*(?:\batob\s*\(|` +
		`\bBuffer\s*\.\s*from\s*\([^\n]*['"` + "`" + `](?:base64|base64url|hex)['"` + "`" + `]|\b(?:inflate|gunzip|brotliDecompress|inflateRaw)Sync\s*\()`)
	// rbEvalDecoded: eval/system of Base64-decoded, unpacked or inflated text.
	rbEvalDecoded = regexp.MustCompile(`\b(?:eval|instance_eval|class_eval|module_eval|system|exec|spawn|IO\s*\.\s*popen)\b\s*\(?[^\n]*` +
		`(?:\bBase64\s*\.\s*(?:strict_|urlsafe_)?decode64\b|\bZlib::Inflate\b|\bZlib\s*\.\s*inflate\b|\.\s*unpack1?\s*\(\s*['"][mH])`)
)

// checkDecodedRun judges Node and Ruby input for decoded code run at once.
func checkDecodedRun(ctx Context, input string) Verdict {
	switch ctx {
	case Node:
		return hitIf(jsEvalDecoded.MatchString(input) && !literalsDecoded(input, false), "decode-to-shell")
	case Ruby:
		return hitIf(rbEvalDecoded.MatchString(input) && !literalsDecoded(input, true), "decode-to-shell")
	}
	return Verdict{}
}
