package danger

import (
	"strings"
	"sync"
	"testing"
)

func TestMemoryExpand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		history []string
		line    string
		want    string
	}{
		{"bang-bang", []string{"ls", "git clean -fdx"}, "!!", "git clean -fdx"},
		{"bang-bang with sudo", []string{"rm -rf /var/lib/app"}, "sudo !!", "sudo rm -rf /var/lib/app"},
		{"minus n", []string{"rm -rf ~", "ls", "pwd"}, "!-3", "rm -rf ~"},
		{"prefix", []string{"git push --force origin main", "git status", "ls"}, "!git", "git status"},
		{"search", []string{"git push --force origin main", "git status"}, "!?force?", "git push --force origin main"},
		{"absolute number is the shell's", []string{"rm -rf /", "ls"}, "!1", "!1"},
		{"substitution modifier", []string{"rm -rf ~/build"}, "!!:s/build//", "rm -rf ~/"},
		{"global substitution", []string{"echo a a"}, "!!:gs/a/b/", "echo b b"},
		{"word designator", []string{"cp x /etc/passwd"}, "rm !cp:2", "rm /etc/passwd"},
		{"last word", []string{"ls /etc"}, "rm -rf !$", "rm -rf /etc"},
		{"quick substitution", []string{"rm -rf ./build"}, "^./build^~", "rm -rf ~"},
		{"fc -s with substitution", []string{"rm -rf ./build", "ls"}, "fc -s ./build=~ rm", "rm -rf ~"},
		{"r", []string{"git clean -fdx"}, "r", "git clean -fdx"},
		{"r with prefix", []string{"git clean -fdx", "ls"}, "r git", "git clean -fdx"},
		{"single quotes keep bang", []string{"ls"}, "echo '!!'", "echo '!!'"},
		{"not a reference", []string{"ls"}, "[ ! -f x ] && test a != b", "[ ! -f x ] && test a != b"},
		{"unknown reference", []string{"ls"}, "!nosuch", "!nosuch"},
		{"alias", []string{"alias cleanup='rm -rf ~'"}, "cleanup", "rm -rf ~"},
		{"alias of own name", []string{"alias rm='rm -rf'"}, "rm ~", "rm -rf ~"},
		{"alias chain", []string{"alias a='b x'", "alias b='rm -rf'"}, "a ~", "rm -rf x ~"},
		{"alias not in argument", []string{"alias x='rm -rf /'"}, "echo x", "echo x"},
		{"unalias", []string{"alias x='rm -rf /'", "unalias x"}, "x", "x"},
		{"function", []string{"wipe() { rm -rf ~; }"}, "wipe", "wipe\n{ rm -rf ~; }"},
		{"function keyword", []string{"function wipe { git clean -fdx; }"}, "wipe", "wipe\n{ git clean -fdx; }"},
		{"function arguments", []string{`del() { rm -rf "$1"; }`}, "del ~", "del ~\n{ rm -rf \"~\"; }"},
		{"unset -f", []string{"wipe() { rm -rf ~; }", "unset -f wipe"}, "wipe", "wipe"},
		{"history of an expansion", []string{"rm -rf ~", "!!"}, "!!", "rm -rf ~"},
		// A line is parsed for definitions only if it may hold one (mayDefine):
		// names spelled through escapes and quotes still count.
		{"alias escaped", []string{`al\ias nuke='rm -rf ~'`}, "nuke", "rm -rf ~"},
		{"alias quoted", []string{`"alias" nuke='rm -rf ~'`}, "nuke", "rm -rf ~"},
		{"alias in ANSI-C quotes", []string{`$'\x61lias' nuke='rm -rf ~'`}, "nuke", "rm -rf ~"},
		{"alias continued", []string{"ali\\\nas nuke=ls"}, "nuke", "ls"},
		{"alias unquoted", []string{"alias nuke=ls"}, "nuke", "ls"},
		{"unset escaped", []string{"wipe() { rm -rf ~; }", `un\set -f wipe`}, "wipe", "wipe"},
		{"function spaced", []string{"wipe () { rm -rf ~; }"}, "wipe", "wipe\n{ rm -rf ~; }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var m Memory
			for _, h := range tt.history {
				m.Remember(h)
			}
			if got := m.Expand(tt.line); got != tt.want {
				t.Errorf("Expand(%q) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}

func TestMayDefine(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"echo c1-2", "ls -la /tmp", "git status", "make -j4 test"} {
		if mayDefine(line) {
			t.Errorf("mayDefine(%q) = true: a line with no name, quote or parenthesis defines nothing", line)
		}
	}
}

func TestClassifyIn(t *testing.T) {
	t.Parallel()
	var m Memory
	for _, h := range []string{"cd ~/project", "alias nuke='rm -rf ~'", "cleanup() { git clean -fdx; }", "rm -rf ./build"} {
		m.Remember(h)
	}
	for _, line := range []string{"nuke", "cleanup", "^./build^/", "fc -s ./build=/"} {
		if v := ClassifyIn(Shell, line, &m); !v.Dangerous {
			t.Errorf("ClassifyIn(%q) = %+v, want dangerous", line, v)
		}
	}
	for _, line := range []string{"!!", "ls", "r", "echo nuke"} {
		if v := ClassifyIn(Shell, line, &m); v.Dangerous {
			t.Errorf("ClassifyIn(%q) = %+v, want not dangerous", line, v)
		}
	}
	if v := ClassifyIn(Shell, "nuke", nil); v.Dangerous {
		t.Errorf("ClassifyIn with no Memory = %+v, want not dangerous", v)
	}
	if v := ClassifyIn(SQL, "nuke", &m); v.Dangerous {
		t.Errorf("ClassifyIn(SQL) = %+v: expansion is for shells only", v)
	}
}

func TestMemoryConcurrent(t *testing.T) {
	t.Parallel()
	var m Memory
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() { // exits after its 50 lines
			defer wg.Done()
			for range 50 {
				if i%2 == 0 {
					m.Remember("alias x='ls'")
				} else {
					_ = m.Expand("x !!")
				}
			}
		}()
	}
	wg.Wait()
}

func FuzzMemory(f *testing.F) {
	f.Add("alias x='rm -rf ~'", "x !! !-2 !$ ^a^b")
	f.Add("f() { rm -rf \"$1\"; }", "fc -s a=b f")
	f.Fuzz(func(t *testing.T, def, line string) {
		var m Memory
		m.Remember(def)
		m.Remember(line)
		_ = ClassifyIn(Shell, m.Expand(line), &m)
	})
}

// TestClassifyInDir: with Memory.Dir, a line is judged in the shell's directory
// too, as if a cd there began it, and Dir is read only for lines it can change.
func TestClassifyInDir(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dir, line string
		dangerous bool
	}{
		{"~", "rm .bashrc", true},
		{"~", "tar xzf release.tgz", true},
		{"/etc", "rm passwd", true},
		{"/usr", "rm -rf build", true},
		{"/etc", "ls -l passwd", false},
		{"~/proj", "rm -rf build", false},
		{"/tmp/x y", "rm -rf build", false},
		{"~/it's here", "rm -rf build", false},
		{"", "rm passwd", false}, // unknown: judged as typed
	} {
		reads := 0
		m := Memory{Dir: func() string { reads++; return c.dir }}
		v := ClassifyIn(Shell, c.line, &m)
		if v.Dangerous != c.dangerous {
			t.Errorf("in %q: ClassifyIn(%q) = %+v, want dangerous %v", c.dir, c.line, v, c.dangerous)
		}
		if v.Dangerous && !strings.HasSuffix(v.Why, "(typed in "+c.dir+").") {
			t.Errorf("in %q: %q: the reason does not say where: %s", c.dir, c.line, v.Why)
		}
		if want := strings.HasPrefix(c.line, "rm ") || strings.HasPrefix(c.line, "tar "); (reads > 0) != want {
			t.Errorf("in %q: %q: Dir read %d times", c.dir, c.line, reads)
		}
	}
	// What an alias stands for is judged there too.
	m := Memory{Dir: func() string { return "~" }}
	m.Remember("alias tidy='rm .bashrc'")
	if v := ClassifyIn(Shell, "tidy", &m); !v.Dangerous {
		t.Errorf("an alias typed in ~: %+v", v)
	}
}

// TestClassifyInVariables: a variable set at the prompt in one line keeps its value
// for the next ones, as in the shell, unless it is set to a value known only when
// it runs, unset, or set where the shell does not keep it.
func TestClassifyInVariables(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		earlier   []string
		line      string
		dangerous bool
	}{
		{[]string{"TARGET=/"}, `rm -rf "$TARGET"`, true},
		{[]string{"export D=~"}, "rm -rf ${D}", true},
		{[]string{"cd /tmp && declare -r T=/etc/passwd"}, "> $T", true},
		{[]string{"X=1; T=/etc"}, "rm -rf $T", true},
		{[]string{`H="$HOME/"`}, `rm -rf "$H"`, true},
		{[]string{"T=$PWD"}, `rm -rf "$T"`, false}, // $PWD then is not $PWD now
		{[]string{"TARGET=build"}, `rm -rf "$TARGET"`, false},
		{[]string{"TARGET=/", "unset TARGET"}, `rm -rf "$TARGET"`, false},
		{[]string{"TARGET=/", "TARGET=$(pwd)/out"}, `rm -rf "$TARGET"`, false},
		{[]string{"TARGET=/", "read TARGET"}, `rm -rf "$TARGET"`, false},
		{[]string{"TARGET=/"}, `TARGET=out; rm -rf "$TARGET"`, false},
		{[]string{"TARGET=/ make"}, `rm -rf "$TARGET"`, false},     // the make's environment only
		{[]string{"echo | TARGET=/"}, `rm -rf "$TARGET"`, false},   // a pipeline's subshell
		{[]string{"(TARGET=/)"}, `rm -rf "$TARGET"`, false},        // a subshell
		{[]string{"f() { TARGET=/; }"}, `rm -rf "$TARGET"`, false}, // not run yet
	} {
		var m Memory
		for _, l := range c.earlier {
			m.Remember(l)
		}
		v := ClassifyIn(Shell, c.line, &m)
		if v.Dangerous != c.dangerous {
			t.Errorf("after %q: ClassifyIn(%q) = %+v, want dangerous %v", c.earlier, c.line, v, c.dangerous)
		}
		if v.Dangerous && !strings.Contains(v.Why, "as set earlier") {
			t.Errorf("after %q: %q: the reason does not say why: %s", c.earlier, c.line, v.Why)
		}
	}
	// With the directory too: both are in the reason.
	m := Memory{Dir: func() string { return "~" }}
	m.Remember("F=.bashrc")
	if v := ClassifyIn(Shell, "rm $F", &m); !v.Dangerous || !strings.Contains(v.Why, "(typed in ~, with $F as set earlier)") {
		t.Errorf("rm $F in ~ after F=.bashrc: %+v", v)
	}
}

func TestRecursiveDeletions(t *testing.T) {
	t.Parallel()
	got := RecursiveDeletions(`cd /x && rm -rf /work/app "my proj" ~/src/shop build /tmp/clone $D node_modules; rm -f single; sudo rm -r /srv/data/*`)
	want := []string{"/work/app", "my proj", "~/src/shop", "/srv/data/*"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("RecursiveDeletions = %q, want %q", got, want)
	}
}
