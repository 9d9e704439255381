package danger

import (
	"strings"

	"github.com/mcp-terminal/mcp-terminal/security/internal/shell"
)

// Round-8 shell classes: public keyrings, placeholder
// Terraform targets, development databases, git read-tree --reset,
// Terraform state files and SELinux's enforce switch.

// publicKeyring: where apt keeps package sources' public signing keys.
func publicKeyring(p string) bool {
	for _, dir := range []string{"/etc/apt/keyrings/", "/usr/share/keyrings/", "/etc/apt/trusted.gpg.d/"} {
		if strings.HasPrefix(p, dir) {
			return true
		}
	}
	return false
}

// placeholderTargets: terraform destroy limited by -target to resources that
// hold nothing (null_resource, terraform_data, random_*, time_*, local_file).
func placeholderTargets(c shell.Command) bool {
	targets := append(optionValues(c.Args[1:], "-target", "-target"), optionValues(c.Args[1:], "--target", "--target")...)
	for _, t := range targets {
		if mod, ok := strings.CutPrefix(t, "module."); ok { // a module named as disposable (module.ephemeral_runner)
			if name, _, _ := strings.Cut(mod, "."); temporaryName(name) {
				continue
			}
		}
		kind, name, _ := strings.Cut(strings.TrimPrefix(t, "module."), ".")
		if !(kind == "null_resource" || kind == "terraform_data" || kind == "local_file" ||
			strings.HasPrefix(kind, "random_") || strings.HasPrefix(kind, "time_") || name != "" && temporaryName(name)) {
			return false
		}
	}
	return len(targets) > 0
}

// devDatabase: a database named for development or tests.
func devDatabase(name string) bool {
	n := strings.ToLower(name)
	return testDatabase(n) || strings.HasSuffix(n, "_dev") || strings.HasSuffix(n, "_development") ||
		strings.HasSuffix(n, "_local") || strings.HasPrefix(n, "dev_") || n == "regress" || n == "regression"
}

func init() {
	addExamples([]moreExamples{
		{"overwrite-protected", sh("gpg --dearmor -o ~/.gnupg/pubring.kbx key.asc"),
			sh("curl -fsSL https://example.org/key.asc | sudo gpg --dearmor -o /usr/share/keyrings/example.gpg")},
		{"terraform-destroy", sh("terraform destroy -target=aws_db_instance.main -auto-approve"),
			sh("terraform destroy -target=null_resource.provision -auto-approve", "terraform destroy -target random_id.suffix")},
		{"db-restore-clean", sh("pg_restore --clean -d shop backup.dump"), sh("pg_restore --clean -d shop_dev backup.dump", "pg_restore -c -d app_test x.dump")},
		{"cloud-teardown", sh("gcloud compute instances delete web-1 --zone europe-west1-b"),
			sh("gcloud compute instances delete build-tmp-17 --zone europe-west1-b --quiet")},
		{"git-discard-work", sh("git read-tree -u --reset HEAD", "git read-tree --reset -u origin/main"), sh("git read-tree HEAD", "git read-tree -m -u HEAD new")},
		{"security-off", sh("echo 0 | sudo tee /sys/fs/selinux/enforce", "echo 0 > /sys/fs/selinux/enforce"), sh("cat /sys/fs/selinux/enforce")},
		{"delete-credentials", sh("rm terraform.tfstate", "rm -f infra/prod/terraform.tfstate.backup"), sh("rm -f plan.tfplan", "rm -rf .terraform/providers")},
		{"package-unpublish", sh("gem yank acme -v 1.0.0"), sh("cargo yank --version 0.2.0 acme", "cargo yank --version 0.2.0 --undo")},
	})
}
