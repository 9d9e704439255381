package danger

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// MongoDB beyond drop() and deleteMany({}): what mongosh (the Mongo
// context), a driver in node or Python, or mongosh --eval does to a
// database that is not a test's or a scratch one.
//
//   - a drop given as a command document (db.runCommand({ drop: "x" }),
//     { dropDatabase: 1 });
//   - a filter that every document matches, written out ({ _id: { $exists:
//     true } }, { _id: { $ne: null } }, an $or with such a branch);
//   - every index of a collection dropped (dropIndexes() or "*");
//   - a rename over an existing collection (renameCollection(x, true)
//     drops x first);
//   - a user created or granted a cluster-wide administrator role (root,
//     __system, userAdminAnyDatabase, …);
//   - a TTL index or collMod that expires documents within a day, on a
//     collection that is not a cache, a session or lock store, or scratch;
//   - the server shut down, a replica-set member or shard removed, every
//     user or role of a database dropped.

var (
	mongoCmdDrop   = regexp.MustCompile(`(?:runCommand|\bcommand)\s*\(\s*\{\s*["']?(drop|dropDatabase)["']?\s*:\s*(\x01\d+\x02|\w+)`)
	mongoTautology = regexp.MustCompile(`\{\s*["']?_id["']?\s*:\s*\{\s*["']?\$(?:exists\s*:\s*(?:true|1)|ne\s*:\s*null|gte?\s*:\s*(?:MinKey|new\s+MinKey)\b)`)
	mongoManyCall  = regexp.MustCompile(`\.\s*(?:deleteMany|delete_many|remove|updateMany|update_many)\s*\(`)
	mongoDropIdx   = regexp.MustCompile(`(\w+|\]|\))\s*\.\s*(?:dropIndexes|drop_indexes)\s*\(\s*(\)|\x01\d+\x02\s*\))`)
	mongoRenameOn  = regexp.MustCompile(`\.\s*(?:renameCollection|rename)\s*\(\s*[^,()]+,\s*(?:true|\{\s*["']?dropTarget["']?\s*:\s*true)|\.\s*rename\s*\([^()]*dropTarget\s*=\s*True`)
	mongoUserCall  = regexp.MustCompile(`\b(?:createUser|grantRolesToUser|updateUser)\s*\(|\bcommand\s*\(\s*\x01\d+\x02|\b(?:command|runCommand|adminCommand)\s*\(\s*\{\s*["']?(?:createUser|grantRolesToUser|updateUser)\b`)
	mongoShutdown  = regexp.MustCompile(`\bshutdownServer\s*\(|\badminCommand\s*\(\s*\{\s*["']?shutdown["']?\s*:`)
	mongoMember    = regexp.MustCompile(`\brs\s*\.\s*remove\s*\(|\bremoveShard\s*\(|\badminCommand\s*\(\s*\{\s*["']?removeShard["']?\s*:`)
	mongoAllUsers  = regexp.MustCompile(`\bdropAllUsers\s*\(|\bdropAllRoles\s*\(`)
	mongoTTL       = regexp.MustCompile(`(?:(?:db\s*\.\s*(\w+)|\[\s*\x01(\d+)\x02\s*\]|collection\s*\(\s*\x01(\d+)\x02\s*\))\s*\.\s*)?(?:createIndex|create_index|ensureIndex)\s*\([^\n]*?expireAfterSeconds["']?\s*[:=]\s*(\d+)`)
)

// mongoAdminRoles: MongoDB's built-in roles that control the whole deployment.
var mongoAdminRoles = map[string]bool{"root": true, "__system": true, "userAdminAnyDatabase": true, "dbAdminAnyDatabase": true,
	"clusterAdmin": true, "readWriteAnyDatabase": true, "restore": true}

