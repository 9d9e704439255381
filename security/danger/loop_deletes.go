package danger

import (
	"regexp"
	"strings"
)

// A loop that deletes every item a listing returns is the bulk delete its
// SDK may not have: `for (const u of (await auth.listUsers()).users) await
// auth.deleteUser(u.uid)`, `for r in recs: cf.dns.records.delete(r.id)`,
// `for c in certs: requests.delete(f".../certificates/{c['id']}")`. It
// passes when something narrows the items (an if, a filter, a prefix or
// query, a name that says they are a subset), when they are a literal list
// typed out by hand, when the client is a test or emulator one, and when the
// delete is an in-memory one (a Map's, a set's, a list's).

var (
	// pyForLoop: `for X in ITER: BODY` (one line) or its header with the
	// body on the lines after; pyComprehension: `[BODY for X in ITER]`.
	pyForLoop       = regexp.MustCompile(`(?m)^\s*(?:async\s+)?for\s+([A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)*\s+in\s+(.+?):[ \t]*(.*)$`)
	pyComprehension = regexp.MustCompile(`[\[(]\s*(?:await\s+)?(.+?)\s+for\s+([A-Za-z_]\w*)\s+in\s+(.+?)\s*[\])]\s*$`)
	// jsForOf: `for (const X of` / `for await (let X of`; the iterable ends
	// at the parenthesis that closes the header.
	jsForOf = regexp.MustCompile(`\bfor\s*(?:await\s*)?\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+`)
	// jsForEach: ITER.forEach(X => BODY), ITER.forEach(async (X) => BODY) and
	// Stripe's ITER.autoPagingEach(X => BODY), every page of a listing.
	jsForEach = regexp.MustCompile(`^(.*?)\.\s*(?:forEach|autoPagingEach)\s*\(\s*(?:async\s*)?\(?\s*([A-Za-z_$][\w$]*)\s*\)?\s*=>\s*(.*)$`)
	// rubyEach: ITER.each { |X| BODY } or ITER.each do |X| BODY end.
	rubyEach = regexp.MustCompile(`^(.*?)\.\s*(?:each|find_each|each_entry|auto_paging_each)\s*(?:\{|do)\s*\|\s*([A-Za-z_]\w*)\s*\|(.*)$`)
	// deleteCall: RECEIVER.METHOD( where METHOD removes a remote resource.
	deleteCall = regexp.MustCompile(`([A-Za-z_$][\w$]*(?:\s*(?:(?:\.|::)\s*[A-Za-z_$][\w$]*|\(\s*\)|\[[^\]]*\]))*)\s*\.\s*(delete|del|destroy|purge|delete_[a-z]\w*|delete[A-Z]\w*|remove[A-Z]\w*|destroy[A-Z]\w*)\s*\(`)
	// narrowed: what picks some of the items rather than all of them.
	narrowed = regexp.MustCompile(`\bif\b|\?|\bfilter\b|\.filter\s*\(|\bwhere\s*\(|[Pp]refix|[Ff]ilters?\s*[=:]|\bquery\s*[=:]|\bsearch\b|\bmatch\w*\b|startswith|endswith|startsWith|endsWith|includes\s*\(|==|!=|[<>]=?\s*\d|\bslice\s*\(|\[\s*:\s*\d|\blimit\s*[=:]\s*[1-9]\b|\bcreated\b|\bolder|\bsince\b|\bbefore\b|\b(?:email|status|type|name|tag|label|owner|customer|user_id|userId)\s*[:=]`)
	// subsetName: a variable named for the items picked out before.
	subsetName = regexp.MustCompile(`(?i)stale|old|expired|unused|orphan|dangling|dup|tmp|temp|test|scratch|selected|chosen|picked|to_?delete|to_?remove|doomed|bad|broken|failed|spam|inactive|leftover|abandoned|obsolete|preview|fixture|fake|seed|sample`)
	// httpClients: a client whose delete is an HTTP DELETE of the URL given.
	httpClients = map[string]bool{"requests": true, "httpx": true, "session": true, "axios": true, "http": true, "got": true, "ky": true}
)

