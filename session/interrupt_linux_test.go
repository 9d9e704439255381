package session

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// fakeJobShell is a shell with job control that holds open the moment every such
// shell has: it has read a command line and forked the command into a group of its
// own, but the command has not taken the terminal yet. An interrupt typed then
// reaches the shell, which (like bash waiting for a foreground job) leaves it to the
// job; here the command takes the terminal only once the shell has been interrupted,
// so the key always lands in that moment.
const fakeJobShell = `import os, signal, sys
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
while True:
    os.write(1, b"$ ")
    line = sys.stdin.readline()
    if not line:
        break
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        os.close(w)
        os.read(r, 1)
        os.tcsetpgrp(0, os.getpgrp())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        os.execvp("sleep", ["sleep", "100"])
    os.setpgid(pid, pid)
    os.close(r)
    os.write(1, b"started\r\n")
    signal.sigwait({signal.SIGINT})
    os.write(w, b"x")
    os.close(w)
    os.waitpid(pid, 0)
    os.tcsetpgrp(0, os.getpgrp())
`

// TestInterruptReachesCommandStartingInFront: ctrl+c typed while the shell is
// between forking a command and handing it the terminal must still stop the command
// (seen in the soak: a lost ctrl+c left sleep 100 running, and the next replies
// empty).
func TestInterruptReachesCommandStartingInFront(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	m := newManager(t, Config{})
	s, err := m.Create(CreateOptions{Command: "python3", Args: []string{"-c", fakeJobShell}})
	if err != nil {
		t.Fatal(err)
	}
	waitScreen(t, s, "$", 10*time.Second)
	if _, err := s.Send(t.Context(), Input{Text: "sleep 100", AppendNewline: true, Timeout: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, s, "started", 10*time.Second)
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+c", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || !strings.HasSuffix(r.Output, "$ ") {
		t.Fatalf("ctrl+c did not stop the command: %+v", r)
	}
}

// TestInterruptReachesCommandForkedAfterIt: an integrated shell in front that lets
// an interrupt pass (here it ignores SIGINT while busy, as bash may when the key
// lands just before its fork) and then starts a command in front: the command is
// what the key was meant for, since the shell has not ended a command since.
func TestInterruptReachesCommandForkedAfterIt(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	_, err := s.Send(t.Context(), Input{Text: "trap '' INT; echo busy; read -t 0.5 x </dev/zero; trap - INT; sleep 100",
		AppendNewline: true, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	waitScreen(t, s, "busy", 10*time.Second)
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+c", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || !strings.HasSuffix(r.Output, "$ ") {
		t.Fatalf("ctrl+c did not stop the command: %+v", r)
	}
	if r := send(t, s, "echo after"); r.Output != "after\n$ " {
		t.Fatalf("the next command: %+v", r)
	}
}

// TestInterruptLeavesPromptCommandsAlone: ctrl+c at an integrated shell idle at its
// prompt goes to its line editor, which draws a new prompt; nothing is watched, and
// its prompt command runs to the end. (bash runs prompt commands in its own group
// anyway; a shell that gives them the terminal is not installed here.)
func TestInterruptLeavesPromptCommandsAlone(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	m := newManager(t, Config{})
	s, err := m.Create(CreateOptions{Command: "bash", Args: []string{"--norc", "--noprofile"},
		Env: map[string]string{"PS1": "$ ", "HISTFILE": "/dev/null", "PROMPT_COMMAND": "sleep 0.2 && echo prompt-command-ran"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Startup(t.Context(), 10*time.Second); !r.Complete {
		t.Fatalf("startup: %+v", r)
	}
	if _, err := s.Send(t.Context(), Input{Keys: "ctrl+c", Timeout: 10 * time.Second}); err != nil {
		t.Fatal(err)
	}
	// The reply may come before the new prompt under load; the screen tells.
	waitScreen(t, s, "prompt-command-ran", 10*time.Second)
}

// TestInterruptWithAKeyBehindIt: ctrl+c and a key in one call reach bash's line
// editor together, so readline takes the key before it acts on the signal: it
// echoes ^C and waits for input again, and bash would act on the interrupt at the
// next key and drop it (`echo after` ran as `cho after`, as in the soak). The
// session presses ctrl+c again, which readline acts on at once: a fresh prompt
// (exit status 130) ends the reply, and the next line is whole. ctrl+g inserts
// nothing, so the dropped key is the next line's first.
func TestInterruptWithAKeyBehindIt(t *testing.T) {
	m := newManager(t, Config{})
	s := bash(t, m)
	r, err := s.Send(t.Context(), Input{Keys: "ctrl+c ctrl+g", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.Reason != "shell_mark" || r.Code == nil || *r.Code != 130 || !strings.HasSuffix(r.Output, "^C\n$ ") {
		t.Errorf("ctrl+c ctrl+g: %+v", r)
	}
	if r := send(t, s, "echo after"); r.Output != "after\n$ " {
		t.Fatalf("the line typed after ctrl+c: %+v", r)
	}
}
