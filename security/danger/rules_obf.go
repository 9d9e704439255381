package danger

// obfRules: the same effects reached through indirection that the shell
// resolves on the same line — lists, aliases, inline functions, globbed
// program names, literal text handed to an interpreter through <(…) or a
// decoder. Near-misses are the same shapes around harmless commands.
var obfRules = []moreExamples{
	{"rm-recursive-force",
		sh(`a=(rm -rf ~); "${a[@]}"`, `set -- rm -rf; "$@" /`, "alias x='rm -rf'; x ~", `f(){ rm -rf "$1"; }; f ~`,
			"/bin/r? -rf ~", "source <(echo rm -rf ~)", "bash <(printf 'rm -rf /')", "echo '~ fr- mr' | rev | sh",
			"echo 'ez -es ~' | tr a-z n-za-m | sh", "echo OJWSALLSMYQH4=== | base32 -d | sh",
			`perl -MMIME::Base64 -e 'system(decode_base64("cm0gLXJmIH4="))'`, "IFS=_; c=rm_-rf_/etc; $c",
			"xargs -I{} sh -c '{}' <<< 'rm -rf ~'", "echo 'rm -rf ~' | xargs -I{} sh -c '{}'"),
		sh(`a=(ls -la ~); "${a[@]}"`, `set -- ls -l; "$@" /tmp`, "alias ll='ls -la'; ll ~", `f(){ ls -la "$1"; }; f ~`,
			"/bin/l? -la ~", "source <(kubectl completion bash)", "echo '~ sl' | rev | sh", "echo '~ fr- mr' | rev",
			`perl -MMIME::Base64 -e 'print decode_base64("aGVsbG8=")'`, "IFS=_; c=ls_-la_/etc; $c",
			"echo 'ls -la' | xargs -I{} sh -c '{}'", `node -e "console.log(Buffer.from('cm0gLXJmIH4=','base64').toString())"`)},
}

// init adds obfRules' examples to the rules of the same id: the effect is
// the same rule, only reached another way.
func init() {
	addExamples(obfRules)
}
