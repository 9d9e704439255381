package danger

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Python library calls that do what a shell command the rules already judge
// does. Each is written out as that command and judged with the shell rules,
// so the command's own near misses (a scratch destination, a loopback
// address, a test environment) carry over:
//
//   - tarfile/zipfile extractall(DEST), shutil.unpack_archive(A, DEST): tar -x -C DEST;
//   - a redis client's execute_command(…) and config_set(k, v): redis-cli …;
//   - Django's call_command(name, args…): python manage.py name args…;
//   - requests/httpx delete(URL), request('DELETE', URL): curl -X DELETE URL;
//   - an SFTP/SCP client's put(local, remote): scp local host:remote;
//     boto3's upload_file(local, bucket, key): aws s3 cp local s3://bucket/key;
//   - shutil.make_archive(base, fmt, root) and copytree/copy/copy2/copyfile(a, b):
//     tar -czf base.tar.gz root, cp -r a b;
//   - http.server's handler given directory=D (or the process moved to D with
//     os.chdir) on an address: python3 -m http.server -d D --bind ADDR;
//   - fileinput.input(FILES, inplace=True): sed -i on FILES.

type pyCommandRoute struct {
	call  *regexp.Regexp // ends at the call's "("
	write func(args []string, kw map[string]string, code string, strs []string) (string, bool)
}

