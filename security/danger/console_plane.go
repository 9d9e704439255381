package danger

import (
	"regexp"
	"slices"
)

// Cloud control planes and IaC from node and Python code (tune18): the
// AWS SDK v3 commands that make a bucket public or schedule a KMS key's
// deletion, and Pulumi's Automation API destroying a stack — each judged by
// the names its literals give.

var (
	// sdkKeyDelete: a KMS key scheduled for deletion or disabled; what it
	// encrypted cannot be read once it is gone.
	sdkKeyDelete = regexp.MustCompile(`\bnew\s+(?:[\w$]+\s*\.\s*)?(?:ScheduleKeyDeletion|DisableKey|DeleteAlias|DeleteSecret|DeleteAccessKey)Command\b`)
	// sdkPublicACL: a bucket or object ACL command given a canned ACL.
	sdkPublicACL = regexp.MustCompile(`\bnew\s+(?:[\w$]+\s*\.\s*)?PutBucketAclCommand\s*\(\s*\{[^}]*\bACL\s*:\s*(` + pyL + `)`)
	// stackBinding: a Pulumi Automation API stack bound to a name, with the
	// stack's name: const st = await LocalWorkspace.selectStack({ stackName: 'org/app/prod', … }).
	stackBinding = regexp.MustCompile(`\b(?:const|let|var)?\s*(\w+)\s*=\s*(?:await\s+)?(?:[\w$.]+\s*\.\s*)?(?:selectStack|createOrSelectStack|createStack|select_stack|create_or_select_stack|create_stack)\s*\(\s*\{?[^)]*?\bstack_?[nN]ame\s*[:=]\s*(` + pyL + `)`)
	// stackDestroy: X.destroy(…) with the Automation API's options, or on a bound stack.
	stackDestroy = regexp.MustCompile(`\b(\w+)\s*\.\s*destroy\s*\(\s*(\{[^}]*\bon(?:Output|Event)\b|on_output\s*=|on_event\s*=|\))`)
)

// nodePlane judges node code's control-plane calls.
func nodePlane(code string, strs []string) Verdict {
	if sdkKeyDelete.MatchString(code) && !scratchLiterals(code, strs) {
		return hit("cloud-teardown")
	}
	for _, m := range sdkPublicACL.FindAllStringSubmatch(code, -1) {
		if publicGrant.MatchString(litValue(m[1], strs)) {
			return hit("storage-made-public")
		}
	}
	return stackDestroyed(code, strs)
}

// stackDestroyed: a Pulumi stack's destroy() called from code, unless the
// stack it was bound to is named as disposable (a dev, preview or pr stack).
func stackDestroyed(code string, strs []string) Verdict {
	bound := map[string]string{}
	for _, m := range stackBinding.FindAllStringSubmatch(code, -1) {
		bound[m[1]] = litValue(m[2], strs)
	}
	for _, m := range stackDestroy.FindAllStringSubmatch(code, -1) {
		name, ok := bound[m[1]]
		switch {
		case ok && !nonProdTarget(name):
			return hit("terraform-destroy")
		case !ok && m[2] != ")" && !slices.ContainsFunc(mapValues(bound), nonProdTarget):
			return hit("terraform-destroy") // the Automation API's options: a stack bound on an earlier line
		}
	}
	return Verdict{}
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
