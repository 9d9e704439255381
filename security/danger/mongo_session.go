package danger

import "regexp"

// A mongosh session switched to a test suite's database (use app_test, or
// use("app_test") in --eval) drops and empties there, as mongosh
// mongodb://localhost/app_test --eval … does; so does a drop of a database
// named for tests by name (db.getSiblingDB("app_test").dropDatabase()).

var (
	mongoUse      = regexp.MustCompile(`(?m)(?:^|;)\s*use\s*(?:\(\s*["']([\w-]+)["']\s*\)|([\w-]+))`)
	mongoNamedDB  = regexp.MustCompile(`(?:getSiblingDB|\.\s*db)\s*\(\s*["']([\w-]+)["']\s*\)\s*\.\s*dropDatabase\s*\(\s*\)`)
	mongoDropCall = regexp.MustCompile(`\.\s*(?:drop|dropDatabase|deleteMany|remove)\s*\(`)
)

// mongoDrops: code drops or empties a database or collection that is not
// known to be a test suite's.
func mongoDrops(code string) bool {
	loc := mongoDrop.FindStringIndex(code)
	if loc == nil {
		return false
	}
	if named := mongoNamedDB.FindAllStringSubmatch(code, -1); len(named) > 0 && len(named) == len(mongoDropCall.FindAllString(code, -1)) {
		all := true
		for _, m := range named {
			all = all && mongoDisposableDB(m[1])
		}
		if all {
			return false
		}
	}
	uses := mongoUse.FindAllStringSubmatchIndex(code, -1)
	if len(uses) == 0 || uses[0][0] > loc[0] {
		return true
	}
	for _, m := range uses {
		name := ""
		if m[2] >= 0 {
			name = code[m[2]:m[3]]
		} else {
			name = code[m[4]:m[5]]
		}
		if !mongoDisposableDB(name) {
			return true
		}
	}
	return false
}