var pyCommandRoutes = []pyCommandRoute{
	{regexp.MustCompile(`\.\s*extractall\s*\(`), func(a []string, kw map[string]string, code string, strs []string) (string, bool) {
		dest := firstOf(kw["path"], at(a, 0))
		return "tar -xf archive.tar -C " + dest, dest != ""
	}},
	{regexp.MustCompile(`\bunpack_archive\s*\(`), func(a []string, kw map[string]string, _ string, _ []string) (string, bool) {
		dest := firstOf(kw["extract_dir"], at(a, 1))
		return "tar -xf " + firstOf(at(a, 0), "archive.tar") + " -C " + dest, dest != ""
	}},
	{regexp.MustCompile(`\.\s*execute_command\s*\(`), func(a []string, _ map[string]string, _ string, _ []string) (string, bool) {
		return "redis-cli " + strings.Join(a, " "), len(a) > 0
	}},
	{regexp.MustCompile(`\.\s*config_set\s*\(`), func(a []string, _ map[string]string, _ string, _ []string) (string, bool) {
		return "redis-cli CONFIG SET " + strings.Join(a, " "), len(a) == 2
	}},
	{regexp.MustCompile(`(?:^|[^\w.]|\bmanagement\s*\.)call_command\s*\(`), func(a []string, kw map[string]string, _ string, _ []string) (string, bool) {
		cmd := "python3 manage.py " + strings.Join(a, " ")
		if kw["interactive"] == "False" {
			cmd += " --noinput"
		}
		return cmd, len(a) > 0
	}},
	{regexp.MustCompile(`\b(?:requests|httpx|session|sess|s|client|http)\s*\.\s*delete\s*\(`), func(a []string, kw map[string]string, _ string, _ []string) (string, bool) {
		url := firstOf(kw["url"], at(a, 0))
		return "curl -X DELETE " + url, url != ""
	}},
	{regexp.MustCompile(`\b(?:requests|httpx|session|sess|s|client|http)\s*\.\s*request\s*\(`), func(a []string, _ map[string]string, _ string, _ []string) (string, bool) {
		return "curl -X DELETE " + at(a, 1), strings.EqualFold(strings.Trim(at(a, 0), `'"`), "DELETE") && at(a, 1) != ""
	}},
	// sf: paramiko's SFTPClient as commonly named
	{regexp.MustCompile(`\b(?:\w*(?:sftp|scp|SFTP|SCP)\w*|sf)\s*\.\s*put\s*\(`), func(a []string, _ map[string]string, _ string, _ []string) (string, bool) {
		return "scp " + at(a, 0) + " remote:" + firstOf(at(a, 1), "."), at(a, 0) != ""
	}},
	{regexp.MustCompile(`\.\s*upload_file\s*\(`), func(a []string, kw map[string]string, _ string, _ []string) (string, bool) {
		local := firstOf(kw["Filename"], at(a, 0))
		return "aws s3 cp " + local + " s3://bucket/key", local != ""
	}},
	{regexp.MustCompile(`\bmake_archive\s*\(`), func(a []string, kw map[string]string, _ string, _ []string) (string, bool) {
		root := firstOf(kw["root_dir"], at(a, 2), ".")
		if d := kw["base_dir"]; d != "" {
			root = strings.TrimSuffix(root, "/") + "/" + strings.TrimPrefix(d, "./")
		}
		return "tar -czf " + at(a, 0) + ".tar.gz " + root, at(a, 0) != ""
	}},
	{regexp.MustCompile(`\bshutil\s*\.\s*(?:copytree|copy2?|copyfile)\s*\(`), func(a []string, kw map[string]string, _ string, _ []string) (string, bool) {
		return "cp -r " + at(a, 0) + " " + firstOf(kw["dst"], at(a, 1)), len(a) >= 2 || kw["dst"] != ""
	}},
	// a lake's writes that replace what is there: Spark's mode("overwrite"), pyarrow's
	// existing_data_behavior="delete_matching", BigQuery's WRITE_TRUNCATE (checks_data.go)
	{regexp.MustCompile(`\.\s*(?:parquet|orc|csv|json|save|text)\s*\(`), func(a []string, kw map[string]string, code string, strs []string) (string, bool) {
		p := firstOf(kw["path"], at(a, 0))
		return lakeRemoval(p), p != "" && pyOverwriteMode(code, strs)
	}},
	{regexp.MustCompile(`\.\s*(?:saveAsTable|insertInto)\s*\(`), func(a []string, kw map[string]string, code string, strs []string) (string, bool) {
		return "bq load --replace " + at(a, 0) + " -", at(a, 0) != "" && (pyOverwriteMode(code, strs) || kw["overwrite"] == "True")
	}},
	{regexp.MustCompile(`\bwrite_dataset\s*\(`), func(a []string, kw map[string]string, _ string, _ []string) (string, bool) {
		p := firstOf(kw["base_dir"], at(a, 1))
		return lakeRemoval(p), p != "" && strings.Contains(kw["existing_data_behavior"], "delete_matching")
	}},
	{regexp.MustCompile(`\.\s*load_table_from_(?:dataframe|uri|file|json)\s*\(`), func(a []string, kw map[string]string, code string, strs []string) (string, bool) {
		t := firstOf(kw["destination"], at(a, 1))
		return "bq load --replace " + t + " -", t != "" && (slices.Contains(strs, "WRITE_TRUNCATE") || strings.Contains(code, "WriteDisposition.WRITE_TRUNCATE"))
	}},
	// google-cloud-storage's Bucket.make_public(recursive=True): every object readable by anyone
	{regexp.MustCompile(`\.\s*make_public\s*\(`), func(_ []string, kw map[string]string, _ string, _ []string) (string, bool) {
		return "gsutil iam ch allUsers:objectViewer gs://bucket", kw["recursive"] == "True" || kw["future"] == "True"
	}},
	{regexp.MustCompile(`\bSimpleHTTPRequestHandler\b`), pyHTTPServer},
	{regexp.MustCompile(`\bfileinput\s*\.\s*(?:input|FileInput)\s*\(`), func(a []string, kw map[string]string, code string, strs []string) (string, bool) {
		// an in-place edit of each file, as sed -i is
		files := firstOf(kw["files"], at(a, 0))
		return "sed -i 's/a/b/' " + files, kw["inplace"] == "True" && files != ""
	}},
}

var (
	pyChdir     = regexp.MustCompile(`\bos\s*\.\s*chdir\s*\(\s*(` + pyL + `)\s*\)`)
	pyServeDir  = regexp.MustCompile(`\bdirectory\s*=\s*(` + pyL + `)`)
	pyServeAddr = regexp.MustCompile(`\(\s*\(\s*(` + pyL + `)\s*,\s*\d+\s*\)`)
)

