package danger

// Rules and examples from round-6 probes: moves into scratch space, mass
// kills of a runtime, unmounting system trees, ACLs, swap, rewinding a
// remote branch, soft deletes of remote resources, credential reads
// through SQL, audit switches.

func init() {
	rules = append(rules, r6Rules...)
	addExamples(r6Examples)
}

var r6Rules = []rule{
	{"kill-runtime", catAvail,
		"This force-kills every process of a language runtime (every Java, Python or Node program on the machine, not one of them), with no chance to save state.",
		sh("killall -9 java", "sudo pkill -9 python3", "pkill -KILL -f node", "killall -s KILL ruby", "pgrep -f java | xargs kill -9", "kill -9 $(pgrep python3)",
			"killall -9 -r 'python.*'"),
		sh("pkill node", "killall -q node", "pkill -9 -f 'node server.js'", "killall -TERM java", "kill -9 $(pgrep -f 'java -jar app.jar')", "killall -0 java")},
}

var r6Examples = []moreExamples{
	{"delete-protected-tree", sh("mv ~/projects /tmp/", "mv -t /tmp ~/src", "sudo mv /srv/app/data /var/tmp/", "mv .git /tmp/old-git", "mv ~/work/api ~/.local/share/Trash/files/"),
		sh("mv ./build /tmp/", "mv /tmp/foo ~/projects/", "mv ~/Downloads/file.tar.gz /tmp/", "mv notes.txt /tmp/", "mv ~/projects/old ~/archive/")},
}
