//go:build !windows

package rpc

import (
	"os"
	"sync"
	"syscall"
)

// pollable returns a File for fd that Go's network poller waits on, when fd
// is a pipe or a socket, so that a read or write that must wait parks its
// goroutine instead of holding a thread in a system call (which makes the
// runtime hand the thread's processor to another thread, and take it back,
// on every message). Anything else (a terminal, a file, /dev/null) keeps
// its blocking mode, since O_NONBLOCK would also change it for every other
// process sharing it, and nil is returned.
func pollable(fd int, name string) *os.File {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil
	}
	if m := st.Mode & syscall.S_IFMT; m != syscall.S_IFIFO && m != syscall.S_IFSOCK {
		return nil
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		return nil
	}
	madeNonblock.Lock()
	madeNonblock.fds = append(madeNonblock.fds, fd)
	madeNonblock.Unlock()
	return os.NewFile(uintptr(fd), name)
}

// madeNonblock is the descriptors pollable switched to non-blocking mode.
var madeNonblock struct {
	sync.Mutex
	fds []int
}

// RestoreBlocking puts back the blocking mode of the descriptors Stdin and
// ClaimStdout made non-blocking. The mode belongs to the pipe's open file,
// which a process that handed it to hookd may share; hookd serve calls this
// once Serve has returned and nothing reads or writes them any more.
func RestoreBlocking() {
	madeNonblock.Lock()
	defer madeNonblock.Unlock()
	for _, fd := range madeNonblock.fds {
		_ = syscall.SetNonblock(fd, false)
	}
	madeNonblock.fds = nil
}

// Stdin returns the protocol's input: fd 0, pollable where it can be (see
// pollable), else os.Stdin.
func Stdin() *os.File {
	if f := pollable(0, "protocol-stdin"); f != nil {
		return f
	}
	return os.Stdin
}
