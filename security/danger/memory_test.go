package danger

import (
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
