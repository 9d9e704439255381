package danger

// The rule of round 12's Terraform class (checkTerraformUnreviewed).

func init() {
	rules = append(rules, rule{"terraform-unreviewed", catInfra,
		"This applies every change Terraform (or Pulumi) plans for the whole configuration, replacements and destroys included, without showing the plan first, " +
			"or makes Terraform forget a resource it manages, so the next apply creates an empty one beside it.",
		sh("terraform apply -auto-approve", "tofu apply -auto-approve -var-file=prod.tfvars", "terraform -chdir=infra apply -auto-approve",
			"terraform state rm aws_db_instance.main", "terraform state rm module.storage", "pulumi up --yes", "pulumi up -y --stack prod"),
		sh("terraform apply", "terraform apply tfplan", "terraform apply -auto-approve plan.out", "terraform apply -auto-approve -target=module.preview_env",
			"terraform state list", "terraform state mv aws_s3_bucket.a aws_s3_bucket.b", "terraform state rm null_resource.tmp_provision",
			"terraform apply -auto-approve -var-file=env/sandbox.tfvars", "pulumi up", "pulumi up --yes --stack pr-1432-preview", "pulumi preview")})
}

// The rule of the mv-per-file class from tune8 (checkMoveEach).
func init() {
	rules = append(rules, rule{"move-onto-one", catData,
		"This renames each of many files onto the same name, one after another; unless that name is an existing directory, every file but the last is lost.",
		sh(`for f in src/*.py; do mv "$f" lib; done`, `find . -name '*.rs' -exec mv {} crate \;`, `for f in *.ts; do mv -f "$f" ../shared; done`,
			`find src -type f -iname '*.java' -execdir mv {} Main \;`, `ls src/*.rb | xargs -I{} mv {} app`,
			`find . -name '*.kt' | while IFS= read -r f; do mv "$f" core; done`),
		sh(`for f in src/*.py; do mv "$f" lib/; done`, `mkdir -p lib && for f in src/*.py; do mv "$f" lib; done`, `for f in *.ts; do mv "$f" "${f%.ts}.mts"; done`,
			`find . -name '*.rs' -exec mv -t crate {} +`, `find . -name '*.rs' -exec mv {} crate/ \;`, `for f in *.log; do mv "$f" archive; done`,
			`for f in *.go; do mv -n "$f" ../internal; done`, `find . -name '*.js' -exec mv {} {}.bak \;`,
			`ls src/*.rb | xargs -I{} mv {} app/`, `find . -name '*.kt' | while read -r f; do mv "$f" "$f.orig"; done`)})
}
