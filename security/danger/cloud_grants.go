package danger

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Administration granted in a cloud account (tune20's accounts class, in
// the cloud's own terms): a user, role or group given the provider's
// administrator policy or role (AWS AdministratorAccess or IAMFullAccess,
// GCP owner, editor or an IAM/organization admin role, Azure Owner,
// Contributor or User Access Administrator), or a project opened to
// allUsers. A project or scope named as a sandbox, dev or test passes.

var (
	awsAdminPolicy = regexp.MustCompile(`:policy/(?:AdministratorAccess|IAMFullAccess|PowerUserAccess)$`)
	gcpAdminRole   = regexp.MustCompile(`^roles/(?:owner|editor|iam\.securityAdmin|iam\.serviceAccountTokenCreator|resourcemanager\.(?:organization|folder|project)IamAdmin|resourcemanager\.organizationAdmin)$`)
	azureAdminRole = shell.Set("owner", "contributor", "user access administrator", "role based access control administrator")
)

func init() {
	addHostCheck("aws", checkCloudGrant)
	addHostCheck("gcloud", checkCloudGrant)
	addHostCheck("az", checkCloudGrant)
}

func checkCloudGrant(c shell.Command, _ int) Verdict {
	ops := shell.Lits(shell.ParseOpts(c.Args[1:], "").Operands)
	if len(ops) < 2 || hasWord(c.Args, "--help") {
		return Verdict{}
	}
	switch c.Name {
	case "aws":
		if ops[0] != "iam" || !strings.HasPrefix(ops[1], "attach-") || !strings.HasSuffix(ops[1], "-policy") {
			return Verdict{}
		}
		return hitIf(slices.ContainsFunc(optionValues(c.Args[1:], "", "--policy-arn"), awsAdminPolicy.MatchString), "account-change")
	case "gcloud":
		i := slices.Index(ops, "add-iam-policy-binding")
		if i < 1 || ops[0] != "projects" && ops[0] != "organizations" && ops[0] != "folders" || len(ops) > i+1 && nonProdTarget(ops[i+1]) {
			return Verdict{}
		}
		members := optionValues(c.Args[1:], "", "--member")
		public := slices.ContainsFunc(members, func(m string) bool { return m == "allUsers" || m == "allAuthenticatedUsers" })
		return hitIf(public || slices.ContainsFunc(optionValues(c.Args[1:], "", "--role"), gcpAdminRole.MatchString), "account-change")
	case "az":
		if ops[0] != "role" || ops[1] != "assignment" || len(ops) < 3 || ops[2] != "create" {
			return Verdict{}
		}
		if slices.ContainsFunc(optionValues(c.Args[1:], "", "--scope"), nonProdTarget) {
			return Verdict{}
		}
		return hitIf(slices.ContainsFunc(optionValues(c.Args[1:], "", "--role"), func(r string) bool { return azureAdminRole[strings.ToLower(r)] }), "account-change")
	}
	return Verdict{}
}
