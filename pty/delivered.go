package pty

// Delivered reports how many output bytes Read has returned in all, and whether
// that is everything the terminal's programs have written to it so far: no output
// waits to be read, not even what the kernel is still moving from the programs'
// side of the terminal to ours (it does that in a worker, which a loaded machine
// may not run for a long while), and no Read is taking bytes at this moment.
//
// A caller that counts the bytes it has handled of what Read returned then knows,
// when the counts agree, that all output written before the call has reached it.
// That is what makes "the program is blocked reading" an answer: the program wrote
// everything before it blocked, and everything it wrote is here.
func (p *Process) Delivered() (n uint64, all bool) {
	pending, err := p.outputPending()
	// Order matters: a Read that emptied the terminal before the look above is still
	// counted as reading, or its bytes are in got, by the time these are loaded.
	busy := p.reading.Load() > 0
	n = p.got.Load()
	return n, err == nil && !pending && !busy
}

// outputPending reports whether output waits to be read from the master, including
// what the kernel is still moving there (see readable).
func (p *Process) outputPending() (bool, error) {
	rc, err := p.master.SyscallConn()
	if err != nil {
		return false, p.ioError(err)
	}
	var ready bool
	var rerr error
	if err := rc.Control(func(fd uintptr) { ready, rerr = readable(fd) }); err != nil {
		return false, p.ioError(err)
	}
	return ready, rerr
}
