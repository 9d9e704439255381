package pty

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
)

var sealOnce sync.Once

// sealInherited marks every descriptor this process inherited (above stderr) close-
// on-exec, once. Go opens its own files that way, but a descriptor the server's
// parent leaked to it would otherwise reach every session's program: a stray pipe
// there also makes a program waiting for input look like a proxy.
func sealInherited() {
	sealOnce.Do(func() {
		dir := "/proc/self/fd"
		if runtime.GOOS != "linux" {
			dir = "/dev/fd"
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
				syscall.CloseOnExec(fd)
			}
		}
	})
}
