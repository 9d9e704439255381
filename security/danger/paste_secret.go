package danger

import "regexp"

// A value named for a secret (key, token, password, credentials) sent from
// code to a public paste or file-drop host, where anyone with the link reads
// it: `requests.post('https://paste.rs', data=key)`. What the name holds was
// read on an earlier line; the name is what the line shows. Other values
// posted there (a log, a traceback) and secrets sent to the project's own
// API are not this.
var (
	pasteHosts = `(?:paste\.rs|0x0\.st|file\.io|transfer\.sh|termbin\.com|ix\.io|sprunge\.us|pastebin\.com|hastebin\.com|` +
		`dpaste\.(?:com|org)|paste\.ee|catbox\.moe|litterbox\.catbox\.moe|tmpfiles\.org|bashupload\.com|oshi\.at|temp\.sh|paste\.c-net\.org)`
	codeToPaste = regexp.MustCompile(`\b(?:requests|httpx|session|client|s)\s*\.\s*(?:post|put)\s*\(\s*(?:url\s*=\s*)?f?['"]https?://(?:www\.)?` +
		pasteHosts + `[^'"]*['"][^)]*?\b(?:data|json|files|content)\s*=\s*(?:\{[^}]*?:\s*)?(?:\(\s*['"][^'"]*['"]\s*,\s*)?([A-Za-z_]\w*)`)
	// fetch('https://paste.rs', { method: 'POST', body: key }) from node
	fetchToPaste  = regexp.MustCompile("\\bfetch\\s*\\(\\s*['\"`]https?://(?:www\\.)?" + pasteHosts + "[^'\"`]*['\"`]\\s*,\\s*\\{[^}]*?\\bbody\\s*:\\s*(?:JSON\\.stringify\\(\\s*)?([A-Za-z_$][\\w$]*)")
	secretVarName = regexp.MustCompile(`(?i)(?:^|_)(?:key|keys|token|tokens|secret|secrets|password|passwd|pw|creds?|credentials|privkey|pem|p8|p12|keystore|dsn|env)(?:$|_)|^(?:api|private|signing|auth|access)_?key|^dotenv$`)
)

func checkCodePastesSecret(code string) Verdict {
	for _, re := range []*regexp.Regexp{codeToPaste, fetchToPaste} {
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			if secretVarName.MatchString(m[1]) {
				return hit("expose-secret")
			}
		}
	}
	return Verdict{}
}