// mongoEffects: the classes above in code whose literals scanLiterals read.
func mongoEffects(code string, strs []string) Verdict {
	for _, m := range mongoCmdDrop.FindAllStringSubmatch(code, -1) {
		name := m[2]
		if strings.HasPrefix(name, "\x01") {
			name = litAt(strs, strings.Trim(name, "\x01\x02"))
		}
		if m[1] == "dropDatabase" || !scratchTable(name) && !disposableStore(name) {
			return hit("mongo-drop")
		}
	}
	if mongoManyCall.MatchString(code) && mongoTautology.MatchString(code) {
		return hit("mongo-drop")
	}
	for _, m := range mongoDropIdx.FindAllStringSubmatch(code, -1) {
		if m[2] == ")" || strings.Trim(litAt(strs, strings.Trim(m[2], "\x01\x02) ")), " ") == "*" {
			if !scratchTable(m[1]) && !disposableStore(m[1]) {
				return hit("mongo-drop")
			}
		}
	}
	if mongoRenameOn.MatchString(code) {
		return hit("mongo-drop")
	}
	if mongoUserCall.MatchString(code) && slices.ContainsFunc(strs, func(s string) bool { return mongoAdminRoles[s] }) {
		return hit("sql-superuser")
	}
	switch {
	case mongoShutdown.MatchString(code):
		return hit("stop-service")
	case mongoMember.MatchString(code):
		return hit("store-replication")
	case mongoAllUsers.MatchString(code):
		return hit("account-change")
	}
	for _, m := range mongoTTL.FindAllStringSubmatch(code, -1) {
		coll := m[1]
		if n := m[2] + m[3]; n != "" {
			coll = litAt(strs, n)
		}
		secs, err := strconv.Atoi(m[4])
		if err == nil && secs <= 86400 && !expiringByDesign(coll) {
			return hit("data-expiry")
		}
	}
	return Verdict{}
}

// expiringByDesign: a collection, table or key space whose documents are
// meant to expire (a cache, sessions, tokens, locks, rate limits), or scratch.
var expiringKinds = regexp.MustCompile(`(?i)cache|session|sess$|^sess|token|lock|otp|nonce|ratelimit|rate_limit|throttle|heartbeat|presence|temp|tmp|scratch`)

func expiringByDesign(name string) bool {
	return name != "" && (expiringKinds.MatchString(name) || disposableStore(name))
}

// classifyMongo judges a line typed at mongosh: its JavaScript as node's
// (child_process, fs), the shell's drops and deletes as the session's
// current database is unknown, and the classes above.
func classifyMongo(input string, depth int) Verdict {
	code, strs := scanLiterals(input, "//", "${")
	if v := mongoEffects(code, strs); v.Dangerous {
		return v
	}
	if mongoDrops(input) && mongoDrop.MatchString(code) && !mongoScratchOnly(code, strs) {
		return hit("mongo-drop")
	}
	// node's rules know no session: a drop after "use app_test" is the
	// test database's, as mongoDrops has decided
	if v := classifyNode(input, depth); v.Dangerous && (v.Rule != "mongo-drop" || mongoDrops(input)) {
		return v
	}
	return Verdict{}
}

// mongoURIDisposable: a connection string or host naming a test, CI or
// staging database or host, or a local mongod on another port than 27017.
func mongoURIDisposable(uri string) bool {
	if uri == "" {
		return false
	}
	if disposableEndpoint(uri, "27017") {
		return true
	}
	if i := strings.Index(uri, "://"); i >= 0 {
		rest := uri[i+3:]
		if j := strings.Index(rest, "/"); j >= 0 {
			db := strings.SplitN(rest[j+1:], "?", 2)[0]
			return db != "" && mongoDisposableDB(db)
		}
	}
	return false
}

// mongoCommandTarget: the URI or host a mongo tool's command line names
// (--uri, --host, or mongosh's first operand), "" if none.
func mongoCommandTarget(c shell.Command) string {
	for _, o := range []string{"--uri", "--host"} {
		if v := optionValues(c.Args[1:], "", o); len(v) > 0 {
			return v[0]
		}
	}
	for _, w := range c.Args[1:] {
		if strings.HasPrefix(w.S, "mongodb://") || strings.HasPrefix(w.S, "mongodb+srv://") {
			return w.S
		}
	}
	return ""
}

// mongoDisposableDB: a MongoDB database named for tests, CI, staging or
// scratch use; MongoDB's own databases (local holds the oplog and replica
// set state, config a sharded cluster's, admin the users) never are.
func mongoDisposableDB(name string) bool {
	switch name {
	case "local", "config", "admin":
		return false
	}
	return disposableStore(name)
}
