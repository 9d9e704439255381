package danger

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// The command-line tools of data warehouses, lakes and schedulers, whose
// subcommands replace or delete a table, a dataset or a DAG's history. They
// are judged as the migration tools are (dbTools), and by their target: a
// table, bucket or dbt target named as dev, scratch, tmp or test may go;
// prod, curated, marts and warehouse names are data of record.

// Where a task's target is read, when it is judged by one.
const (
	scopeAll   = iota + 1 // every operand after the task's words
	scopeFirst            // the first (bq load TABLE SOURCE)
	scopeLast             // the last, a copy's or a sync's destination
)

var dataTools = map[string][]dbTask{
	"bq": {{words: []string{"rm"}, flags: []string{"-f", "--force", "-rf", "-fr"}, rule: "sql-drop", scope: scopeAll},
		{words: []string{"cp"}, flags: []string{"-f", "--force", "--no_clobber=false"}, rule: "sql-truncate", scope: scopeLast},
		{words: []string{"query"}, flags: []string{"--replace", "--replace=true"}, rule: "sql-truncate", scope: scopeAll},
		{words: []string{"load"}, flags: []string{"--replace", "--replace=true"}, rule: "sql-truncate", scope: scopeFirst}},
	"azcopy": {{words: []string{"remove"}, rule: "cloud-teardown", scope: scopeAll}, {words: []string{"rm"}, rule: "cloud-teardown", scope: scopeAll},
		{words: []string{"sync"}, flags: []string{"--delete-destination=true", "--delete-destination"}, rule: "cloud-teardown", scope: scopeLast}},
	// the metadata database: every DAG run, connection and variable
	"airflow": {{words: []string{"db", "reset"}, rule: "sql-drop"}, {words: []string{"resetdb"}, rule: "sql-drop"},
		{words: []string{"dags", "delete"}, rule: "sql-purge-history"}},
	// a full refresh drops and rebuilds incremental models from their sources;
	// with no --target, dbt runs against the profile's default, a developer's own
	"dbt": {{words: []string{"run"}, flags: []string{"--full-refresh"}, rule: "sql-drop", scope: scopeAll, defaultOK: true},
		{words: []string{"build"}, flags: []string{"--full-refresh"}, rule: "sql-drop", scope: scopeAll, defaultOK: true},
		{words: []string{"seed"}, flags: []string{"--full-refresh"}, rule: "sql-drop", scope: scopeAll, defaultOK: true},
		{words: []string{"run-operation", "drop_*"}, rule: "sql-drop", scope: scopeAll, defaultOK: true}},
}

// targetOpts name where a data tool writes, ahead of its operands.
var targetOpts = []string{"--target", "-t", "--destination_table"}

// devTarget: a dbt target, dataset, bucket or machine named as a developer's
// own, CI's or a lab's.
var devTarget = regexp.MustCompile(`(?i)(?:^|[-_./:@])(?:dev|devel|development|local|ci|sandbox|lab)(?:$|[-_./:@]|\d)`).MatchString

func init() {
	for name, tasks := range dataTools {
		dbTools[name] = tasks
	}
	addHostCheck("hdfs", checkHDFSRemove)
	addHostCheck("hadoop", checkHDFSRemove)
	addHostCheck("aws", checkLifecycleExpiry)
}

// disposableTarget: the task's target is named, and every name says it is
// disposable; args are the words after the tool, plain the operands after
// the task's words.
func disposableTarget(t dbTask, args []shell.Word, plain []string) bool {
	targets := slices.DeleteFunc(optionValuesAny(args, targetOpts), func(s string) bool { return s == "" })
	if len(targets) == 0 && len(plain) > 0 {
		switch t.scope {
		case scopeFirst:
			targets = plain[:1]
		case scopeLast:
			targets = plain[len(plain)-1:]
		default:
			targets = plain
		}
	}
	if len(targets) == 0 {
		return t.defaultOK
	}
	return !slices.ContainsFunc(targets, func(s string) bool { return !throwawayTarget(s) })
}

// optionValuesAny: optionValues for each of names (a short one or a long one).
func optionValuesAny(args []shell.Word, names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "--") {
			out = append(out, optionValues(args, "", n)...)
		} else {
			out = append(out, optionValues(args, n, "")...)
		}
	}
	return out
}

// lakeRemoval is the command that deletes a lake directory (a local path,
// s3://, s3a://, gs://, an Azure URL), given as a shell word, for writes
// that replace one: judged with the shell rules, a scratch path passes as it
// does there.
func lakeRemoval(word string) string {
	scheme, _, _ := strings.Cut(strings.TrimLeft(word, `'"$`), "://")
	switch scheme {
	case "s3", "s3a", "s3n":
		return "aws s3 rm --recursive " + strings.Replace(word, scheme+"://", "s3://", 1)
	case "gs":
		return "gsutil -m rm -r " + word
	case "abfs", "abfss", "wasbs", "https":
		return "azcopy remove --recursive " + word
	}
	return "rm -rf " + word
}

// checkHDFSRemove: hdfs dfs -rm -r (or -skipTrash, which bypasses the trash
// that undoes it) of a path not named as scratch; HDFS holds a lake's tables.
func checkHDFSRemove(c shell.Command, _ int) Verdict {
	args := shell.Lits(c.Args[1:])
	if len(args) < 2 || args[0] != "dfs" && args[0] != "fs" || !slices.ContainsFunc(args, func(a string) bool { return a == "-rm" || a == "-rmr" }) {
		return Verdict{}
	}
	var paths []string
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			paths = append(paths, a)
		}
	}
	recursive := slices.ContainsFunc(args, func(a string) bool { return a == "-r" || a == "-R" || a == "-rmr" || a == "-skipTrash" })
	return hitIf(recursive && len(paths) > 0 && !allTemporaryStr(paths), "rm-recursive-force")
}

// s3Lifecycle is the part of an S3 lifecycle configuration that says what
// expires.
type s3Lifecycle struct {
	Rules []struct {
		Status     string
		Prefix     *string
		Filter     *struct{ Prefix *string }
		Expiration *struct{ Days int }
	}
}

// expiryDays: a whole-bucket expiry this short is not a retention policy
// (logs kept 90 days) but the bucket emptying itself.
const expiryDays = 7

// checkLifecycleExpiry: aws s3api put-bucket-lifecycle-configuration whose
// enabled rule expires every object (no prefix, or an empty one) of a bucket
// not named as scratch within expiryDays.
func checkLifecycleExpiry(c shell.Command, _ int) Verdict {
	if !slices.Contains(shell.Lits(c.Args), "put-bucket-lifecycle-configuration") {
		return Verdict{}
	}
	if buckets := optionValues(c.Args[1:], "", "--bucket"); len(buckets) > 0 && allTemporaryStr(buckets) {
		return Verdict{}
	}
	for _, doc := range optionValues(c.Args[1:], "", "--lifecycle-configuration") {
		var lc s3Lifecycle
		if json.Unmarshal([]byte(doc), &lc) != nil {
			continue
		}
		for _, r := range lc.Rules {
			prefix := r.Prefix
			if r.Filter != nil && r.Filter.Prefix != nil {
				prefix = r.Filter.Prefix
			}
			if r.Status == "Enabled" && r.Expiration != nil && r.Expiration.Days <= expiryDays && (prefix == nil || *prefix == "") {
				return hit("cloud-teardown")
			}
		}
	}
	return Verdict{}
}