func checkLoopDeletes(code string) Verdict {
	for _, l := range loopsIn(code) {
		if eachDeleted(l.item, l.iter, l.body) {
			return hit("sdk-bulk-delete")
		}
	}
	return Verdict{}
}

type loop struct{ item, iter, body string }

func loopsIn(code string) []loop {
	var out []loop
	for _, m := range pyForLoop.FindAllStringSubmatchIndex(code, -1) {
		body := code[m[6]:m[7]]
		if strings.TrimSpace(body) == "" { // the body is the indented lines that follow
			rest := code[m[1]:]
			var b strings.Builder
			for _, ln := range strings.Split(strings.TrimPrefix(rest, "\n"), "\n") {
				if ln == "" || ln[0] != ' ' && ln[0] != '\t' {
					break
				}
				b.WriteString(ln + "\n")
			}
			body = b.String()
		}
		out = append(out, loop{code[m[2]:m[3]], code[m[4]:m[5]], body})
	}
	for ln := range strings.Lines(code) {
		if m := pyComprehension.FindStringSubmatch(strings.TrimSpace(ln)); m != nil {
			out = append(out, loop{m[2], m[3], m[1]})
		}
		if m := jsForEach.FindStringSubmatch(strings.TrimSpace(ln)); m != nil {
			out = append(out, loop{m[2], m[1], m[3]})
		}
		if m := rubyEach.FindStringSubmatch(strings.TrimSpace(ln)); m != nil {
			out = append(out, loop{m[2], m[1], m[3]})
		}
	}
	for _, m := range jsForOf.FindAllStringSubmatchIndex(code, -1) {
		rest := code[m[1]:]
		depth, end := 1, -1
		for i, r := range rest {
			if r == '(' {
				depth++
			} else if r == ')' {
				if depth--; depth == 0 {
					end = i
					break
				}
			}
		}
		if end < 0 {
			continue
		}
		out = append(out, loop{code[m[2]:m[3]], rest[:end], rest[end+1:]})
	}
	return out
}

// eachDeleted: body deletes, through a remote client, the resource each item
// names, and iter is every item of a listing.
func eachDeleted(item, iter, body string) bool {
	iter = strings.TrimSpace(iter)
	if narrowed.MatchString(iter) || narrowed.MatchString(body) || handTyped(iter) {
		return false
	}
	if bare := strings.TrimSpace(iter); identOnly.MatchString(bare) && subsetName.MatchString(bare) {
		return false
	}
	itemRe := regexp.MustCompile(`(?:^|[^\w$.])` + regexp.QuoteMeta(item) + `\b`)
	for _, m := range deleteCall.FindAllStringSubmatchIndex(body, -1) {
		recv, method := body[m[2]:m[3]], body[m[4]:m[5]]
		root := recv
		if i := strings.IndexAny(root, ".([ :"); i >= 0 {
			root = root[:i]
		}
		if testClient(recv) {
			continue
		}
		args := callArgs(body[m[1]:])
		switch {
		case recv == item && method == "delete": // X.delete(); X.destroy() is as often a widget or an object let go
			return true
		case !itemRe.MatchString(" " + args):
			continue
		case httpClients[root] && (method == "delete" || method == "del"):
			return true
		case strings.ContainsAny(recv, ".(:") || method != "delete" && method != "del" && method != "destroy":
			return true // an SDK's namespace (stripe.customers.del, auth().deleteUser), not a Map's delete
		}
	}
	return false
}

var literalTuple = regexp.MustCompile(`^\(\s*['"]`)

var identOnly = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)

// handTyped: a literal list or tuple of names (['a', 'b']), or a range.
func handTyped(iter string) bool {
	return strings.HasPrefix(iter, "[") || literalTuple.MatchString(iter) ||
		strings.HasPrefix(iter, "range(") || strings.HasPrefix(iter, "{")
}

// testClient: a client named for a test mode, an emulator or a non-production
// project (stripeTest, devAuth, emulatorDb).
func testClient(recv string) bool {
	l := strings.ToLower(recv)
	for _, w := range []string{"test", "emulator", "staging", "sandbox", "mock", "fake", "dev", "local"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// callArgs: the text of a call's arguments after its opening parenthesis, up
// to the closing one.
func callArgs(s string) string { return callArgsText("(" + s) }
