package danger

// Examples for the classes of tune12 (danger reached through the structure of
// a longer line): a value computed by command substitutions beside literals,
// the directory $(pwd) captured after a cd chain, a directory mktemp just made
// mirrored with --delete.

func init() {
	addExamples(structureExamples)
}

var structureExamples = []moreExamples{
	{"delete-protected-tree", sh(`cd /srv/sites/shop && cd .. && OLD="$(pwd)" && cd / && rm -rf "$OLD"`,
		`pushd ~/code/ledger && HERE=$PWD && popd && rm -r -f "$HERE"`,
		`W="$(git rev-parse --show-toplevel)/.git"; rm -rf "$W"`, `T=$(git -C ~/code/ledger rev-parse --show-toplevel)/.git && rm -rf "$T"`,
		`S=$(mktemp -d) && rsync -a --delete-after "$S/" ~/code/ledger/`),
		sh(`cd /tmp/build-7 && HERE=$(pwd) && cd .. && rm -rf "$HERE"`, `cd ~/code/ledger && HERE=$(pwd) && cd .. && tar czf ledger.tgz "$HERE"`,
			`N="$(git rev-parse --show-toplevel)/node_modules"; rm -rf "$N"`, `W=$(git rev-parse --show-toplevel)/.git; du -sh "$W"`,
			`S=$(mktemp -d) && rsync -a --delete ~/code/ledger/ "$S/"`, `[ -z "$D" ] && D=$(pwd); rm -rf "$D/dist"`)},
}
