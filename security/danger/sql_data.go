package danger

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The SQL of lakehouse engines: DuckDB's COPY … TO 'dir' (… OVERWRITE)
// empties the directory before writing, and Delta's VACUUM … RETAIN n HOURS
// under the week it keeps by default deletes the files time travel and
// restores read.

var (
	sqlCopyOverwrite = regexp.MustCompile(`(?is)\bCOPY\b[^;]*?\bTO\s+'([^']+)'\s*\(([^;]*)\)`)
	sqlOverwriteOpt  = regexp.MustCompile(`(?i)\bOVERWRITE\b`) // not OVERWRITE_OR_IGNORE: files of the same name only
	sqlVacuumRetain  = regexp.MustCompile(`(?i)\bVACUUM\s+([\w.]+)[^;]*?\bRETAIN\s+(\d+(?:\.\d+)?)\s+HOURS\b`)
)

// deltaRetention is Delta Lake's default delete-file retention, in hours.
const deltaRetention = 168

func checkLakeSQL(input, clean string, depth int) Verdict {
	for _, m := range sqlCopyOverwrite.FindAllStringSubmatch(input, -1) {
		if sqlOverwriteOpt.MatchString(m[2]) {
			if v := judgeCommand(lakeRemoval(shQuote(m[1])), depth, "COPY … OVERWRITE"); v.Dangerous {
				return v
			}
		}
	}
	for _, m := range sqlVacuumRetain.FindAllStringSubmatch(clean, -1) {
		hours, err := strconv.ParseFloat(m[2], 64)
		if err == nil && hours < deltaRetention && !slices.ContainsFunc(strings.Split(m[1], "."), scratchTable) {
			return hit("sql-purge-history")
		}
	}
	return Verdict{}
}