// pyHTTPServer: the handler serves its directory= (or the directory the
// process moved to), on the address the server binds.
func pyHTTPServer(_ []string, _ map[string]string, code string, strs []string) (string, bool) {
	dir := ""
	if m := pyServeDir.FindStringSubmatch(code); m != nil {
		dir = litValue(m[1], strs)
	} else if m := pyChdir.FindStringSubmatch(code); m != nil {
		dir = litValue(m[1], strs)
	}
	if dir == "" {
		return "", false
	}
	cmd := "python3 -m http.server -d " + shQuote(dir)
	if m := pyServeAddr.FindStringSubmatch(code); m != nil && litValue(m[1], strs) != "" {
		cmd += " --bind " + shQuote(litValue(m[1], strs))
	}
	return cmd, true
}

// pyOverwriteMode: a DataFrame writer set to replace its target.
func pyOverwriteMode(code string, strs []string) bool {
	for _, m := range pyWriteMode.FindAllStringSubmatch(code, -1) {
		if strings.EqualFold(pyLiteral(m[1], strs), "overwrite") {
			return true
		}
	}
	return false
}

var pyWriteMode = regexp.MustCompile(`\bmode\s*(?:\(\s*|=\s*)\x01(\d+)\x02`)

// pyCommandEquivalents judges each route's call as the command it amounts to.
func pyCommandEquivalents(code string, strs []string, depth int) Verdict {
	if depth >= shell.MaxDepth {
		return Verdict{}
	}
	if pyPublicPolicy(code, strs) {
		return hit("storage-made-public")
	}
	for _, r := range pyCommandRoutes {
		for _, loc := range r.call.FindAllStringIndex(code, -1) {
			var args []string
			kw := map[string]string{}
			for _, a := range pyCallArgs(code[loc[1]:]) {
				a = strings.TrimSpace(a)
				if k, v, ok := strings.Cut(a, "="); ok && plainIdent.MatchString(strings.TrimSpace(k)) && !strings.HasPrefix(v, "=") {
					kw[strings.TrimSpace(k)] = pyShellWord(strings.TrimSpace(v), strs)
					continue
				}
				if a != "" {
					args = append(args, pyShellWord(a, strs))
				}
			}
			cmd, ok := r.write(args, kw, code, strs)
			if !ok {
				continue
			}
			if v := classify(Shell, cmd, depth+1); v.Dangerous {
				return via(v, "Python")
			}
		}
	}
	return Verdict{}
}

// pyShellWord is one argument as a shell word: a literal quoted, True/False
// and numbers as they are, anything else an unknown value.
func pyShellWord(a string, strs []string) string {
	if s, ok := pyStringArg(a+")", strs); ok && !strings.Contains(s, shell.DynMark) {
		return shQuote(s)
	} else if ok {
		return shQuote(strings.ReplaceAll(s, shell.DynMark, "")) + `"$__dyn"`
	}
	if l, ok := pyListArg(a, strs); ok && (strings.HasPrefix(a, "[") || strings.HasPrefix(a, "(")) {
		return l // ['a', 'b']: the words
	}
	if plainIdent.MatchString(a) || regexp.MustCompile(`^-?\d+$`).MatchString(a) {
		return a
	}
	return `"$__dyn"`
}

// shQuote quotes s as one shell word; a leading ~ stays outside the quotes,
// so the home directory it names is still one.
func shQuote(s string) string {
	if s == "~" {
		return s
	}
	if rest, ok := strings.CutPrefix(s, "~/"); ok {
		return "~/" + shQuote(rest)
	}
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return `"$__dyn"`
	}
	return q
}

func at(a []string, i int) string {
	if i < len(a) {
		return a[i]
	}
	return ""
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

var pyPutPolicy = regexp.MustCompile(`\bput_bucket_policy\s*\(|\.\s*Policy\s*\(\s*\)\s*\.\s*put\s*\(`)

// pyPublicPolicy: boto3's put_bucket_policy (or BucketPolicy.put) with a
// policy, as a JSON string or a dict given to json.dumps, that allows everyone
// — a bucket made public as a public-read ACL makes it.
func pyPublicPolicy(code string, strs []string) bool {
	for _, loc := range pyPutPolicy.FindAllStringIndex(code, -1) {
		end := closingParen(code, loc[1])
		if end < 0 {
			end = len(code)
		}
		doc := pyLit.ReplaceAllStringFunc(code[loc[1]:end], func(m string) string {
			return strconv.Quote(litValue(m, strs))
		})
		if publicPolicy(doc) {
			return true
		}
	}
	return false
}
